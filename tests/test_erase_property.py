"""Property (hypothesis): erasing scope A leaves every other scope exactly as if A had never
been written. For random multi-scope histories, a memory that held A and erased it and a
memory that never held A give the same search results (texts, kinds, scopes and scores,
per scope and over every scope), the same facts with their confidence, the same sessions,
entities and counts (ids aside: A's rows took some). Real SQLite files, the offline
summariser, the hashing embedder."""

from __future__ import annotations

import itertools
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

NOW = datetime(2024, 6, 1, tzinfo=UTC)
CITIES = ["Porto", "Lisbon", "Faro", "Braga", "Zagreb"]
THINGS = ["hiking", "sushi", "jazz", "chess", "pottery", "tennis"]
NAMES = ["Ana", "Marta", "Tom", "Ivo"]
SAYINGS = [
    "I moved to {city} last month.",
    "My sister {name} lives in {city}.",
    "I love {thing} on weekends.",
    "I work at a bakery in {city} now.",
    "My favourite hobby is {thing}.",
    "{name} and I went to {city} for {thing}.",
    "Sounds lovely, tell me more about {thing}.",
    "Any tips for {thing} in {city}?",
]
_COUNTER = itertools.count()
QUERIES = ["where do I live", "my sister", "hiking weekends", "bakery job", "Porto chess"]

line = st.builds(lambda s, c, t, n: s.format(city=c, thing=t, name=n),
                 st.sampled_from(SAYINGS), st.sampled_from(CITIES), st.sampled_from(THINGS),
                 st.sampled_from(NAMES))
session = st.tuples(st.sampled_from(["A", "B", "C"]), st.integers(1, 40),
                    st.lists(line, min_size=2, max_size=5))
history = st.lists(session, min_size=2, max_size=7).filter(
    lambda h: any(s == "A" for s, _, _ in h) and any(s != "A" for s, _, _ in h))


def _build(path: Path | str, sessions: list[tuple[str, int, list[str]]]) -> Memory:
    mem = Memory(str(path), config=load_config(
        environ={}, overrides={"confidence": {"touch_on_access": False}}),
        embedder=HashingEmbedder(dim=128, char_trigrams=True))
    for scope, days, lines in sessions:
        at = NOW - timedelta(days=days)
        for i, text in enumerate(lines):
            mem.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                            at=at + timedelta(minutes=i))
        mem.close_session(scope)
    mem.index(now=NOW)
    return mem


def _view(mem: Memory, *, ranked: bool = True) -> dict[str, Any]:
    """Everything of scopes B and C a reader can see, without ids (``ranked``: search
    results with their scores; else only that no hit is of A)."""
    out: dict[str, Any] = {}
    for scope in ("B", "C", None):
        for q in QUERIES:
            hits = mem.search(q, scope=scope, now=NOW)
            out[f"search {scope} {q}"] = (
                [(h.item.text, h.item.kind, h.item.scope, h.score) for h in hits] if ranked
                else [h.item.scope for h in hits if h.item.scope == "A"])
        if scope is None:
            out["facts"] = sorted((f.scope, f.subject, f.predicate, f.object, f.status)
                                  for f in mem.facts(None, include_superseded=True, now=NOW))
            continue
        out[f"facts {scope}"] = [(f.subject, f.predicate, f.object, f.status, f.confidence)
                                 for f in mem.facts(scope, include_superseded=True, now=NOW)]
        out[f"sessions {scope}"] = [(s.status, s.message_count, s.started_at, s.ended_at)
                                    for s in mem.sessions(scope)]
        out[f"entities {scope}"] = sorted(
            (e.name, e.type, e.context, e.mentions, e.first_seen, e.last_seen)
            for e in mem.store.scope_entities(scope))
    out["entities A"] = mem.store.scope_entities("A")
    out["rows of A"] = {t: mem.store.db.execute(f"SELECT count(*) FROM {t} WHERE scope = 'A'"
                                                 ).fetchone()[0]
                        for t in ("sessions", "messages", "items", "facts", "fact_events",
                                  "entities", "relations", "packs")}
    stats = mem.stats()
    out["counts"] = {k: stats[k] for k in ("messages", "sessions", "items")}
    return out


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(history)
def test_erasing_a_scope_is_as_if_it_had_never_been_written(sessions: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        erased = _build(Path(tmp) / "erased.db", sessions)
        never = _build(Path(tmp) / "never.db", [s for s in sessions if s[0] != "A"])
        try:
            # as many as were stored: two sessions of A drawn on the same day are one (the
            # second's messages fall inside the first's closed time range and join it)
            stored = len(erased.sessions("A", limit=1000))
            assert 1 <= stored <= sum(s[0] == "A" for s in sessions)
            report = erased.forget_scope("A")
            assert report.counts["sessions"] == stored
            assert _view(erased) == _view(never)
            assert erased.sessions("A") == [] and erased.search("Porto", scope="A") == []
        finally:
            erased.close()
            never.close()


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
@given(history)
def test_the_same_on_postgres(postgres_server_url: str, sessions: list[Any]) -> None:
    """The same on PostgreSQL, but for the search scores: its lexical ranking reads the
    commonest lexemes' frequencies from ``pg_stats.most_common_elems`` (``TermStats``),
    which ANALYZE estimates from the heap as it lies, so two databases with different
    histories score a common term slightly differently even after VACUUM ANALYZE
    (measured here: 1.5286 against 1.5271). Searches are checked to show nothing of A;
    everything else must be equal."""
    from memlane.testing.postgres import create_database, drop_database

    names = [f"erase_prop_{os.getpid()}_{next(_COUNTER)}_{k}" for k in ("erased", "never")]
    urls = [create_database(postgres_server_url, n) for n in names]
    try:
        erased = _build(urls[0], sessions)
        never = _build(urls[1], [s for s in sessions if s[0] != "A"])
        try:
            erased.forget_scope("A")
            for mem in (erased, never):
                mem.store.db.execute("VACUUM ANALYZE")
            assert _view(erased, ranked=False) == _view(never, ranked=False)
        finally:
            erased.close()
            never.close()
    finally:
        for n in names:
            drop_database(postgres_server_url, n)
