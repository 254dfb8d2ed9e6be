"""``gc`` places the relations whose session's summary says nothing of their ends (session
33; docs/facts.md, "Session 33: relations gc places by reading their session").

Session 32 swept a relation whose end its session's summary lists as an entity, with no node
and no entity item left: an older hygiene (sessions 28 to 30) evicted the node and kept the
relation. A session too small for a summary, one whose summary was evicted, and an end past
the summary's 20 entities were left: nothing said the end had been a node. The store has
what says it: the session's messages, which the offline patterns read (every session too
small for a summary, whatever the backend, and every session the offline backend
summarized); the entities that reading gives are the nodes the pipeline made. The databases
are built as session 32's test builds them: indexed today, then the entity items and nodes
deleted as the older hygiene did. Real SQLite files and the PostgreSQL the tests start."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.hygiene import offline_entity_keys
from memlane.index.normalize import name_key
from memlane.memory import Memory
from memlane.testing import memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)
_SCOPES = itertools.count()
# twenty-two names before the statement: the offline summary lists the first 20 entities
CROWD = ["Quillan", "Brastow", "Corvina", "Delmont", "Esperanza", "Falkirk", "Gwendolyn",
         "Harrowgate", "Isadora", "Jocasta", "Kilbride", "Lachlan", "Morwenna", "Nethercott",
         "Ottoline", "Penzance", "Quenby", "Rosalind", "Stanwick", "Tamsin", "Ulverston", "Vashti"]
LUNCHES = [f"Yesterday I had lunch with {a} and {b} in town." for a, b in zip(CROWD[::2], CROWD[1::2],
                                                                           strict=True)]


def _session(mem: Memory, scope: str, days: int, texts: list[str], *, answers: bool = True) -> int:
    at = NOW - timedelta(days=days)
    for i, text in enumerate(texts):
        mem.add_message(scope, "user", text, at=at + timedelta(minutes=2 * i))
        if answers:
            mem.add_message(scope, "assistant", "I see.", at=at + timedelta(minutes=2 * i + 1))
    mem.close_session(scope)
    mem.index(now=NOW)
    return max(s.id for s in mem.sessions(scope))


def _evict(mem: Memory, scope: str, *names: str) -> None:
    """What hygiene did in sessions 28 to 30: the entity items and the node deleted, the
    relations naming it and the facts kept."""
    run = mem.store._run
    with mem.store.atomic():
        for name in names:
            run("DELETE FROM items WHERE scope = %s AND kind = 'entity' AND text LIKE %s",
                (scope, f"{name} (%"))
            run("DELETE FROM entities WHERE scope = %s AND norm_name = %s", (scope, name_key(name)))


def _relations(mem: Memory, scope: str) -> list[tuple[str, str, str, int]]:
    return sorted((str(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in mem.store._run(
        "SELECT source_entity, relation, target_entity, session_id FROM relations"
        " WHERE scope = %s", (scope,)))


def _facts(mem: Memory, scope: str) -> list[tuple[str, str, str]]:
    return sorted((f.subject, f.predicate, f.object)
                  for f in mem.facts(scope, include_superseded=True))


def test_gc_places_the_relations_of_a_session_too_small_for_a_summary(db_url: str) -> None:
    """Two one-message sessions (no summary): "Lisbon" evicted; ``gc`` takes the relation
    naming it (kept before: 0 removed) and keeps the long object's, every fact, the other
    nodes and another scope's graph."""
    mem = memory(db_url)
    try:
        scope = f"small-{next(_SCOPES)}"
        small = _session(mem, scope, 4, ["I live in Lisbon, yes."], answers=False)
        work = _session(mem, scope, 3, ["I work at Zqbake Corp in Lisbon as a baker."],
                        answers=False)
        _session(mem, "bob", 3, ["I live in Lisbon, yes."], answers=False)
        kept = mem.graph("user", "bob")
        run = mem.store._run
        assert run("SELECT count(*) FROM items WHERE scope = %s AND kind = 'summary'",
                   (scope,)).fetchone()[0] == 0
        facts = _facts(mem, scope)
        assert ("user", "lives_in", "lisbon", small) in _relations(mem, scope)
        _evict(mem, scope, "Lisbon")
        assert mem.gc(NOW).relations_removed == 1
        assert _relations(mem, scope) == [("user", "works_at", "zqbake corp in lisbon as a baker", work)]
        assert _facts(mem, scope) == facts
        assert sorted(n.name for n in mem.store.scope_entities(scope)) == ["Zqbake Corp"]
        assert mem.graph("user", "bob") == kept
        assert mem.gc(NOW).relations_removed == 0
    finally:
        mem.close()


