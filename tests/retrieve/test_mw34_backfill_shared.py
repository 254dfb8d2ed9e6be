"""The meaning tier's backfill, session 34: the items no session holds are walked too (first),
the walk's place is kept in the store, and one process at a time walks under a lease, so a
restarted worker goes on where it stopped and several workers divide the walk."""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.embed import text_hash
from memlane.retrieve.meaning import (BACKFILL_LEASE, RESCORED_KINDS, MeaningTier, _walk_key,
                                      passages)
from memlane.testing import HashingEmbedder, add_sessions, memory

from tests import commands
from tests.retrieve.test_meaning import NOW, SESSIONS
from tests.retrieve.test_meaning_backfill import MORE

_seeds = itertools.count(1000)


def _loose(m: Any) -> None:
    """Items no session holds: a fact, a preference and a decision the tier re-scores,
    and a note and a plan it does not."""
    m.add_fact("user", "lives in", "Lisbon", scope="chat", at=NOW)
    m.upsert("prefers window seats on long flights", kind="preference", scope="chat", at=NOW)
    m.upsert("we chose PostgreSQL for the ledger", kind="decision", scope="chat", at=NOW)
    m.upsert("remember the milk", kind="note", scope="chat", at=NOW)
    m.upsert("ship the beta in March", kind="plan", scope="chat", at=NOW)


def _todo(m: Any, window: int = 0) -> dict[str, tuple[str, int]]:
    """Every passage the tier re-scores in ``chat``: ``("item", id)`` for an item no session
    holds, ``("session", id)`` for a session's."""
    out: dict[str, tuple[str, int]] = {}
    for s in m.store.list_sessions(scope="chat"):
        for it in m.store.session_items(s.id):
            if it.kind in RESCORED_KINDS and it.status == "active" and it.text.strip():
                out.update(dict.fromkeys(passages(it.text, window), ("session", s.id)))
    for it in m.store.loose_items(sorted(RESCORED_KINDS), scope="chat", limit=10**6):
        out.update(dict.fromkeys(passages(it.text, window), ("item", it.id)))
    return out


def _found(store: Any, model: str, texts: Any) -> set[str]:
    got = store.cached_vectors(model, [text_hash(t) for t in texts])
    return {t for t in texts if text_hash(t) in got}


@pytest.fixture(scope="module")
def sqlite_mem(tmp_path_factory: pytest.TempPathFactory) -> Any:
    m = add_sessions(memory(tmp_path_factory.mktemp("mw34") / "m.db"), SESSIONS + MORE, now=NOW)
    _loose(m)
    yield m
    m.close()


def test_items_no_session_holds_are_walked_first_and_only_what_the_tier_rescores(
        db_url: str) -> None:
    """Session 33's walk went over sessions alone: a fact of ``add_fact``, an upserted
    preference or decision stayed cold until a query embedded it. They are walked first;
    a note or a plan (kinds the tier never re-scores) is not computed."""
    with add_sessions(memory(db_url), SESSIONS, now=NOW) as m:
        _loose(m)
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        tier, todo = MeaningTier(emb), _todo(m)
        loose = {t for t, (what, _) in todo.items() if what == "item"}
        assert loose == {"user lives in Lisbon", "prefers window seats on long flights",
                         "we chose PostgreSQL for the ledger"}
        assert tier.backfill(m.store, len(loose), now=1.0) == len(loose)
        assert _found(m.store, emb.name, todo) == loose  # the loose items first
        while tier.backfill(m.store, 4, now=2.0):
            pass
        assert _found(m.store, emb.name, todo) == set(todo)
        assert not _found(m.store, emb.name, ["remember the milk", "ship the beta in March"])
        other = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))  # warm_all too
        assert other.warm_all(m.store) == len(todo)
        assert _found(m.store, other.model, todo) == set(todo)


