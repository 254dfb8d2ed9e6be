"""An erase leaves no trace of the erased scope in where the meaning backfill's walks stand
(session 35, rev35).

Session 34 keeps each walk's place in the store's ``meta`` table: a walk of one scope under
its name hashed, and each walk's place as the last session it passed (its start and id).
``memlane erase`` (``forget_scope``) left the erased scope's row (a hash of a name is
found again by hashing the name: "was alice ever here?"), and a walk of every scope kept
the start of an erased session; ``forget_session`` too."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.index.embed import text_hash
from memlane.retrieve.meaning import RESCORED_KINDS, MeaningTier, passages
from memlane.store.walks import WALK_PREFIX, scope_tag
from memlane.testing import HashingEmbedder, add_sessions, memory

from tests.retrieve.test_meaning import NOW, SESSIONS

_seeds = itertools.count(3600)


def _walks(store: Any) -> dict[str, dict[str, Any]]:
    """Every walk row of ``meta``: its key and its value read."""
    out = {}
    for key in _meta_keys(store):
        if key.startswith(WALK_PREFIX):
            value = store.meta_value(key)
            out[key] = json.loads(value) if value else {}
    return out


def _meta_keys(store: Any) -> list[str]:
    return [r[0] for r in store._run("SELECT key FROM meta")]


def _clocked_tier(emb: Any, clock: list[float]) -> MeaningTier:
    """A tier whose clock is the test's (``clock[0]``), so a walk's rest can be made to pass."""
    tier = MeaningTier(emb)
    tier.clock = lambda: clock[0]
    return tier


def _texts(store: Any, scope: str) -> set[str]:
    return {p for s in store.list_sessions(scope=scope) for it in store.session_items(s.id)
            if it.kind in RESCORED_KINDS and it.status == "active" and it.text.strip()
            for p in passages(it.text, 0)}


def _uncached(store: Any, emb: Any) -> set[str]:
    """The passages both scopes still hold that have no cached vector of ``emb``."""
    rest = _texts(store, "alice") | _texts(store, "bob")
    got = store.cached_vectors(emb.name, [text_hash(t) for t in rest])
    return {t for t in rest if text_hash(t) not in got}


def _noting(store: Any, emb: Any, taken: set[str], erase: Callable[[], Any]) -> None:
    """Run ``erase``, adding to ``taken`` the passages still held whose cached vector it
    deleted. alice's and bob's sessions say the same texts, and an erase deletes the cache
    rows of its texts, a kept item's same text's too (``EraseMixin._forget_cached``: the
    cache only saves embedding it again): a walk that had passed that item computes it
    again on its next pass, after its rest, not on this one (walk47)."""
    rest = _texts(store, "alice") | _texts(store, "bob")
    had = rest - _uncached(store, emb)
    erase()
    taken |= had & _uncached(store, emb)


def _every_passage_reached(store: Any, emb: Any, clock: list[float], taken: set[str],
                           tier: Callable[[], MeaningTier]) -> None:
    """Every walk (alice's, bob's, every scope's) walked to its end once its rest is over:
    every passage left is cached but those an erase took from the cache behind a walk
    (``taken``); and walked once more, after the rest its end began, those too."""
    for last in (False, True):
        clock[0] += 10_000.0  # every rest over
        for scope in ("alice", "bob", None):
            t = tier()
            while t.backfill(store, 9, scope=scope):
                pass
        missing = _uncached(store, emb)
        assert not missing if last else missing <= taken, (missing, taken)


def _two_scopes(db_url: str) -> Any:
    """alice's sessions the newest of the database, bob's a hundred days older."""
    m = add_sessions(memory(db_url), SESSIONS, now=NOW, scope="alice")
    return add_sessions(m, SESSIONS, now=NOW - timedelta(days=100), scope="bob")


def _walked_into_alice(m: Any, emb: Any, alone: Any) -> list[tuple[float, int]]:
    """A walk of every scope (model ``emb``) and one of alice (``alone``), each past
    alice's newest session; alice's sessions' keys (start, id)."""
    alice = [(s.started_at.timestamp(), s.id) for s in m.store.list_sessions(scope="alice")]
    first = len([p for it in m.store.session_items(alice[0][1])
                 if it.kind in RESCORED_KINDS for p in passages(it.text, 0)])
    for scope, model in (("alice", alone), (None, emb)):
        MeaningTier(model).backfill(m.store, first + 1, scope=scope)
    walks = _walks(m.store)
    assert {w["after"][1] for w in walks.values()} == {alice[0][1]}, walks
    assert any(scope_tag("alice") in k for k in walks)
    return alice


def test_forget_scope_leaves_no_walk_of_it_and_no_start_of_its_sessions(db_url: str) -> None:
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        bob = _texts(m.store, "bob")
        alone = HashingEmbedder(dim=8, seed=next(_seeds))
        alice = _walked_into_alice(m, emb, alone)
        m.forget_scope("alice")
        assert not [k for k in _meta_keys(m.store) if scope_tag("alice") in k]
        for w in _walks(m.store).values():  # the walk of every scope names none of alice's
            assert w.get("after") is None or tuple(w["after"]) not in alice, w
            assert not set(map(str, w.get("after") or ())) & {str(a) for a, _ in alice}
        tier = MeaningTier(emb)  # the walk goes on: bob's passages, each once
        while tier.backfill(m.store, 5):
            pass
        got = m.store.cached_vectors(emb.name, [text_hash(t) for t in bob])
        assert len(got) == len(bob) and tier.computed == len(bob)


def test_forget_session_moves_a_walk_off_the_erased_session(db_url: str) -> None:
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        alone = HashingEmbedder(dim=8, seed=next(_seeds))
        alice = _walked_into_alice(m, emb, alone)
        m.forget_session(alice[0][1])
        rest = _texts(m.store, "alice") | _texts(m.store, "bob")
        for key, w in _walks(m.store).items():
            assert w.get("after") is None or w["after"][1] != alice[0][1], (key, w)
            assert str(alice[0][0]) not in json.dumps(w), (key, w)
        had = len(m.store.cached_vectors(emb.name, [text_hash(t) for t in rest]))
        tier = MeaningTier(emb)  # every walk goes on where it was: alice's others, bob's
        while tier.backfill(m.store, 5):
            pass
        while MeaningTier(alone).backfill(m.store, 5, scope="alice"):
            pass
        assert len(m.store.cached_vectors(alone.name, [text_hash(t) for t in
                                                       _texts(m.store, "alice")])) == len(
            _texts(m.store, "alice"))
        got = m.store.cached_vectors(emb.name, [text_hash(t) for t in rest])
        assert len(got) == len(rest) and tier.computed == len(rest) - had


def test_a_session_erased_during_a_round_is_not_stored_as_its_place(db_url: str) -> None:
    """A worker's round read its page and passed alice's newest session; ``forget_session``
    of it commits; then the round stores its place: the erase had nothing to move yet, and
    the place written after it named the erased session. The round's write reads the
    session under the walk row's lock (the erase takes it too) and walks from the newest
    again when it is gone."""
    from memlane.retrieve.meaning import _walk_key

    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    with _two_scopes(db_url) as m:
        alice = [s.id for s in m.store.list_sessions(scope="alice")]
        tier, key = MeaningTier(emb), _walk_key(emb.name, None)
        walk = tier._take(m.store, key)
        assert walk is not None
        tier._walk(m.store, walk, 5, None, 64, lease=True)  # the round's read and write
        assert walk.after is not None and walk.after[1] == alice[0]
        m.forget_session(alice[0])
        tier._give(m.store, key, walk, 5)  # its place, after the erase
        stored = _walks(m.store)[key]
        assert stored.get("after") is None or stored["after"][1] != alice[0], stored
        while tier.backfill(m.store, 5):
            pass
        rest = _texts(m.store, "alice") | _texts(m.store, "bob")
        got = m.store.cached_vectors(emb.name, [text_hash(t) for t in rest])
        assert len(got) == len(rest)


_STEPS = st.lists(st.one_of(
    st.tuples(st.just("round"), st.sampled_from(["alice", "bob", None]), st.integers(1, 9)),
    st.tuples(st.just("session"), st.sampled_from(["alice", "bob"]), st.integers(0, 2)),
    st.tuples(st.just("scope"), st.sampled_from(["alice", "bob"]), st.just(0))),
    min_size=1, max_size=12)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
@example(steps=[("round", "alice", 7), ("round", None, 1), ("session", "bob", 0)])  # walk47
def test_walks_keep_nothing_of_what_any_erase_took(tmp_path_factory: Any, steps: list[Any]) -> None:
    """Rounds of walks of every scope and of one scope, between erasures of sessions and of
    scopes in any order: after each step no walk is keyed by an erased scope and none stands
    at a session no longer stored; and the walks still reach every passage left (those an
    erase took from the cache behind a walk on its next pass: ``_every_passage_reached``)."""
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    clock = [1_000.0]

    def tier() -> MeaningTier:
        return _clocked_tier(emb, clock)

    with _two_scopes(str(tmp_path_factory.mktemp("walks") / "w.db")) as m:
        erased: set[str] = set()
        taken: set[str] = set()
        for what, scope, n in steps:
            if what == "round":
                tier().backfill(m.store, n, scope=scope)
                clock[0] += 1.0
            elif what == "session":
                held = [s.id for s in m.store.list_sessions(scope=scope)]
                if held:
                    _noting(m.store, emb, taken, lambda: m.forget_session(held[n % len(held)]))
            else:
                _noting(m.store, emb, taken, lambda: m.forget_scope(scope))
                erased.add(scope)
            walks = _walks(m.store)
            assert not [k for k in walks for s in erased if scope_tag(s) in k], walks
            named = [w["after"][1] for w in walks.values() if w.get("after")]
            assert set(named) <= {s.id for s in m.store.list_sessions(limit=100)}, walks
        _every_passage_reached(m.store, emb, clock, taken, tier)
