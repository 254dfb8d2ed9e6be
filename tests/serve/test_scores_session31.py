"""A score that is not zero never prints as zero (session 31).

A scope of one item scores a word every row holds with SQLite's idf floor: a raw BM25 of
about 1e-6, a true match. ``memlane search --explain`` printed it ``bm25=0.00#1`` and the
inspector ``raw BM25 0.000``, which read as no match (session 30 left the MCP ``recall``
figure out instead). Every place that prints a score with fixed decimals (the CLI, the MCP
tools' text, the inspector, a pack's text) now goes through ``explain.figure``: ``<0.01``.
"""

from __future__ import annotations

import json
import math
import re
from html import unescape
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from memlane.retrieve.explain import figure
from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

ENV = {"MEMLANE_EMBEDDING_BACKEND": "hashing"}
ZERO = re.compile(r"^[+-]?0\.0+$")


@given(value=st.floats(allow_nan=False, allow_infinity=False), places=st.integers(1, 4),
       signed=st.booleans())
def test_a_figure_is_zero_only_for_zero(value: float, places: int, signed: bool) -> None:
    text = figure(value, places, signed=signed)
    assert bool(ZERO.match(text)) == (value == 0), (value, text)
    assert not text.startswith("-0.") or not ZERO.match(text), text  # no "-0.00"
    if abs(value) >= 10 ** -places:  # a figure that shows a digit is the plain format
        assert math.isclose(float(text), value, abs_tol=10 ** -places), (value, text)


def _one_item(db: Path) -> None:
    mem = memory(db)
    try:
        mem.add_message("one", "user", "I ran the Lisbon half marathon", at="2024-05-01T10:00:00Z")
        mem.close_session("one")
        mem.index(now="2024-06-01T00:00:00Z")
    finally:
        mem.close()


def _run(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args], env=ENV)
    assert result.exit_code == 0, result.output
    return result.output


def test_search_explain_prints_no_zero_for_a_tiny_bm25(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _one_item(db)
    hits = json.loads(_run(db, "search", "marathon", "--scope", "one", "--json"))["hits"]
    raw = hits[0]["scores"]["lexical"]
    assert 0 < raw < 0.005, raw  # the premise: a true score two decimals round to nothing
    out = _run(db, "search", "marathon", "--scope", "one", "--explain")
    first = out.splitlines()[1]
    assert "bm25=<0.01#1" in first, out
    # every raw figure of every hit line: zero text only for a zero value
    for hit, line in zip(hits, [x for x in out.splitlines() if x.lstrip().startswith("item ")],
                         strict=True):
        values = {"score": hit["score"], "rrf": hit["scores"].get("rrf"),
                  "bm25": hit["scores"].get("lexical"), "cos": hit["scores"].get("vector")}
        for name, text in re.findall(r"(\w+)=([^#\s]+)", line):
            if values.get(name) is not None:
                assert bool(ZERO.match(text)) == (values[name] == 0), (name, text, values)


def test_the_inspectors_search_page_prints_no_zero_for_a_tiny_bm25(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    _one_item(db)
    mem = memory(db)
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url:
            import httpx

            page = httpx.get(f"{url}/ui/search", params={"q": "marathon", "scope": "one"},
                             cookies={"memlane_key": key}, timeout=30).text
    finally:
        mem.close()
    raw = re.search(r'raw BM25</th><td class="num">([^<]+)</td>', page)
    assert raw is not None, page
    assert unescape(raw.group(1)) == "<0.001", raw.group(1)


def test_recall_shows_the_tiny_bm25_as_under_a_hundredth(tmp_path: Path) -> None:
    from tests.serve.test_mcp import call, server, talk

    async def body(c: Any) -> None:
        await call(c, "remember", {"text": "I ran the Lisbon half marathon", "scope": "one"})
        out = await call(c, "recall", {"query": "marathon", "scope": "one", "explain": True})
        assert "words bm25 <0.01 (#1)" in out, out
        assert "bm25 0.00" not in out, out

    talk(server(tmp_path, str(tmp_path / "m.db")), body)
