"""An empty ``subject`` is refused naming it on every surface that lists facts, as a blank
one (``" "``) was: ``or None`` read it as no subject, so ``?subject=`` (a client's unset
variable), ``--subject ""`` and MCP ``facts`` with ``subject: ""`` listed every fact
(session 33, docs/hardening.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

BLANKS = ["", " ", "\u3000"]


def _facts(db: Path) -> None:
    with memory(db) as mem:
        mem.add_fact("user", "lives in", "Lisbon", scope="me")
        mem.add_fact("Ana", "likes", "tea", scope="me")


@pytest.mark.parametrize("blank", BLANKS)
def test_cli_refuses_an_empty_subject(tmp_path: Path, blank: str) -> None:
    _facts(tmp_path / "m.db")
    res = CliRunner().invoke(cli, ["--db", str(tmp_path / "m.db"), "facts", "list", "--subject", blank])
    assert res.exit_code == 2, res.output
    assert "Invalid value for '--subject': must be a non-empty string" in res.output


def test_http_refuses_an_empty_subject(tmp_path: Path) -> None:
    _facts(tmp_path / "m.db")
    mem = memory(tmp_path / "m.db")
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url, httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as http:
            for blank in BLANKS:
                for res in (http.get("/v1/facts", params={"subject": blank}),
                            http.post("/actions", json={"kind": "facts.list",
                                                        "input": {"subject": blank}})):
                    assert res.status_code == 400, res.text
                    assert res.json()["error"]["field"] in ("subject", "input.subject"), res.text
                    assert "subject: must be a non-empty string" in res.json()["error"]["message"]
            listed = http.get("/v1/facts", params={"subject": "Ana"}).json()["facts"]
    finally:
        mem.close()
    assert [f["object"] for f in listed] == ["tea"]


def test_mcp_facts_refuses_an_empty_subject(tmp_path: Path) -> None:
    from tests.serve.test_mcp import call, server, talk

    _facts(tmp_path / "m.db")

    async def body(c: Any) -> None:
        for blank in BLANKS:
            out = await call(c, "facts", {"subject": blank}, error=True)
            assert "subject: must be a non-empty string" in out, out
        assert "tea" in await call(c, "facts", {"subject": "Ana"})

    talk(server(tmp_path, str(tmp_path / "m.db"), "--scope", "me"), body)
