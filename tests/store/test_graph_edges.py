"""The graph's edges (relations) never outlive what they stand for: an end that was a node
is one still (or its edge went with it), its session exists, and a relation read beside a
fact (it has the fact's message) has a fact of its scope saying the same, current,
superseded or ended (docs/hardening.md, "Session 31: edges without nodes"). An end the
pipeline never made a node (the offline backend's "zorblax corp in lisbon as a baker",
object of a fact whose entity is "Zorblax Corp") is no node to lose. Real SQLite files and
the PostgreSQL the tests start."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import NotFoundError
from memlane.index.hygiene import offline_entity_keys
from memlane.index.normalize import name_key
from memlane.memory import Memory
from memlane.testing import memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)
_SCOPES = itertools.count()
SAYINGS = ("I live in Lisbon.", "I moved to Porto.", "I work at Feedzai.",
           "My cousin Zqdora lives in Evora.", "My sister Zqmarko lives in Braga.",
           "My sister Zqmarko moved to Faro.", "I work at Zqbake Corp in Lisbon as a baker.")


def dangling(mem: Memory, nodes_seen: set[tuple[str, str]] | None = None) -> list[tuple[Any, ...]]:
    """The relations of the database that break the invariant, each with why. ``nodes_seen``:
    the nodes an earlier call saw (this one adds the current ones), so that an end whose
    node went is told from one that never was a node."""
    run = mem.store._run
    nodes = {(r[0], r[1]) for r in run("SELECT scope, norm_name FROM entities")}
    seen = nodes if nodes_seen is None else nodes_seen | nodes
    sessions = {int(r[0]) for r in run("SELECT id FROM sessions")}
    said = {(scope, s, pred, name_key(obj))
            for scope, subject, norm, pred, obj in run(
                "SELECT scope, subject, norm_subject, norm_predicate, object FROM facts")
            for s in (norm, name_key(subject))}
    out = []
    for scope, src, rel, dst, sid, mid in run(
            "SELECT scope, source_entity, relation, target_entity, session_id, message_id"
            " FROM relations ORDER BY id"):
        why = [w for w, bad in (
            ("source's node gone", (scope, src) in seen and (scope, src) not in nodes),
            ("target's node gone", (scope, dst) in seen and (scope, dst) not in nodes),
            ("session gone", sid is not None and int(sid) not in sessions),
            ("fact gone", mid is not None and (scope, src, rel, dst) not in said)) if bad]
        if why:
            out.append((scope, src, rel, dst, *why))
    if nodes_seen is not None:
        nodes_seen |= nodes
    return out


def _session(mem: Memory, scope: str, days: int, texts: list[str]) -> int:
    at = NOW - timedelta(days=days)
    for i, text in enumerate(texts):
        mem.add_message(scope, "user", text, at=at + timedelta(minutes=2 * i))
        mem.add_message(scope, "assistant", "I see.", at=at + timedelta(minutes=2 * i + 1))
    mem.close_session(scope)
    mem.index(now=NOW)
    return max(s.id for s in mem.sessions(scope))


def _graph(mem: Memory, name: str, scope: str) -> dict[str, Any] | None:
    try:
        return mem.graph(name, scope)
    except NotFoundError:
        return None


@pytest.mark.parametrize("lane", ["profile", "semantic"])
def test_gc_evicting_a_lane_leaves_no_edge_of_what_it_took(db_url: str, lane: str) -> None:
    """The cousin's and the user's facts (profile lane) or the nodes' entity items and the
    cousin's fact (semantic lane) evicted by the cap: the relations restating those facts,
    or naming those nodes, go with them; graph() of the cousin and of Evora shows no edge
    without its node or fact, and the retrieval's graph stage has no neighbour to walk."""
    mem = memory(db_url, hygiene={"lane_caps": [f"{lane}=0"]})
    try:
        _session(mem, "alice", 3, ["I live in Lisbon.", "My cousin Zqdora lives in Evora."])
        seen: set[tuple[str, str]] = set()
        assert dangling(mem, seen) == []
        mem.gc(NOW)
        assert dangling(mem, seen) == []
        for name in ("Zqdora", "Evora", "Lisbon"):
            g = _graph(mem, name, "alice")
            if g is not None:
                assert g["entity"] or not g["relations"], (name, g)
    finally:
        mem.close()


def test_gc_takes_the_edges_an_older_memlane_left_without_their_fact(db_url: str) -> None:
    """The user's facts evicted as an older ``gc`` did (their items deleted: the facts went
    by the foreign key, their relations stayed): ``memlane gc`` deletes those two relations,
    no other row (the nodes stay, a kept scope's graph is as it was), and says how many."""
    mem = memory(db_url)
    try:
        _session(mem, "alice", 3, ["I live in Lisbon.", "My cousin Zqdora lives in Evora."])
        _session(mem, "bob", 3, ["I live in Lisbon.", "My cousin Zqdora lives in Evora."])
        kept = mem.graph("user", "bob")
        nodes = mem.store.scope_entities("alice")
        with mem.store.atomic():
            mem.store._run("DELETE FROM items WHERE scope = 'alice' AND lane = 'profile'")
        assert sorted(d[1:] for d in dangling(mem)) == [
            ("user", "cousin", "zqdora", "fact gone"), ("user", "lives_in", "lisbon", "fact gone")]
        assert mem.graph("user", "alice")["relations"]   # the edges without their facts
        report = mem.gc(NOW)
        assert report.relations_removed == 2
        assert dangling(mem) == []
        assert _graph(mem, "user", "alice") is None
        assert [r[1:] for r in mem.graph("Zqdora", "alice")["relations"]] == [
            ("zqdora", "lives_in", "evora")]
        assert mem.store.scope_entities("alice") == nodes
        assert mem.graph("user", "bob") == kept
        assert mem.gc(NOW).relations_removed == 0
    finally:
        mem.close()


