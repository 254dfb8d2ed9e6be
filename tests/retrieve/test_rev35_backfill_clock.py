"""The meaning backfill's lease and rest on the database's clock (session 35, rev35).

Session 34 kept the backfill's walk, its rest and its lease in the store for every process,
but measured them on each process's own clock: the lease on ``time.time()``, the rest on the
``now`` a round was given (``Memory.work_once(now=)``). Workers on two machines whose clocks
are minutes apart, or one caller replaying the past or testing the future, then decided for
every other process."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.embed import text_hash
from memlane.retrieve.meaning import _LEASE, BACKFILL_REST, MeaningTier, _walk_key
from memlane.testing import HashingEmbedder, memory

from tests.retrieve.test_meaning import NOW

_seeds = itertools.count(3500)
TEXTS = ["we chose PostgreSQL for the ledger", "prefers window seats on long flights",
         "decided to keep a daily log"]


def _cached(store: Any, model: str, texts: list[str]) -> set[str]:
    got = store.cached_vectors(model, [text_hash(t) for t in texts])
    return {t for t in texts if text_hash(t) in got}


def test_the_store_clock_is_the_databases(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Store.clock`` reads the database's time, not this process's."""
    with memory(db_url) as m:
        real = time.time()
        monkeypatch.setattr(time, "time", lambda: real + 3600.0)
        assert abs(m.store.clock() - real) < 60


def test_a_worker_whose_clock_runs_ahead_does_not_take_a_lease_another_holds(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker a holds the lease (a round under way); worker b's machine clock runs five
    minutes ahead. Session 34: b read a's lease as run out, took it and computed what a was
    computing (and a, at its next renewal, found b's lease and stopped)."""
    with memory(db_url) as m:
        m.upsert(TEXTS[0], kind="decision", scope="a", at=NOW)
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        a = MeaningTier(emb)
        assert a._lease(m.store, take=True)
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + 300.0)
        b = MeaningTier(emb)  # another process: its clock five minutes ahead
        assert b.backfill(m.store, 8) == 0 and b.computed == 0
        assert not b._lease(m.store, take=True)
        monkeypatch.setattr(time, "time", real)
        assert a.backfill(m.store, 8) == 1  # a's own round goes on


def test_a_walk_rests_on_the_databases_clock_whatever_now_a_round_was_given(
        db_url: str) -> None:
    """A round finishing the walk with ``now`` in the past (a replay's) let the walk rest
    until a time long gone: every idle round of every worker walked again (up to
    ``BACKFILL_SCAN`` look-ups each). One with ``now`` years ahead (a test's) stopped every
    worker's walk until then. The rest is ``BACKFILL_REST`` seconds of the database's
    clock now, whatever ``now`` says."""
    with memory(db_url) as m:
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        key = _walk_key(emb.name, None)
        for when in (1.0, 4_102_444_800.0):  # 1970 and 2100
            tier = MeaningTier(emb)
            m.upsert(f"{TEXTS[1]} {when}", kind="preference", scope="a", at=NOW)
            tier.reset_walk(m.store)
            while tier.backfill(m.store, 8, now=when):
                pass
            m.upsert(f"{TEXTS[2]} {when}", kind="decision", scope="a", at=NOW)
            other = MeaningTier(emb)  # another worker: the walk rests for it too
            assert other.backfill(m.store, 8) == 0
            assert not _cached(m.store, emb.name, [f"{TEXTS[2]} {when}"])
            rest = json.loads(m.store.meta_value(key) or "{}")["rest_until"]
            clock = m.store.clock()
            assert clock < rest <= clock + BACKFILL_REST + 1, (when, rest, clock)


def test_a_rest_stored_years_ahead_by_session_34_is_not_waited_for(db_url: str) -> None:
    """A database a session-34 worker wrote a rest of a far ``now`` into (2100): the walk
    goes on (no rest ends more than ``BACKFILL_REST`` seconds ahead)."""
    with memory(db_url) as m:
        m.upsert(TEXTS[0], kind="decision", scope="a", at=NOW)
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        m.store.set_meta(_walk_key(emb.name, None), json.dumps(
            {"loose": None, "loose_done": False, "after": None, "rest_until": 4_102_445_400.0}))
        assert MeaningTier(emb).backfill(m.store, 8) == 1
        assert _cached(m.store, emb.name, [TEXTS[0]]) == {TEXTS[0]}


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                     | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.sampled_from(["owner", "until", "loose", "loose_done",
                                                        "after", "rest_until", "x"]),
                                       inner, max_size=4), max_leaves=8)
_STORED = st.one_of(_JSON.map(json.dumps), st.text(max_size=12))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(walk=_STORED, lease=_STORED)
def test_any_value_in_the_walks_rows_leaves_the_backfill_working(
        sqlite_walk: Any, walk: str, lease: str) -> None:
    """Whatever the walk's and the lease's rows hold (another memlane's layout, a hand's
    edit): neither a round nor the warm fails, and each passage is computed once. Session 34 raised on a
    value it could not read (``json.loads``, ``float``, an ``after`` of another shape) on
    every round of every worker, and ``memlane index --warm-meaning`` with it."""
    m, emb = sqlite_walk
    tier = MeaningTier(emb)
    m.store.set_meta(_walk_key(emb.name, None), walk)
    m.store.set_meta(_LEASE + emb.name, lease)
    with m.store.atomic():
        m.store._run("DELETE FROM embed_cache WHERE model = %s", (emb.name,))
    # a clock no stored lease or rest can run on at (none ends in (1e300, 1e300 + 600]):
    # what is left is only whether the values are read without failing
    tier.clock = lambda: 1e300
    while tier.backfill(m.store, 8):  # a place it cannot read: from the top
        pass
    tier.warm_all(m.store)  # (a place read as past the end: the walk rests first)
    assert _cached(m.store, emb.name, TEXTS) == set(TEXTS)
    assert tier.computed == len(TEXTS)


@pytest.fixture(scope="module")
def sqlite_walk(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with memory(tmp_path_factory.mktemp("walk") / "w.db") as m:
        for kind, text in zip(("decision", "preference", "decision"), TEXTS, strict=True):
            m.upsert(text, kind=kind, scope="a", at=NOW)
        yield m, HashingEmbedder(dim=8, seed=next(_seeds))


def test_a_lease_written_on_a_clock_an_hour_ahead_is_not_waited_for(db_url: str) -> None:
    """A lease a session-34 worker wrote on its own clock, an hour ahead of the database's:
    a lease ends at most ``BACKFILL_LEASE`` seconds ahead, so it is not waited for (it was,
    for an hour, by every worker and by ``memlane index --warm-meaning``)."""
    with memory(db_url) as m:
        m.upsert(TEXTS[0], kind="decision", scope="a", at=NOW)
        emb = HashingEmbedder(dim=8, seed=next(_seeds))
        m.store.set_meta(_LEASE + emb.name, json.dumps(
            {"owner": "session 34", "until": time.time() + 3600.0}))
        assert MeaningTier(emb).backfill(m.store, 8) == 1