def test_gc_places_the_relations_of_a_session_whose_summary_was_evicted(db_url: str) -> None:
    """A summarized session whose summary item went (the episodic lane's cap evicts
    summaries) and "Zqdora" evicted: ``gc`` takes the two relations naming her and keeps
    the long object's."""
    mem = memory(db_url)
    try:
        scope = f"nosummary-{next(_SCOPES)}"
        sid = _session(mem, scope, 5, ["My cousin Zqdora lives in Evora.",
                                       "I work at Zqbake Corp in Lisbon as a baker.",
                                       "We talked about the weather for a while."])
        run = mem.store._run
        with mem.store.atomic():
            assert run("DELETE FROM items WHERE scope = %s AND kind = 'summary'", (scope,)).rowcount == 1
        facts = _facts(mem, scope)
        _evict(mem, scope, "Zqdora")
        assert mem.gc(NOW).relations_removed == 2
        assert _relations(mem, scope) == [
            ("user", "works_at", "zqbake corp in lisbon as a baker", sid)]
        assert _facts(mem, scope) == facts
        assert mem.gc(NOW).relations_removed == 0
    finally:
        mem.close()


def test_gc_places_an_end_past_the_summarys_entity_list(db_url: str) -> None:
    """Twenty-two names, then the cousin: the summary lists the first 20 entities, not
    "Zqdora" or "Evora"; with "Zqdora" evicted ``gc`` takes her two relations (0 before)
    and keeps every node but hers."""
    mem = memory(db_url)
    try:
        scope = f"crowd-{next(_SCOPES)}"
        _session(mem, scope, 5, [*LUNCHES, "My cousin Zqdora lives in Evora."])
        run = mem.store._run
        (listed,) = run("SELECT entities FROM items WHERE scope = %s AND kind = 'summary'",
                        (scope,)).fetchone()
        assert "Zqdora" not in str(listed) and "Quillan" in str(listed)
        nodes = sorted(n.name for n in mem.store.scope_entities(scope))
        _evict(mem, scope, "Zqdora")
        assert mem.gc(NOW).relations_removed == 2
        assert _relations(mem, scope) == []
        assert sorted(n.name for n in mem.store.scope_entities(scope)) == [
            n for n in nodes if n != "Zqdora"]
    finally:
        mem.close()


def test_a_models_session_without_its_summary_is_left(db_url: str) -> None:
    """A session a model summarized (``sessions.summary_model``) whose summary went: the
    offline reading is not what its nodes came from, so ``gc`` leaves its relations, as
    before (docs/facts.md lists it)."""
    mem = memory(db_url)
    try:
        scope = f"model-{next(_SCOPES)}"
        _session(mem, scope, 5, ["My cousin Zqdora lives in Evora.", "We talked for a while."])
        run = mem.store._run
        with mem.store.atomic():
            run("DELETE FROM items WHERE scope = %s AND kind = 'summary'", (scope,))
            run("UPDATE sessions SET summary_model = 'some-model' WHERE scope = %s", (scope,))
        before = _relations(mem, scope)
        _evict(mem, scope, "Zqdora")
        assert mem.gc(NOW).relations_removed == 0
        assert _relations(mem, scope) == before
    finally:
        mem.close()


SAYINGS = ("I live in Lisbon.", "I moved to Porto.", "I work at Feedzai.",
           "My cousin Zqdora lives in Evora.", "My sister Zqmarko lives in Braga.",
           "My sister Zqmarko moved to Faro.", "I work at Zqbake Corp in Lisbon as a baker.",
           "I studied at the University of Coimbra.", "My dog Biscuit is three.",
           "I visited Sintra with Tomas last week.")


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=st.lists(st.sampled_from(SAYINGS), min_size=1, max_size=4),
       crowd=st.integers(0, len(LUNCHES)), answers=st.booleans())
def test_the_reading_names_an_end_exactly_when_the_pipeline_made_it_a_node(
        tmp_path_factory, texts: list[str], crowd: int, answers: bool) -> None:
    """Any session of these statements, after 0 to 11 sentences of names (small or not, an
    end within the summary's list or past it), indexed in a scope of its own: each end of
    its relations is in ``offline_entity_keys`` of the session's messages exactly when the
    pipeline made it a node. So gc's reading sweeps no relation today's writes leave, and
    takes every one whose node an older hygiene evicted."""
    mem = memory(tmp_path_factory.mktemp("reading") / "m.db")
    try:
        sid = _session(mem, "s", 5, [*LUNCHES[:crowd], *texts], answers=answers)
        nodes = {name_key(n.name) for n in mem.store.scope_entities("s")}
        read = offline_entity_keys(mem.store.session_messages(sid))
        ends = {e for r in _relations(mem, "s") for e in r[:3:2]} - {"user"}
        assert {e for e in ends if e in nodes} == {e for e in ends if e in read}, (ends, nodes, read)
        assert mem.store.unnoded_relations("s", read=offline_entity_keys) == {}
    finally:
        mem.close()