def test_gc_takes_the_edges_an_older_hygiene_left_without_their_node(db_url: str) -> None:
    """The nodes "Lisbon" and "Zqdora" evicted as hygiene did in sessions 28 to 30 (their
    entity items and nodes deleted, their relations and facts kept): ``gc`` deletes the
    three relations naming them (their session's summary lists both as entities), and
    keeps the one whose end never was a node (the fact's long object "zqbake corp in
    lisbon as a baker"), every fact and the other nodes; a kept scope's graph is as it
    was. A session too small for a summary has no list of its ends: since session 33 gc
    reads its messages as the patterns did, and takes its relation naming the evicted
    "Lisbon" too (docs/facts.md, "Session 33: relations gc places by reading their
    session"; it stayed in session 32)."""
    mem = memory(db_url)
    try:
        texts = ["I live in Lisbon.", "My cousin Zqdora lives in Evora.", "I work at Zqbake Corp in Lisbon as a baker."]
        _session(mem, "alice", 5, texts)
        small = NOW - timedelta(days=3)
        mem.add_message("alice", "user", "I live in Lisbon, yes.", at=small)
        mem.close_session("alice")
        mem.index(now=NOW)
        _session(mem, "bob", 3, texts)
        kept = mem.graph("user", "bob")
        facts = sorted((f.subject, f.predicate, f.object) for f in mem.facts("alice", include_superseded=True))
        run = mem.store._run
        relations = sorted(r[:4] for r in run("SELECT source_entity, relation, target_entity, session_id"
                                              " FROM relations WHERE scope = 'alice'"))
        first, second = sorted({r[3] for r in relations})
        assert [r[0] for r in run("SELECT count(*) FROM items WHERE scope = 'alice' AND kind = 'summary'")] == [1]
        with mem.store.atomic():
            for name in ("Lisbon", "Zqdora"):
                run("DELETE FROM items WHERE scope = 'alice' AND kind = 'entity' AND text LIKE %s", (f"{name} (%",))
                run("DELETE FROM entities WHERE scope = 'alice' AND norm_name = %s", (name_key(name),))
        report = mem.gc(NOW)
        assert report.relations_removed == 4
        after = sorted(r[:4] for r in run("SELECT source_entity, relation, target_entity, session_id"
                                          " FROM relations WHERE scope = 'alice'"))
        # the small session's own relation to the evicted "Lisbon" goes too (its reading names it)
        assert after == [("user", "works_at", "zqbake corp in lisbon as a baker", first)]
        assert sorted(set(relations) - set(after)) == [
            ("user", "cousin", "zqdora", first), ("user", "lives_in", "lisbon", first),
            ("user", "lives_in", "lisbon", second), ("zqdora", "lives_in", "evora", first)]
        assert sorted((f.subject, f.predicate, f.object)
                      for f in mem.facts("alice", include_superseded=True)) == facts
        assert sorted(n.name for n in mem.store.scope_entities("alice")) == ["Evora", "Zqbake Corp"]
        assert mem.graph("user", "bob") == kept
        assert mem.gc(NOW).relations_removed == 0
    finally:
        mem.close()


_OPS = st.lists(st.tuples(st.sampled_from(["say", "say", "forget_fact", "erase_session",
                                           "forget_entity", "gc"]),
                          st.lists(st.sampled_from(SAYINGS), min_size=1, max_size=3),
                          st.integers(0, 20)),
                min_size=1, max_size=7)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=_OPS, caps=st.sampled_from([("profile=1",), ("semantic=3",), ("profile=2", "semantic=5")]))
def test_no_sequence_of_writes_leaves_an_edge_without_its_nodes_or_its_fact(
        db_url: str, ops: list[tuple[str, list[str], int]], caps: tuple[str, ...]) -> None:
    """Any sequence of sessions (statements, supersessions: "moved to"), forgotten facts,
    erased sessions, forgotten entity items and ``gc`` with capped lanes, in a scope of its
    own: after each step every relation has the nodes its ends ever had, its session and,
    read beside a fact, that fact; and ``gc``'s sweeps of an older memlane's relations
    find none to take."""
    scope = f"s{next(_SCOPES)}"
    mem = memory(db_url, hygiene={"lane_caps": list(caps)})
    seen: set[tuple[str, str]] = set()
    try:
        day = 40
        for op, texts, pick in ops:
            if op == "say":
                day -= 1
                _session(mem, scope, day, texts)
            elif op == "forget_fact":
                facts = mem.facts(scope, include_superseded=True)
                if facts:
                    mem.forget_fact(facts[pick % len(facts)].id)
            elif op == "erase_session":
                sessions = mem.sessions(scope)
                if sessions:
                    mem.forget_session(sessions[pick % len(sessions)].id)
            elif op == "forget_entity":
                items = mem.store.items_of_kind("entity", scope)
                if items:
                    mem.forget_item(items[pick % len(items)].id)
            else:
                mem.gc(NOW)
            assert [d for d in dangling(mem, seen) if d[0] == scope] == [], op
            # and gc's sweeps find nothing today's writes left: what they take is an older
            # memlane's only (session 32)
            assert mem.store.dangling_relations(scope) == {} == mem.store.unnoded_relations(
                scope, read=offline_entity_keys), op
    finally:
        mem.close()
