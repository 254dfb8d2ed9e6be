"""A worker's backfill round that stores its walk's first place while an erase runs takes
nothing of what the erase took (session 36, rev36; PostgreSQL, where the two run at once).

Session 35 made an erase move the walks off what it erases (``EraseMixin._forget_walks``,
reading the walk rows ``FOR UPDATE``) and a round's write read its place's session under
the walk row's lock. A walk's first place has no row yet: the erase's read found none to
lock or move, the round read the session before the erase committed and inserted the row
after the erase's read, so the erased session's start and id (or, for the walk of one
scope, the erased scope's name hashed) were kept. The erase now takes the backfill's lease
rows first (the round's write holds its lease to its commit), so one of the two waits for
the other."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest

from memlane.config import load_config
from memlane.memory import Memory
from memlane.retrieve.meaning import MeaningTier, _walk_key
from memlane.store.walks import scope_tag
from memlane.testing import HashingEmbedder

from tests.pg_race import memlane_waiting, race
from tests.store.test_rev35_erase_walks import _two_scopes, _walks

_seeds = itertools.count(3800)


def _hold_after_the_walks(held: threading.Event, go: threading.Event) -> Any:
    """A tracer holding the thread "eraser" at its first statement after it read the walk
    rows (``_forget_walks``), before its commit."""
    state = {"read": False}

    def tracer(kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread().name != "eraser":
            return
        if sql.startswith("SELECT key, value FROM meta WHERE substr(key"):
            state["read"] = True
        elif state["read"] and not held.is_set():
            held.set()
            go.wait(60)

    return tracer


@pytest.mark.parametrize("what", ["session", "scope"])
def test_a_walks_first_place_stored_during_an_erase_keeps_nothing_of_it(pg_url: str,
                                                                       what: str) -> None:
    emb = HashingEmbedder(dim=8, seed=next(_seeds))
    held, go = threading.Event(), threading.Event()
    with _two_scopes(pg_url) as m, Memory(pg_url, config=load_config(environ={}),
                                         tracer=_hold_after_the_walks(held, go),
                                         embedder=HashingEmbedder(dim=8)) as eraser:
        newest = m.store.list_sessions(scope="alice")[0]
        scope = None if what == "session" else "alice"
        tier, key = MeaningTier(emb), _walk_key(emb.name, scope)
        assert not _walks(m.store)  # the walk's first round: no row yet
        walk = tier._take(m.store, key)
        assert walk is not None
        tier._walk(m.store, walk, 5, scope, 64, lease=True)
        assert walk.after is not None and walk.after[1] == newest.id

        def erase() -> None:
            if what == "session":
                eraser.forget_session(newest.id)
            else:
                eraser.forget_scope("alice")

        errors = race(erase, lambda: tier._give(m.store, key, walk, 5, scope), name="eraser",
                      held=held, go=go, waiting=lambda: memlane_waiting(pg_url))
        assert not errors, errors
        for k, w in _walks(m.store).items():
            assert scope_tag("alice") not in k or what == "session", (k, w)
            assert not w.get("after") or w["after"][1] != newest.id, (k, w)
            assert not w.get("after") or abs(float(w["after"][0])
                                             - newest.started_at.timestamp()) > 1e-3, (k, w)