def test_a_new_process_goes_on_where_the_last_stopped(db_url: str) -> None:
    """The place was kept in the process: a restarted worker looked every passage up again
    from the newest session (session 33: about 25 ms a round on a LoCoMo conversation). It
    is kept in the store now: the next process looks at none of what was passed."""
    with add_sessions(memory(db_url), SESSIONS + MORE, now=NOW) as m:
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        todo = _todo(m)
        first = MeaningTier(emb)
        for r in range(3):
            first.backfill(m.store, 4, now=float(r))
        done = _found(m.store, emb.name, todo)
        passed = [t for t, u in todo.items() if all(v in done for v, w in todo.items() if w == u)]
        assert len(done) == 12 and passed
        again = MeaningTier(emb)  # another process, the same model
        assert again.backfill(m.store, 4, now=5.0) == 4
        # it looked at none of what the first had passed (the old walk: at every one of them)
        assert 4 <= again.looked < len(passed) + 4  # the old walk's least: those and 4 more
        assert len(_found(m.store, emb.name, todo)) == 16


def test_a_lease_held_by_another_live_process_stops_the_round(sqlite_mem: Any) -> None:
    m = sqlite_mem
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    clock = [1000.0]
    a, b = MeaningTier(emb), MeaningTier(emb)
    a.clock = b.clock = lambda: clock[0]
    assert a._lease(m.store, take=True)  # a, killed in the middle of a round
    assert b.backfill(m.store, 5, now=1.0) == 0 and b.computed == 0
    clock[0] += BACKFILL_LEASE + 1  # its lease runs out
    assert b.backfill(m.store, 5, now=1.0) == 5
    assert a.backfill(m.store, 5, now=1.0) == 5  # b gave it back after its round
    assert not _found(m.store, emb.name, ["remember the milk"])


_kinds = st.sampled_from(["round", "restart", "killed"])


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(most=st.integers(1, 30), workers=st.integers(1, 3),
       steps=st.lists(st.tuples(st.integers(0, 2), _kinds), min_size=1, max_size=60))
def test_workers_divide_the_walk_whatever_their_kills(
        sqlite_mem: Any, most: int, workers: int,
        steps: list[tuple[int, str]]) -> None:
    """Up to three workers on one store, each round by any of them; any of them restarted
    between rounds (a new tier) or killed in the middle of one (its vectors written, its
    place not stored, its lease held until it runs out): every passage is computed exactly
    once, a round computes at most ``most``, the rounds that compute are ceil(N / most), and
    the cache fills in the walk's order (the loose items, then the sessions newest first)."""
    store = sqlite_mem.store
    emb = HashingEmbedder(dim=8, seed=next(_seeds))  # a model of its own: a cold cache
    todo = _todo(sqlite_mem)
    order = ([("item", it.id) for it in store.loose_items(sorted(RESCORED_KINDS), limit=99)]
             + [("session", s.id) for s in store.list_sessions(scope="chat")])
    clock = [0.0]

    def tier() -> MeaningTier:
        t = MeaningTier(emb)
        t.clock = lambda: clock[0]
        return t

    tiers = [tier() for _ in range(workers)]
    computed, computing = 0, 0
    script = itertools.chain(steps, itertools.repeat((0, "round")))
    for who, kind in itertools.islice(script, 500):
        found = _found(store, emb.name, todo)
        full = [u for u in order if all(t in found for t, v in todo.items() if v == u)]
        begun = {v for t, v in todo.items() if t in found}
        assert full == order[: len(full)] and begun <= set(order[: len(full) + 1])
        if len(found) == len(todo):
            break
        w = tiers[who % workers]
        clock[0] += 1.0
        if kind == "restart":
            w = tiers[who % workers] = tier()
        before = w.computed
        if kind == "killed":  # the round's writes, and then nothing: no place, no lease back
            walk = w._take(store, _walk_key(emb.name, None))
            assert walk is not None
            w._walk(store, walk, most, None, 64, lease=True)
            tiers[who % workers] = tier()
            other = tiers[(who + 1) % workers]  # until its lease runs out, no one walks
            held = other.computed
            assert other.backfill(store, most, now=1.0) == 0 and other.computed == held
            clock[0] += BACKFILL_LEASE + 1
        else:
            w.backfill(store, most, now=1.0)
        step = w.computed - before
        assert 0 <= step <= most
        computed += step
        computing += step > 0
    else:
        pytest.fail("the walk did not end")
    assert computed == len(todo)
    assert computing == math.ceil(len(todo) / most)


