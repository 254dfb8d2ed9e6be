"""Every reference into sessions, messages and turns resolves, whatever merged, moved or
erased them (session 25).

A hypothesis history on a SQLite file and on PostgreSQL: messages that state facts, added
in random time order (late ones into closed sessions, ones within the gap of two sessions
that join them), explicit closes, index runs that summarize (some while another client
adds a late message between the summarizer's read and its write: one that takes its place
between the session's turns, or one that joins it to the next session), forgotten turns
and sessions. After every step: each message's, item's, fact's, fact event's and
relation's session exists and is its message's; an item's ``seq`` is its message's; a
fact's or observation's source turn (``parents``) is the turn of its own message; a
fact's item is in its session; each indexed session's turns have their vectors and the
keys ``turn_keys`` computes; a lexical search over every word returns only stored items,
and a search only items of stored sessions.

Before session 25 a summary written from messages read before a late message took its
place (or a merge renumbered the session) pointed its facts' and observations' source turn
at the turn now holding the old number, a neighbour of the right one, with the old
``seq``, until the session was summarized again.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.backends.registry import make_intelligence
from memlane.config import load_config
from memlane.index.indexer import turn_keys
from memlane.memory import Memory
from memlane.store.filters import Filters
from memlane.testing import HashingEmbedder
from memlane.types import Message
from tests.test_erase import NOW, OVERRIDES

BASE = NOW - timedelta(days=3)
LATER = BASE + timedelta(days=2)
SAYINGS = ["I live in Lisbon now", "My dog is named Kiwi", "I work at Acme as a nurse",
           "ok", "My sister Ana lives in Berlin", "We went swimming at the lake with Maria",
           "I moved to Porto last week", "sure"]
WORDS = sorted({w.lower() for s in SAYINGS for w in s.split()})


class _Meddler:
    """The offline intelligence; once armed, it first runs the armed action (another
    client's write) between the summarizer's read of a session and its write."""

    def __init__(self, config: Any) -> None:
        self.inner = make_intelligence(config)
        self.name = getattr(self.inner, "name", None)
        self.action: Any = None

    def summarize(self, scope: str, messages: Sequence[Message]) -> Any:
        if self.action is not None and messages:
            action, self.action = self.action, None
            action(messages)
        return self.inner.summarize(scope, messages)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def check_references(mem: Memory) -> None:
    """Every invariant of the module docstring, over the whole database."""
    run = mem.store._run  # type: ignore[attr-defined]
    sessions = {r[0]: r[1:] for r in run(
        "SELECT id, scope, indexed_at, status FROM sessions").fetchall()}
    msgs = {r[0]: r[1:] for r in run("SELECT id, session_id, seq, scope FROM messages").fetchall()}
    for mid, (sid, _, scope) in msgs.items():
        assert sid in sessions and sessions[sid][0] == scope, (mid, sid)
    items = {r[0]: r[1:] for r in run(
        "SELECT id, kind, session_id, message_id, seq, parents, children FROM items").fetchall()}
    for iid, (kind, sid, mid, seq, parents, children) in items.items():
        assert sid is None or sid in sessions, (iid, kind, sid)
        if mid is not None:
            assert mid in msgs and msgs[mid][0] == sid, (iid, kind, mid, sid)
            assert seq == msgs[mid][1], ("seq", iid, kind, seq, msgs[mid])
        for child in json.loads(children or "[]"):
            assert child in items, ("child", iid, kind, child)
        for parent in json.loads(parents or "[]"):
            assert parent in items, (iid, parent)
            if kind in ("fact", "observation"):
                p_kind, p_sid, p_mid = items[parent][:3]
                assert (p_kind, p_sid, p_mid) == ("turn", sid, mid), (
                    "source turn", iid, kind, mid, items[parent])
    for fid, sid, mid, iid in run("SELECT id, session_id, message_id, item_id FROM facts"):
        assert sid is None or sid in sessions, ("fact", fid, sid)
        assert mid is None or (mid in msgs and msgs[mid][0] == sid), ("fact", fid, mid, sid)
        assert iid is None or (iid in items and items[iid][1] == sid), ("fact", fid, iid, sid)
    for eid, sid in run("SELECT id, session_id FROM fact_events"):
        assert sid is None or sid in sessions, ("fact event", eid, sid)
    for rid, sid, mid in run("SELECT id, session_id, message_id FROM relations"):
        assert sid is None or sid in sessions, ("relation", rid, sid)
        assert mid is None or (mid in msgs and msgs[mid][0] == sid), ("relation", rid, mid, sid)
    model = mem.embeddings.model
    vectored = {r[0] for r in run("SELECT item_id FROM vectors WHERE model = %s", (model,))}
    assert vectored <= set(items), vectored - set(items)
    for sid, (_, indexed_at, status) in sessions.items():
        if indexed_at is None or status == "open":
            continue
        session_msgs = mem.store.session_messages(sid)
        turns = {items[i][2]: i for i in items if items[i][:2] == ("turn", sid)}
        assert set(turns) == {m.id for m in session_msgs}, (sid, turns)
        assert set(turns.values()) <= vectored, sid
        keys = dict(run("SELECT message_id, keys FROM items WHERE session_id = %s"
                        " AND kind = 'turn'", (sid,)).fetchall())
        assert keys == turn_keys(session_msgs), sid
    counters = mem.stats()["counters"]
    assert counters.get("sessions_opened", 0) == len(sessions) + counters.get(
        "sessions_merged", 0) + counters.get("sessions_erased", 0), counters
    for word in WORDS:
        for iid, _ in mem.store.lexical_search([word], Filters(), 200):
            assert iid in items, ("lexical", word, iid)
    for hit in mem.search("where does she live and work", k=50, now=LATER):
        assert hit.item.id in items and hit.item.session_id in (None, *sessions), hit


def _open(url: str, intelligence: Any = None) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=64), intelligence=intelligence)


# mostly minutes apart (sessions of four messages and more are summarized, smaller ones
# only read by the patterns), at times more than the gap
add_step = st.tuples(st.just("add"), st.sampled_from("ab"),
                     st.one_of(st.integers(-8, 12), st.integers(-8, 12), st.integers(-60, 60)),
                     st.integers(0, len(SAYINGS) - 1))
step = st.one_of(
    add_step, add_step,
    # a conversation of a few messages, minutes apart, a while after the scope's last one
    st.tuples(st.just("talk"), st.sampled_from("ab"), st.integers(0, 90),
              st.lists(st.integers(0, len(SAYINGS) - 1), min_size=4, max_size=6)),
    st.tuples(st.just("close"), st.sampled_from("ab")),
    # an index run; meanwhile (between the summarizer's read and its write) another client
    # adds a message between two of the session's turns, or one just after it that joins
    # it to the next session, or nothing
    st.tuples(st.just("index"), st.sampled_from([None, "inside", "join"])),
    st.tuples(st.just("late"), st.integers(0, 10**6), st.integers(0, 1200)),
    st.tuples(st.just("compact")),
    st.tuples(st.just("forget_turn"), st.integers(0, 10**6)),
    st.tuples(st.just("forget_session"), st.integers(0, 10**6)),
)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_reference_resolves_after_merges_moves_and_erases(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    counter = itertools.count()
    config = load_config(environ={}, overrides=OVERRIDES)

    @settings(max_examples=30 if backend == "sqlite" else 12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=st.lists(step, min_size=3, max_size=30))
    # the shape found first: a message placed after a session's first while it is summarized
    @example(steps=[("add", "a", 0, 0), ("talk", "a", 0, [0, 0, 0, 0]), ("index", "inside")])
    # a weekly roll-up and a decision record made of summaries, then one of their sessions
    # summarized again (a late message)
    @example(steps=[("talk", "a", 0, [0, 1, 2, 4]), ("talk", "a", 60, [0, 1, 2, 4]),
                    ("talk", "a", 60, [0, 1, 2, 4]), ("index", None), ("compact",),
                    ("late", 0, 30), ("index", None)])
    def run(steps: list[Any]) -> None:
        n = next(counter)
        url = str(tmp_path / f"r{n}.db") if backend == "sqlite" else str(
            request.getfixturevalue("pg_url"))
        meddler = _Meddler(config)
        texts = itertools.count()
        minute = {"a": 60, "b": 60}
        with _open(url, meddler) as mem, _open(url) as other:
            scopes = {f"a{n}", f"b{n}"}

            def add(client: Memory, scope: str, at: Any, saying: int) -> None:
                i = next(texts)
                client.add_message(scope, "user" if i % 2 == 0 else "assistant",
                                   SAYINGS[saying], at=at,
                                   speaker=(None, "ann")[i % 2])

            def meddle(how: str) -> Any:
                def act(read: Sequence[Message]) -> None:
                    first, last = read[0], read[-1]
                    if how == "inside":  # just after the first message: between two turns
                        at = first.at + (last.at - first.at) / 3 if len(read) > 1 else first.at
                    else:  # within the gap after it: joins the next session, if near
                        at = last.at + timedelta(minutes=20)
                    add(other, first.scope, at, next(texts) % len(SAYINGS))
                return act

            def ours() -> list[Any]:
                return sorted((s for s in mem.sessions(limit=10_000) if s.scope in scopes),
                              key=lambda s: s.id)

            for op in steps:
                if op[0] == "add":
                    minute[op[1]] = max(0, minute[op[1]] + op[2])
                    add(mem, f"{op[1]}{n}", BASE + timedelta(minutes=minute[op[1]]), op[3])
                elif op[0] == "talk":
                    minute[op[1]] += op[2]
                    for k, saying in enumerate(op[3]):
                        add(mem, f"{op[1]}{n}",
                            BASE + timedelta(minutes=minute[op[1]] + 3 * k), saying)
                    minute[op[1]] += 3 * len(op[3])
                elif op[0] == "close":
                    mem.close_session(f"{op[1]}{n}")
                elif op[0] == "index":
                    meddler.action = None if op[1] is None else meddle(op[1])
                    mem.index(now=LATER)
                    meddler.action = None
                elif op[0] == "compact":  # decision records and weekly roll-ups
                    mem.compact(now=LATER + timedelta(days=30))
                elif op[0] == "late":
                    closed = [s for s in ours() if s.status != "open"]
                    if closed:
                        s = closed[op[1] % len(closed)]
                        add(mem, s.scope, s.started_at + timedelta(seconds=op[2]), op[1] % 8)
                elif op[0] == "forget_turn":
                    turns = [t for s in ours() for t in mem.store.session_items(s.id, "turn")]
                    if turns:
                        mem.forget_item(turns[op[1] % len(turns)].id)
                else:
                    if ours():
                        mem.forget_session(ours()[op[1] % len(ours())].id)
                check_references(mem)
            mem.index(now=LATER)
            check_references(mem)
        ran.append(len(steps))

    ran: list[int] = []
    run()
    assert len(ran) >= 10, ran
