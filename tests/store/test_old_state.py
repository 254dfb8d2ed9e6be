"""A database written by an older memlane holds rows today's code never leaves, and an erase
must still take the erased words from them (docs/hardening.md, "Session 30: upgrades
walked"). Each older state is written here with the SQL the older code ran, on real SQLite
files and the PostgreSQL the tests start."""

from __future__ import annotations

import itertools
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.errors import NotFoundError
from memlane.index.normalize import name_key
from memlane.memory import Memory
from memlane.store.sql.base import entity_key
from memlane.testing import memory
from tests.test_erase import _rows_with

NOW = datetime(2024, 6, 1, tzinfo=UTC)
COUSIN = "My cousin Zqdora lives in Evora."
_COUNTER = itertools.count()


def _old_gc(mem: Memory) -> None:
    """What ``gc`` with the semantic and profile lanes capped at 0 did before session 28
    (``evict_lowest``): the items marked ``evicted``, then deleted; the graph's nodes they
    named were kept, each with the sentence it was read in as its context. Then ``gc`` a
    week and a day later: the change log's records of those items pruned (its prune alone:
    today's ``gc`` takes those nodes too)."""
    with mem.store.atomic():
        mem.store._run("UPDATE items SET status = 'evicted' WHERE lane IN ('semantic', 'profile')"
                       " AND NOT pinned AND status = 'active'")
        mem.store._run("DELETE FROM items WHERE status = 'evicted'")
    live = mem.config.live
    before = (datetime.now(UTC) + timedelta(days=8)).timestamp() - live.keep_days * 86_400
    assert mem.store.prune_changes(before=before, keep=live.keep_changes)


def _session(mem: Memory, scope: str, days: int, turns: list[tuple[str, str]]) -> int:
    at = NOW - timedelta(days=days)
    for i, (role, text) in enumerate(turns):
        mem.add_message(scope, role, text, at=at + timedelta(minutes=i))
    mem.close_session(scope)
    mem.index(now=NOW)
    return max(s.id for s in mem.sessions(scope))


@pytest.mark.parametrize("erase", ["turn", "session"])
def test_an_erase_takes_the_nodes_an_older_hygiene_left_without_items(db_url: str, erase: str) -> None:
    """A session's entity items evicted by the older ``gc`` (their nodes kept, holding the
    cousin's name and her sentence), then the cousin's turn (or her session) erased with
    today's code: no row holds her name, the graph has no node of hers, and the nodes of a
    kept session (with their items) are as they were."""
    mem = memory(db_url)
    try:
        sid = _session(mem, "alice", 3, [("user", COUSIN), ("assistant", "Cool."),
                                         ("user", "I love chess."), ("assistant", "Good.")])
        _old_gc(mem)
        kept = _session(mem, "alice", 1, [("user", "My sister Zqmarko lives in Porto."),
                                          ("assistant", "Nice.")])
        assert mem.graph("Zqdora")["entity"]          # the node an older memlane left
        nodes = {n.name: n for n in mem.graph("Zqmarko")["entity"]}
        if erase == "turn":
            [turn] = [i.id for i in mem.store.session_items(sid, kind="turn") if i.text == COUSIN]
            mem.forget_item(turn)
        else:
            mem.forget_session(sid)
        assert _rows_with(mem.store, "zqdora") == {}
        with pytest.raises(NotFoundError):
            mem.graph("Zqdora")
        assert {n.name: n for n in mem.graph("Zqmarko")["entity"]} == nodes
        assert kept in {s.id for s in mem.sessions("alice")}
    finally:
        mem.close()


def _nodes(mem: Memory, name: str) -> list[Any]:
    """The graph's nodes of ``name`` (none when it is not in the graph at all)."""
    try:
        return list(mem.graph(name)["entity"])
    except NotFoundError:
        return []


def _unnamed(mem: Memory) -> dict[str, set[str]]:
    """Each scope's graph nodes no entity item of the scope names."""
    out: dict[str, set[str]] = {}
    for scope in ("alice", "bob"):
        named = {entity_key(i.extra) for i in mem.store.items_of_kind("entity", scope)}
        out[scope] = {name_key(e.name) for e in mem.store.scope_entities(scope)} - named
    return out


def test_gc_takes_the_nodes_an_older_hygiene_left_without_items(db_url: str) -> None:
    """A session of two scopes each, their entity items evicted by the older ``gc`` (the
    nodes kept, holding the cousin's and the friend's names and sentences), then a kept
    session in one of them: today's ``gc`` deletes every node no entity item names, in
    both scopes, with the relations naming them, and no other row; the kept session's
    nodes stay as they were."""
    mem = memory(db_url)
    try:
        _session(mem, "alice", 3, [("user", COUSIN), ("assistant", "Cool.")])
        _session(mem, "bob", 3, [("user", "My friend Zqenzo lives in Lagos."),
                                 ("assistant", "Nice.")])
        _old_gc(mem)
        _session(mem, "alice", 1, [("user", "My sister Zqmarko lives in Porto."),
                                   ("assistant", "Nice.")])
        orphans = _unnamed(mem)
        assert "zqdora" in orphans["alice"] and "zqenzo" in orphans["bob"]
        assert _nodes(mem, "Zqdora") and _nodes(mem, "Zqenzo")   # what an older memlane left
        kept = {n.name: n for n in _nodes(mem, "Zqmarko")}
        assert kept
        rows = {w: _rows_with(mem.store, w) for w in ("zqdora", "zqenzo", "zqmarko")}
        assert all("entities" in r for r in rows.values())
        report = mem.gc()
        assert _nodes(mem, "Zqdora") == [] and _nodes(mem, "Zqenzo") == []
        assert _unnamed(mem) == {"alice": set(), "bob": set()}
        assert report.nodes_removed == sum(map(len, orphans.values()))
        for word in ("zqdora", "zqenzo"):   # the node's row went, with the relations
            # naming it (session 31: an edge without its node), and nothing else
            assert _rows_with(mem.store, word) == {
                t: n for t, n in rows[word].items() if t not in ("entities", "relations")}
        assert _rows_with(mem.store, "zqmarko") == rows["zqmarko"]
        assert {n.name: n for n in _nodes(mem, "Zqmarko")} == kept
        assert mem.gc().nodes_removed == 0
    finally:
        mem.close()


