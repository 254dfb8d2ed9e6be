"""A question about nothing in a small scope is answered "nothing found", with the reason,
on every surface (session 31).

After forgetting "My locker code is 4471", ``recall`` of "locker code" answered "I also
like tea" (``why: meaning cosine 0.000 (#1)``): every vector candidate was a hit however
far from the query. Now a hit shares a word with the query or is nearer to it than
``retrieval.min_similarity`` (tests/retrieve/test_min_similarity.py), and ``memlane
search``, ``POST /v1/search`` and the MCP ``recall`` say what a match is when none is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
TEXTS = ["My locker code is 4471", "I also like tea", "The weather in Oslo was grey"]
WHY = "no memory shares a word with the query, and none is nearer to it in meaning than " \
      "retrieval.min_similarity (0.1)"


def _forgotten(db: Path) -> None:
    """The three messages, indexed, then the first forgotten (as the user did)."""
    mem = memory(db)
    try:
        for i, text in enumerate(TEXTS):
            mem.add_message("me", "user", text, at=f"2024-05-01T10:0{i}:00Z")
        mem.close_session("me")
        mem.index(now="2024-06-01T00:00:00Z")
        first = next(h.item.id for h in mem.search("locker code", scope="me")
                     if h.item.kind == "turn" and h.item.text == TEXTS[0])
        mem.forget_item(first)
    finally:
        mem.close()


def _cli(db: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--db", str(db), *args], env=ENV)


def test_cli_search_says_nothing_was_found_and_why(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _forgotten(db)
    out = json.loads(_cli(db, "search", "locker code", "--scope", "me", "--json").output)
    assert out["hits"] == [], out["hits"]
    assert out["notice"] == f"no results: {WHY}", out
    shown = _cli(db, "search", "locker code", "--scope", "me")
    assert shown.exit_code == 0 and "tea" not in shown.output, shown.output
    assert f"no results: {WHY}" in shown.output, shown.output
    # the meaning preset takes the same candidates (its transformer re-scores them)
    meaning = _cli(db, "search", "locker code", "--scope", "me", "--preset", "meaning")
    assert meaning.exit_code == 0 and f"no results: {WHY}" in meaning.output, meaning.output
    # a word the scope holds still finds its item
    assert "I also like tea" in _cli(db, "search", "tea", "--scope", "me").output


def test_http_search_says_nothing_was_found_and_why(tmp_path: Path) -> None:
    import httpx

    db = tmp_path / "m.db"
    _forgotten(db)
    mem = memory(db)
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url:
            r = httpx.post(f"{url}/v1/search", json={"query": "locker code", "scope": "me"},
                           headers={"Authorization": f"Bearer {key}"}, timeout=30)
    finally:
        mem.close()
    assert r.status_code == 200, r.text
    assert r.json()["hits"] == [] and r.json()["notice"] == f"no results: {WHY}", r.json()


def test_recall_says_nothing_was_found_and_why(tmp_path: Path) -> None:
    from tests.serve.test_mcp import call, server, talk

    db = tmp_path / "m.db"
    _forgotten(db)

    async def body(c: Any) -> None:
        out = await call(c, "recall", {"query": "locker code", "scope": "me", "explain": True})
        assert "tea" not in out and "Oslo" not in out, out
        assert out.startswith(f"no memories match 'locker code' in scope me: {WHY}."), out
        assert "I also like tea" in await call(c, "recall", {"query": "tea", "scope": "me"})

    talk(server(tmp_path, str(db)), body)
