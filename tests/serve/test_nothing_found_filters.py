"""A search that finds nothing because of its filters does not say that no memory shares a
word with the query (session 32, rev32).

Session 31's notice, "no results: no memory shares a word with the query, and none is
nearer to it in meaning than retrieval.min_similarity (0.1)", was said of every empty
search: ``memlane search Lisbon --since 2030-01-01`` (or ``--kind``, ``--privacy``,
``--agent``) said it of a scope whose memory of Lisbon the filter left out. Now the notice
names the filters it was said under, on the CLI, ``POST /v1/search`` and MCP ``recall``."""

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
FALSE = "no results: no memory shares a word with the query"


def _lisbon(db: Path) -> None:
    mem = memory(db)
    try:
        mem.add_message("me", "user", "I moved to Lisbon last year", at="2024-05-01T10:00:00Z")
        mem.close_session("me")
        mem.index(now="2024-06-01T00:00:00Z")
        assert mem.search("Lisbon", scope="me")
    finally:
        mem.close()


def _cli(db: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--db", str(db), *args], env=ENV)


def test_cli_names_the_filters_it_found_nothing_under(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _lisbon(db)
    for given, names in ((["--since", "2030-01-01"], "--since"),
                         (["--until", "2000-01-01", "--agent", "x"], "--agent, --until"),
                         (["--privacy", "shared"], "--privacy"),
                         (["--kind", "decision"], "--kind")):
        out = json.loads(_cli(db, "search", "Lisbon", "--scope", "me", "--json", *given).output)
        assert out["hits"] == [], out
        assert not out["notice"].startswith(FALSE), (given, out["notice"])
        assert out["notice"].startswith(
            f"no results: no memory of those the filters keep ({names}) shares a word with "
            "the query"), (given, out["notice"])
    # no filter: as before
    out = json.loads(_cli(db, "search", "quantum", "--scope", "me", "--json").output)
    assert out["notice"].startswith(FALSE), out


def test_http_search_names_the_filters_it_found_nothing_under(tmp_path: Path) -> None:
    import httpx

    db = tmp_path / "m.db"
    _lisbon(db)
    mem = memory(db)
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url:
            r = httpx.post(f"{url}/v1/search", json={
                "query": "Lisbon", "scope": "me", "since": "2030-01-01",
                "filters": {"kinds": ["decision"]}},
                headers={"Authorization": f"Bearer {key}"}, timeout=30)
    finally:
        mem.close()
    assert r.status_code == 200, r.text
    notice = r.json()["notice"]
    assert r.json()["hits"] == [] and not notice.startswith(FALSE), notice
    assert "of those the filters keep (kinds, since)" in notice, notice


def test_recall_names_the_filters_it_found_nothing_under(tmp_path: Path) -> None:
    from tests.serve.test_mcp import call, server, talk

    db = tmp_path / "m.db"
    _lisbon(db)

    async def body(c: Any) -> None:
        out = await call(c, "recall", {"query": "Lisbon", "scope": "me", "since": "2030-01-01"})
        assert out.startswith("no memories match 'Lisbon' in scope me: no memory of those the "
                              "filters keep (since) shares a word with the query"), out

    talk(server(tmp_path, str(db)), body)


def test_recall_of_a_query_without_words_says_so(tmp_path: Path) -> None:
    """``recall`` of "???" said no memory shares a word with it, where the CLI and
    ``POST /v1/search`` say the query has no words and nothing was searched."""
    from tests.serve.test_mcp import call, server, talk

    db = tmp_path / "m.db"
    _lisbon(db)
    said = json.loads(_cli(db, "search", "???", "--scope", "me", "--json").output)["notice"]
    assert "has no words to search for" in said, said

    async def body(c: Any) -> None:
        out = await call(c, "recall", {"query": "???", "scope": "me"})
        assert out.startswith(f"no memories match '???' in scope me: {said}"), out
        assert "shares a word" not in out, out

    talk(server(tmp_path, str(db)), body)


def _levels(db: Path) -> None:
    """One memory of each privacy level, each holding its own word."""
    mem = memory(db)
    try:
        for level in ("private", "project", "shared"):
            mem.upsert(f"the {level} note says zebrafish{level}", scope="me", privacy=level)
        mem.upsert("the shared note says zebrafishshared", scope="pub", privacy="shared")
    finally:
        mem.close()


def test_a_memory_the_default_privacy_leaves_out_is_named(tmp_path: Path) -> None:
    """Session 33 (rev33's finding): a "shared" memory of the query's word, left out by
    ``search.default_privacy`` (private, project), was told "no memory shares a word with the
    query"; ``--privacy shared`` finds it. The notice now names the default as a filter, on
    the CLI, ``POST /v1/search`` and MCP ``recall``, but only where the scope holds a memory
    of a level it leaves out."""
    import httpx

    from tests.serve.test_mcp import call, server, talk

    db = tmp_path / "m.db"
    _levels(db)
    named = "of those the filters keep (search.default_privacy = private, project)"
    for level in ("private", "project", "shared"):
        out = json.loads(_cli(db, "search", f"zebrafish{level}", "--scope", "me", "--json").output)
        if level == "shared":
            assert out["hits"] == [] and named in out["notice"], out
            given = json.loads(_cli(db, "search", "zebrafishshared", "--scope", "me",
                                    "--privacy", "shared", "--json").output)
            assert [h["item"]["privacy"] for h in given["hits"]] == ["shared"], given
        else:
            assert out["hits"], (level, out)
    # the privacy given: the default is not among the filters
    out = json.loads(_cli(db, "search", "quantum", "--scope", "me", "--privacy", "private",
                          "--json").output)
    assert "(--privacy)" in out["notice"] and "default_privacy" not in out["notice"], out
    # a scope with no memory the default leaves out: as before
    _lisbon(db)
    out = json.loads(_cli(db, "search", "quantum", "--scope", "me2", "--json").output)
    assert "default_privacy" not in (out["notice"] or ""), out

    mem = memory(db)
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url:
            r = httpx.post(f"{url}/v1/search", json={"query": "zebrafishshared", "scope": "pub"},
                           headers={"Authorization": f"Bearer {key}"}, timeout=30)
            r2 = httpx.post(f"{url}/v1/search", json={
                "query": "zebrafishshared", "scope": "pub", "filters": {"privacy": ["shared"]}},
                headers={"Authorization": f"Bearer {key}"}, timeout=30)
    finally:
        mem.close()
    assert r.status_code == 200 and r.json()["hits"] == [], r.text
    assert named in r.json()["notice"], r.text
    assert r2.status_code == 200 and len(r2.json()["hits"]) == 1, r2.text

    async def body(c: Any) -> None:
        out = await call(c, "recall", {"query": "zebrafishshared", "scope": "pub"})
        assert out.startswith("no memories match 'zebrafishshared' in scope pub: no memory "
                              f"{named} shares a word with the query"), out

    talk(server(tmp_path, str(db)), body)
