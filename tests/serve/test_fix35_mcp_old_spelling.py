"""MCP's ``context`` (the pack) and ``recall`` over a scope an old database holds in another
spelling (``team\\u200b``, as a memlane before session 22 wrote it), over a real ``memlane
mcp`` process on stdio and ``/mcp`` of a real service (session 35, fix35). Session 34 (fix34c)
fixed the pack for the library, the CLI and ``POST /v1/pack`` and named MCP's as fixed by the
same path without running it: here it is run. The caller's own ``team\\u200b`` stays refused
naming ``scope``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from memlane.ingest.spellings import forget_spellings
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.test_mcp import over_http, server, talk

SAID = "the deploy key rotates monthly"


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    path = tmp_path / "old.db"
    with memory(path) as mem:
        mem.store.add_message("team\u200b", "user", SAID, 1_700_000_000.0, gap=3600.0,
                              speaker=None, ext_id=None, agent=None, project=None,
                              redactions=0)  # as a memlane before session 22 wrote it
        forget_spellings(mem.store)
        mem.close_session("team")
        mem.index()
    return str(path)


def _asks(answers: dict[str, Any]) -> Any:
    async def body(c: Client) -> None:
        for tool, args in (("context", {"question": "deploy key"}),
                           ("recall", {"query": "deploy key"})):
            for typed in ("team", "team\u200b"):
                result = await c.call_tool(tool, {**args, "scope": typed})
                text = "\n".join(x.text for x in result.content if x.type == "text")
                answers[tool, typed] = (result.is_error, text)
    return body


def _check(answers: dict[str, Any]) -> None:
    for tool in ("context", "recall"):
        is_error, text = answers[tool, "team"]
        assert not is_error and SAID in text, (tool, text)
        is_error, text = answers[tool, "team\u200b"]  # a caller's own old spelling: refused
        assert is_error and f"{tool}: scope: " in text, (tool, text)


def test_mcp_context_and_recall_over_an_old_spelling_on_stdio(tmp_path: Path, old_db: str
                                                               ) -> None:
    answers: dict[str, Any] = {}
    talk(server(tmp_path, old_db), _asks(answers))
    _check(answers)


def test_mcp_context_and_recall_over_an_old_spelling_over_http(old_db: str) -> None:
    answers: dict[str, Any] = {}
    with memory(old_db) as mem, serving(create_app(mem, worker=False)) as url:
        over_http(url, create_key(mem.store, "team").key, _asks(answers))
    _check(answers)
