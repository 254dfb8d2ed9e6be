"""The meaning tier's backfill (session 33): a worker round with nothing newer to do warms the
items of sessions indexed before the tier was on, newest sessions first, a bounded number of
passages a round; ``memlane index --warm-meaning`` does it at once."""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import ConfigError, load_config
from memlane.index.embed import text_hash
from memlane.retrieve.explain import explain_lines
from memlane.retrieve.meaning import RESCORED_KINDS, MeaningTier, passages, shared_tier
from memlane.testing import HashingEmbedder, add_sessions, memory

from tests import commands
from tests.retrieve.test_meaning import NOW, SESSIONS  # the same three conversations


def _on(url: str, **retrieval: Any) -> Any:
    return memory(url, retrieval={"meaning": True, "meaning_candidates": 14, **retrieval})


def _passages(m: Any, scope: str = "chat") -> dict[str, int]:
    """Every passage the tier re-scores in ``scope``, with its session's id."""
    return {p: s.id for s in m.store.list_sessions(scope=scope)
            for it in m.store.session_items(s.id)
            if it.kind in RESCORED_KINDS and it.status == "active" and it.text.strip()
            for p in passages(it.text, m.config.retrieval.meaning_window)}


def _cached(m: Any, texts: list[str]) -> set[str]:
    tier = shared_tier(m.config.retrieval.meaning_max_tokens)
    found = m.store.cached_vectors(tier.model, [text_hash(t) for t in texts])
    return {t for t in texts if text_hash(t) in found}


def _indexed_with_the_tier_off(url: str) -> None:
    with memory(url) as m:  # retrieval.meaning false: the worker warmed nothing
        add_sessions(m, SESSIONS, now=NOW)
        m.work_once(now=NOW)
        assert not _cached(m, list(_passages(m)))


def test_the_worker_warms_what_was_indexed_before_the_tier_was_on(db_url: str) -> None:
    _indexed_with_the_tier_off(db_url)
    with _on(db_url, meaning_backfill=3) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        todo = _passages(m)
        newest = max(m.store.list_sessions(scope="chat"), key=lambda s: s.started_at).id
        rounds = 0
        while len(_cached(m, list(todo))) < len(todo):
            before = tier.computed
            m.work_once(now=NOW)
            rounds += 1
            assert tier.computed - before <= 3  # retrieval.meaning_backfill a round
            if rounds == 1:  # newest sessions first
                assert {todo[t] for t in _cached(m, list(todo))} == {newest}
            assert rounds <= math.ceil(len(todo) / 3)
        before = tier.computed
        hits = m.search("repainting cabinets in the kitchen", scope="chat", k=10, now=NOW,
                        explain=True)
        assert any("meaning" in h.scores for h in hits)
        for h in hits:  # warm: no candidate left un-re-scored, and explain says none was
            assert "meaning_skipped" not in h.scores
            assert not any("not re-scored" in line for line in explain_lines(h))
        assert tier.computed == before
        assert m.work_once(now=NOW).sessions_indexed == 0
        assert tier.computed == before  # the walk rests: nothing is left


def test_a_killed_worker_loses_nothing_and_computes_nothing_twice(tmp_path) -> None:
    url = str(tmp_path / "k.db")
    _indexed_with_the_tier_off(url)
    with _on(url, meaning_backfill=5) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        todo = list(_passages(m))
        start = tier.computed
        m.work_once(now=NOW)
        m.work_once(now=NOW)
        assert len(_cached(m, todo)) == tier.computed - start == 10
    with _on(url, meaning_backfill=5) as m:  # another process: its walk starts at the top
        while len(_cached(m, todo)) < len(todo):
            m.work_once(now=NOW)
        assert tier.computed - start == len(todo)  # each passage computed once


def test_a_round_that_indexes_does_not_backfill(tmp_path) -> None:
    url = str(tmp_path / "n.db")
    _indexed_with_the_tier_off(url)
    with _on(url, meaning_backfill=50) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        old = list(_passages(m))
        m.add_message("chat", "user", "I booked a ferry to the islands for August", at=NOW)
        m.close_session("chat")
        before = tier.computed
        assert m.work_once(now=NOW).sessions_indexed == 1
        new = [t for t in _passages(m) if t not in old]
        assert new and _cached(m, new) == set(new)
        assert tier.computed - before == len(new) and not _cached(m, old)
        m.work_once(now=NOW)  # nothing newer now: the old ones
        assert _cached(m, old) == set(old)


def test_the_backfill_stays_in_its_scope_and_is_off_at_zero(tmp_path) -> None:
    url = str(tmp_path / "s.db")
    with memory(url) as m:
        add_sessions(m, SESSIONS[:2], now=NOW, scope="a")
        add_sessions(m, SESSIONS[2:], now=NOW, scope="b")
    with _on(url, meaning_backfill=0) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        a, b = list(_passages(m, "a")), list(_passages(m, "b"))
        m.work_once(now=NOW)
        assert not _cached(m, a + b)  # 0: off
        assert tier.warm_all(m.store, scope="b") == len(b)
        assert _cached(m, a + b) == set(b)


@pytest.mark.parametrize("value", ["-1", "10001", "many", "1.5"])
def test_a_bad_meaning_backfill_is_refused_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError, match=r"retrieval\.meaning_backfill"):
        load_config(environ={"MEMLANE_RETRIEVAL_MEANING_BACKFILL": value})


def test_meaning_backfill_is_read_from_the_environment() -> None:
    assert load_config(environ={"MEMLANE_RETRIEVAL_MEANING_BACKFILL": "0"}
                       ).retrieval.meaning_backfill == 0
    assert load_config(environ={}).retrieval.meaning_backfill == 8


