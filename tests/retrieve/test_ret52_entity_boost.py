"""Stage one counts the entities the query names that a session holds: the session that
mentions the named place or person rises past one that only shares the question's other
words (``retrieval.session_entity_boost``; docs/retrieval.md, "Session 52")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.graph import entity_sessions, named_entities
from memlane.memory import Memory
from memlane.retrieve.text import query_terms
from memlane.testing import HashingEmbedder, add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
TRIP = "We rented a small boat there with the kids."
SESSIONS = [
    (30, [("user", "We went sailing with the kids on the lake last weekend."),
          ("assistant", "Sailing with kids sounds fun."),
          ("user", "The kids loved steering the boat and want to go sailing again."),
          ("assistant", "Maybe a sailing class for them?")]),
    (20, [("user", "I baked bread with a new sourdough starter."),
          ("assistant", "Feed it twice a day."),
          ("user", "The crumb was dense."), ("assistant", "Try a longer proof.")]),
    (10, [("user", "My friend Tomasz invited us to Lake Wanaka for a week."),
          ("assistant", "Lake Wanaka is beautiful."),
          ("user", TRIP),
          ("assistant", "Lovely.")]),
]
QUERY = "What did the kids do at Lake Wanaka?"


def _first_turns(tmp_path: Path, boost: float) -> list[str]:
    # one session shortlisted: stage one's first session decides the turns
    m = memory(tmp_path / f"b{boost}.db", retrieval={"top_sessions": 1, "session_entity_boost": boost})
    try:
        add_sessions(m, SESSIONS, now=NOW)
        hits = m.search(QUERY, scope="chat", k=4, now=NOW)
        return [h.item.text for h in hits if h.item.kind == "turn"]
    finally:
        m.close()


def test_the_session_naming_the_entity_rises(tmp_path: Path) -> None:
    off = _first_turns(tmp_path, 0.0)
    assert off[0].startswith("We went sailing")  # the kids and the lake's words alone
    on = _first_turns(tmp_path, load_config(environ={}).retrieval.session_entity_boost)
    assert on[0].startswith("My friend Tomasz")  # the session mentioning Lake Wanaka
    assert TRIP in on[:3]


def test_entity_sessions_leave_the_speakers_out(tmp_path: Path) -> None:
    m = memory(tmp_path / "s.db")
    try:
        add_sessions(m, [
            (20, [("Rosa", "Omar, I finally visited Lake Wanaka with my kids!"),
                  ("Omar", "Rosa, that sounds lovely.")]),
            (10, [("Rosa", "Omar, my pottery class starts on Monday."),
                  ("Omar", "Good luck with it, Rosa.")]),
        ], now=NOW, speakers=True)
        query = "What did Rosa do at Lake Wanaka?"
        named = named_entities(m.store, "chat", query_terms(query), query=query)
        names = entity_sessions(named)
        assert "lake wanaka" in names and len(names["lake wanaka"]) == 1
        skipped = entity_sessions(named, skip=["rosa", "omar"])
        assert set(skipped) == {"lake wanaka"}
    finally:
        m.close()


def test_the_boost_is_checked() -> None:
    with pytest.raises(ConfigError, match="session_entity_boost"):
        load_config(environ={}, overrides={"retrieval": {"session_entity_boost": -0.1}})


def test_a_search_reads_the_entity_graph_once(tmp_path: Path) -> None:
    # the graph stage and stage one's entity boost share one lookup (session 53): the
    # scope's entity names and their spellings are read once a search, not once a use
    reads: list[str] = []

    def tracer(kind: str, sql: str, _params: object) -> None:
        if kind == "sql" and ("FROM entities WHERE scope" in sql or "'entity'" in sql):
            reads.append(sql)

    config = load_config(environ={}, overrides={"db": str(tmp_path / "t.db")})
    m = Memory(config=config, embedder=HashingEmbedder(dim=256, char_trigrams=True), tracer=tracer)
    try:
        add_sessions(m, SESSIONS, now=NOW)
        assert config.retrieval.graph_hops > 0 and config.retrieval.session_entity_boost > 0
        reads.clear()
        hits = m.search(QUERY, scope="chat", k=4, now=NOW)
        assert any(h.item.text == TRIP for h in hits)
        assert len([r for r in reads if "FROM entities WHERE scope" in r]) == 1
        assert len([r for r in reads if "'entity'" in r]) == 1
    finally:
        m.close()