def test_a_turn_erase_takes_the_marks_of_an_old_database_that_name_only_its_words(db_url: str) -> None:
    """A session of four messages of one time (one batch), both facts forgotten, written
    before ``fact_events.message_id``: the migration cannot tell which turn made each mark
    (several messages have its time). The sister's turn erased: the marks that keep her
    name (``zqmarko lives_in``), a name no kept message of that time holds, go with it; the
    work turn's marks stay, so its fact stays forgotten when the session is read again."""
    from tests.test_erase_same_time import SISTER, _column_dropped, _memory, _one_batch, _turn_of

    mem = _memory(db_url)
    sid = _one_batch(mem)
    for f in mem.facts("alice"):
        mem.forget_fact(f.id)
    work = [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")]
    _column_dropped(mem)
    mem.close()
    mem = _memory(db_url)
    try:
        assert not [r for r in mem.store.db.execute(
            "SELECT message_id FROM fact_events WHERE object = ''") if r[0] is not None]
        mem.forget_item(_turn_of(mem, sid, SISTER))
        assert _rows_with(mem.store, "zqmarko") == {}
        assert [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")] == work
        mem.index(now=NOW)
        assert not [f for f in mem.facts("alice", include_superseded=True)
                    if "Quexcorp" in f.object]
    finally:
        mem.close()


NAMES = ["Zqana", "Zqbor", "Zqcel", "Zqdan"]
CITIES = ["Qfaro", "Qbraga", "Qevora"]
turns_of_one_time = st.lists(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(CITIES), st.booleans()),
    min_size=2, max_size=4)


def _old_batch_database(url: str, said: list[tuple[str, str, bool]], gc: bool) -> tuple[Memory, int]:
    """A batch of turns of one time naming a sister and her city each, the facts of those
    marked forgotten (``said[i][2]``), every fact's item evicted by the older ``gc`` when
    ``gc``; written before ``fact_events.message_id`` (the column dropped, its migration
    unapplied), then opened: the session's id."""
    from tests.test_erase_same_time import _column_dropped

    mem = memory(url)
    at = NOW - timedelta(days=3)
    for name, city, _ in said:
        mem.add_message("alice", "user", f"My sister {name} lives in {city}.", at=at)
        mem.add_message("alice", "assistant", "Lovely.", at=at)
    mem.close_session("alice")
    mem.index(now=NOW)
    [sid] = [s.id for s in mem.sessions("alice")]
    forget = {n for n, _, f in said if f}
    for fact in mem.facts("alice"):
        if fact.object in forget or fact.subject in forget:
            mem.forget_fact(fact.id)
    if gc:
        _old_gc(mem)
    _column_dropped(mem)
    mem.close()
    return memory(url), sid


def _check_batch(url: str, said: list[tuple[str, str, bool]], gc: bool, which: int) -> None:
    mem, sid = _old_batch_database(url, said, gc)
    try:
        texts = [f"My sister {n} lives in {c}." for n, c, _ in said]
        at = which % len(texts)
        gone = texts[at]
        [turn] = [i.id for i in mem.store.session_items(sid, kind="turn") if i.text == gone][:1]
        mem.forget_item(turn)
        kept = " ".join(t for i, t in enumerate(texts) if i != at)
        for word in gone.rstrip(".").split()[2:]:
            if word[0].isupper() and word not in kept:
                assert _rows_with(mem.store, word) == {}, word
        mem.index(now=NOW)  # what is left read again: a kept forgotten sister stays forgotten
        forgotten = {n for n, _, f in said if f and f"sister {n} " in kept}
        assert not forgotten & {f.object for f in mem.facts("alice", include_superseded=True)}
    finally:
        mem.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns_of_one_time, st.booleans(), st.integers(0, 3))
@example([("Zqana", "Qfaro", True), ("Zqbor", "Qbraga", True)], False, 0)
@example([("Zqana", "Qfaro", True), ("Zqbor", "Qbraga", False)], True, 0)
def test_an_old_databases_turn_erase_leaves_its_words_on_no_surface(
        said: list[tuple[str, str, bool]], gc: bool, which: int) -> None:
    """The class of the two above: any batch of turns of one time in a database written
    before session 29 (facts forgotten or not, their items evicted by the older ``gc`` or
    not), one turn erased: a name or city only it said is in no row, and a sister of a kept
    turn that was forgotten stays forgotten when the session is read again."""
    with tempfile.TemporaryDirectory() as tmp:
        _check_batch(str(Path(tmp) / "memlane.db"), said, gc, which)


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(turns_of_one_time, st.booleans(), st.integers(0, 3))
@example([("Zqana", "Qfaro", True), ("Zqbor", "Qbraga", True)], False, 0)
def test_the_same_on_postgres(postgres_server_url: str, said: list[tuple[str, str, bool]],
                              gc: bool, which: int) -> None:
    from memlane.testing.postgres import create_database, drop_database

    name = f"old_state_{os.getpid()}_{next(_COUNTER)}"
    url = create_database(postgres_server_url, name)
    try:
        _check_batch(url, said, gc, which)
    finally:
        drop_database(postgres_server_url, name)