def test_memlane_index_warm_meaning_warms_now(cli_run, tmp_path) -> None:
    with memory(tmp_path / "cli.db") as m:
        add_sessions(m, SESSIONS[:2], now=NOW, scope="a")
        add_sessions(m, SESSIONS[2:], now=NOW, scope="b")
        a, b = list(_passages(m, "a")), list(_passages(m, "b"))
    got = cli_run("index", "--warm-meaning", "--scope", "a")
    assert f"computed {len(a)} meaning vector(s) not cached yet" in got.output
    with memory(tmp_path / "cli.db") as m:
        assert _cached(m, a + b) == set(a)
    got = cli_run("index", "--warm-meaning", "--json")
    assert json.loads(got.output)["meaning_vectors_computed"] == len(b)
    with memory(tmp_path / "cli.db") as m:
        assert _cached(m, a + b) == set(a + b)
    assert "meaning vector" not in cli_run("index").output  # without the flag, as before


def test_memlane_worker_warms_what_was_indexed_before(tmp_path) -> None:
    """``memlane worker`` (a real process) ran ``background_index`` alone: with the tier on
    it left every vector uncached, new sessions' too."""
    url = str(tmp_path / "w.db")
    _indexed_with_the_tier_off(url)
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing",
           "MEMLANE_RETRIEVAL_MEANING": "true", "MEMLANE_RETRIEVAL_MEANING_BACKFILL": "64"}
    proc = commands.memlane("--db", url, "worker", "--poll", "0.2", env=env)
    try:
        with _on(url) as m:
            todo = list(_passages(m))
            until = time.monotonic() + 120
            while len(_cached(m, todo)) < len(todo) and time.monotonic() < until:
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.3)
            assert _cached(m, todo) == set(todo)
        proc.send_signal(signal.SIGTERM)
        assert "worker stopped after" in commands.finish(proc, 60)[1]
    finally:
        commands.end(proc)


def test_a_passage_whose_item_was_erased_after_the_read_is_not_cached(db_url: str) -> None:
    """The walk reads the items, computes, then writes: an erase committed between the read
    and the write deleted the cache rows of its texts, and a vector written after it would
    outlive the erase. The write keeps only what a stored item still holds."""
    _indexed_with_the_tier_off(db_url)
    with _on(db_url) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        read = {p: it.id for s in m.store.list_sessions(scope="chat")
                for it in m.store.session_items(s.id) if it.kind == "turn"
                for p in passages(it.text, tier.window)}  # as the walk read them
        gone = m.store.list_sessions(scope="chat")[0].id
        held = _passages(m)
        erased = [t for t in read if held[t] == gone]
        m.forget_session(gone)
        tier._keep(m.store, read)  # the walk's write, after the erase
        assert erased and not _cached(m, erased)
        assert _cached(m, list(read)) == set(read) - set(erased)


MORE = [(d, [("user", f"{t} (week {d})") for _, t in turns]) for d, turns in
        [(40 + k, SESSIONS[k % 3][1]) for k in range(6)]]  # nine sessions, distinct texts


@pytest.fixture(scope="module")
def nine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    m = add_sessions(memory(tmp_path_factory.mktemp("nine") / "n.db"), SESSIONS + MORE, now=NOW)
    yield m
    m.close()


_seeds = itertools.count(1)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(most=st.integers(1, 40), kills=st.sets(st.integers(1, 30), max_size=3))
def test_the_walk_fills_newest_first_each_passage_once_whatever_the_kills(
        nine: Any, most: int, kills: set[int]) -> None:
    """Any limit, a worker killed after any rounds (a new tier: its walk is lost): every
    round computes at most ``most``, the cache fills in ceil(N / most) rounds, no passage is
    computed twice, and the sessions fill newest first."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))  # a model of its own: a cold cache
    todo = _passages(nine)
    order = [s.id for s in nine.store.list_sessions(scope="chat")]  # newest first
    tier, computed, rounds = MeaningTier(emb), 0, 0
    while True:
        found = nine.store.cached_vectors(emb.name, [text_hash(t) for t in todo])
        full = {sid for sid in order if all(text_hash(t) in found for t, s in todo.items()
                                             if s == sid)}
        some = {s for t, s in todo.items() if text_hash(t) in found}
        # a prefix of the sessions newest first is full; at most the next one is begun
        assert full == set(order[: len(full)]) and some <= set(order[: len(full) + 1])
        if len(found) == len(todo):
            break
        rounds += 1
        if rounds in kills:
            tier = MeaningTier(emb)
        step = tier.backfill(nine.store, most, now=float(rounds))
        assert 0 < step <= most
        computed += step
    assert computed == len(todo) and rounds == math.ceil(len(todo) / most)


def test_a_search_caches_no_vector_of_an_item_erased_after_its_read(db_url: str) -> None:
    """A meaning search reads its candidates, computes their vectors, then caches them:
    an erase committed in between left the erased texts' vectors cached (session 33, at the
    merge: the worker's write checked, the search's did not). The search's write now keeps
    only what a stored item still holds; its answer still scores every candidate it read."""
    _indexed_with_the_tier_off(db_url)
    with _on(db_url) as m:
        tier = shared_tier(m.config.retrieval.meaning_max_tokens)
        items = [it for s in m.store.list_sessions(scope="chat")
                 for it in m.store.session_items(s.id) if it.kind == "turn"]  # the read
        gone = m.store.list_sessions(scope="chat")[0].id
        erased = [it.text for it in items if it.session_id == gone]
        kept = [it.text for it in items if it.session_id != gone]
        m.forget_session(gone)
        scores = tier.cosines(m.store, "what did we decide", items)  # computes, then writes
        assert set(scores) == {it.id for it in items}
        assert erased and not _cached(m, erased)
        assert _cached(m, kept) == set(kept)
