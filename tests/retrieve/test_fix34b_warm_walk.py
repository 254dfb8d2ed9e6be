"""``memlane index --warm-meaning``'s bar is sized by what the walk passes, counted without
reading a session (session 34, fix34b): it listed every session of the database to size a
bar that counted sessions while the walk passes the items no session holds first; and it
waited for a stopped worker's lease without a word."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.retrieve.meaning import _LEASE, BACKFILL_LEASE, RESCORED_KINDS, MeaningTier, shared_tier
from memlane.testing import HashingEmbedder, memory

from tests.retrieve.test_meaning import NOW

_seeds = itertools.count(3400)
KINDS = ["decision", "fact", "note", "observation", "plan", "preference"]  # "fact": add_fact
TEXTS = st.sampled_from(["we chose PostgreSQL for the ledger", "prefers window seats",
                         "the cat is called Miso", "ship the beta in March", "lives in Porto"])


@pytest.fixture(params=["sqlite", "postgres"])
def db_url_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """A fresh database for each call (a hypothesis example each): a SQLite file, or a
    database on the session's PostgreSQL, dropped afterwards."""
    made: list[str] = []
    if request.param == "sqlite":
        yield lambda: str(tmp_path / f"{next(_seeds)}.db")
        return
    from memlane.testing.postgres import create_database, drop_database

    server = request.getfixturevalue("postgres_server_url")

    def fresh() -> str:
        made.append(f"fix34b_{os.getpid()}_{next(_seeds)}")
        return str(create_database(server, made[-1]))
    yield fresh
    for name in made:
        drop_database(server, name)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(sessions=st.lists(st.tuples(st.sampled_from("ab"), TEXTS), max_size=7),
       loose=st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(KINDS), TEXTS), max_size=7),
       scope=st.sampled_from([None, "a", "b"]), batch=st.integers(1, 3), index=st.booleans())
def test_the_warm_passes_what_its_bar_counts(db_url_factory: Any, sessions: list, loose: list,
                                             scope: str | None, batch: int, index: bool) -> None:
    with memory(db_url_factory()) as m:
        for n, (where, text) in enumerate(sessions):  # a day apart: a session each
            m.add_message(where, "user", f"{text} ({n})", at=NOW - timedelta(days=len(sessions) - n))
        if index:
            m.index(NOW + timedelta(days=1))
        for n, (where, kind, text) in enumerate(loose):
            if kind == "fact" or n % 3 == 2:
                m.add_fact("user", f"said {n}", text, scope=where, at=NOW)
            else:
                m.upsert(text, kind=kind, scope=where, at=NOW)
        tier = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        size = tier.walk_size(m.store, scope)
        # what the walk goes over: every session of the scope, and the items no session
        # holds of the kinds the tier re-scores
        listed = (len(m.store.list_sessions(scope=scope, limit=10**6))
                  + len(m.store.loose_items(sorted(RESCORED_KINDS), scope=scope, limit=10**6)))
        assert size == listed
        seen: list[int] = []
        tier.warm_all(m.store, scope=scope, batch=batch,
                      progress=lambda passed, _computed: seen.append(passed))
        assert seen == sorted(seen) and seen[-1] == size, (seen, size)


def test_a_warm_waiting_for_a_lease_says_so_once(tmp_path: Any) -> None:
    with memory(tmp_path / "w.db") as m:
        m.upsert("we chose PostgreSQL for the ledger", kind="decision", scope="a", at=NOW)
        worker = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        warm = MeaningTier(worker.embedder)
        assert worker._lease(m.store, take=True)  # a worker that stopped holding it
        start = time.time()
        ticks = itertools.chain([start, start], itertools.repeat(start + BACKFILL_LEASE + 1))
        warm.clock = lambda: next(ticks)  # the lease runs out after one look
        said: list[float] = []
        assert warm.warm_all(m.store, waiting=said.append) == 1
        assert len(said) == 1 and 0 < said[0] <= BACKFILL_LEASE, said


def test_memlane_index_warm_meaning_says_it_waits_for_a_lease(cli_run: Any, tmp_path: Any) -> None:
    with memory(tmp_path / "cli.db") as m:
        m.upsert("we chose PostgreSQL for the ledger", kind="decision", scope="a", at=NOW)
        model = shared_tier(m.config.retrieval.meaning_max_tokens,
                            m.config.retrieval.meaning_window).model
        # a stopped worker's lease, running out in a moment
        m.store.set_meta(_LEASE + model, json.dumps({"owner": "stopped", "until": time.time() + 0.5}))
    got = cli_run("index", "--warm-meaning")
    assert "waiting for the meaning backfill's lease, which another process holds" in got.stderr
    assert "computed 1 meaning vector(s) not cached yet" in got.stdout