_WORKER = """
import json, sys, time
from pathlib import Path
from memlane.testing import memory
from memlane.retrieve.meaning import shared_tier
url, go, most = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
m = memory(url, retrieval={"meaning": True, "meaning_backfill": most})
tier = shared_tier(m.config.retrieval.meaning_max_tokens)
tier.query_vector("load the model before the start")
print("ready", flush=True)
until = time.monotonic() + 120
while not go.exists() and time.monotonic() < until:
    time.sleep(0.01)
idle = 0
while idle < 20 and time.monotonic() < until:  # rounds until the walk rests for a while
    before = tier.computed
    m.work_once()
    idle = idle + 1 if tier.computed == before else 0
    time.sleep(0.02)
print(json.dumps({"computed": tier.computed}), flush=True)
m.close()
"""


def test_two_worker_processes_compute_each_vector_once(db_url: str, tmp_path: Path) -> None:
    """Two worker processes on one database (both stores): session 33's each walked the
    same newest sessions, computing what the other was computing (each vector written
    once, computed twice). Under the lease they divide the walk: the vectors computed by
    both add up to the passages, and the store's counter says so too."""
    with add_sessions(memory(db_url), SESSIONS + MORE, now=NOW) as m:
        _loose(m)
        todo = _todo(m)
        before = m.store.counters().get("meaning_backfill_computed", 0)
    go = tmp_path / "go"
    procs = [commands.start([sys.executable, "-c", _WORKER, db_url, str(go), "3"])
             for _ in range(2)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready", \
                commands.finish(p, 60)
        go.touch()
        outs = [commands.finish(p, 180) for p in procs]
    finally:
        for p in procs:
            commands.end(p)
    got = [json.loads(out[0].strip().splitlines()[-1])["computed"] for out in outs]
    with memory(db_url) as m:
        tier_model = _model()
        assert _found(m.store, tier_model, todo) == set(todo)
        assert sum(got) == len(todo), got
        assert m.store.counters()["meaning_backfill_computed"] - before == len(todo)


def _model() -> str:
    from memlane.retrieve.meaning import shared_tier

    return shared_tier(128).model


def test_an_item_of_no_scope_is_walked_and_a_scoped_walk_keeps_to_its_scope(
        db_url: str) -> None:
    """An upsert without a scope is an item of no scope and no session: the worker's walk
    (every scope) computes it under the write's check; a walk of one scope does not."""
    with memory(db_url) as m:
        m.upsert("decided to keep a daily log", kind="decision", at=NOW)
        m.upsert("prefers tea to coffee", kind="preference", scope="other", at=NOW)
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        scoped = MeaningTier(emb)
        assert scoped.backfill(m.store, 8, scope="other", now=1.0) == 1
        assert _found(m.store, emb.name, ["decided to keep a daily log",
                                          "prefers tea to coffee"]) == {"prefers tea to coffee"}
        assert MeaningTier(emb).backfill(m.store, 8, now=1.0) == 1
        assert _found(m.store, emb.name, ["decided to keep a daily log"])


def test_an_item_of_no_session_erased_after_the_walk_read_it_is_not_cached(
        db_url: str) -> None:
    """The walk's read of the items no session holds, an erase, then the write: the vector
    of the erased text is not cached (the write's check under its lock), the other's is."""
    from memlane.retrieve.meaning import _Walk

    with memory(db_url) as m:
        gone = m.upsert("prefers the aisle seat", kind="preference", scope="chat", at=NOW)
        m.add_fact("user", "works at", "the observatory", scope="chat", at=NOW)
        tier = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        units, last = tier._page(m.store, _Walk(), None)  # the walk's read
        read = {p: i for _, pairs in units for i, p in pairs}
        assert last and set(read) == {"prefers the aisle seat", "user works at the observatory"}
        m.forget_item(gone)
        tier._keep(m.store, read)  # the walk's write, after the erase
        assert _found(m.store, tier.model, read) == {"user works at the observatory"}
