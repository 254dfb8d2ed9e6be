"""Where session 23's two changes to ``seq`` meet (review rev23): a session lists its
messages in time order (a late or earlier-dated message takes its place, qa23c) and
``forget_item`` of a turn erases its message and numbers the rest again (qa23b).

A hypothesis history interleaves messages arriving in random time order (single and
batched, some late into closed sessions, some re-sent under their id), index runs, and
``forget_item`` of random turns, some of them while the indexer embeds a session it has
read (an embedder that, once armed, has another client deliver a late message and forget a
turn between the indexer's read and its write). After each step, on a SQLite file and on
PostgreSQL: every session's messages are numbered 1..n, in time order (equal times in
arrival order); every turn points at a stored message with its text and seq; the session's
``message_count`` is its messages; a message re-sent under its id is stored once. (An export
imported into a fresh database is not compared here: sessions that overlap in time come back
joined, and one history not yet read failed even "every message once"; see docs/erasure.md.)
"""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.index.indexer import turn_keys
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.test_erase import NOW, OVERRIDES

BASE = NOW - timedelta(days=3)


class _Meddler:
    """An embedder that, once armed with actions, runs them (another client's writes) the
    first time it embeds turns of this test (texts starting ``m``): between the indexer's
    read of the sessions and its write."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(dim=256, char_trigrams=True)
        self.name, self.dim = self.inner.name, self.inner.dim
        self.actions: list[Any] = []

    def embed_batch(self, texts: Any) -> Any:
        if self.actions and texts and all(str(t).startswith("m") for t in texts):
            actions, self.actions = self.actions, []
            for act in actions:
                act([str(t) for t in texts])
        return self.inner.embed_batch(texts)


def _open(url: str, embedder: Any) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides=OVERRIDES), embedder=embedder)


def _listing(mem: Memory, scopes: Any) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Each of ``scopes``' sessions (by start) with their messages' (text, time), checking
    every invariant on the way."""
    out = []
    sessions = sorted((s for s in mem.sessions(limit=10_000) if s.scope in scopes),
                      key=lambda s: (s.scope, s.started_at, s.id))
    for s in sessions:
        msgs = mem.messages(s.id)
        assert [m.seq for m in msgs] == list(range(1, len(msgs) + 1)), (s.id, msgs)
        # time order, equal times by arrival (ids grow with arrival)
        assert [(m.at, m.id) for m in msgs] == sorted((m.at, m.id) for m in msgs), msgs
        stored = mem.store.get_session(s.id)
        assert stored.message_count == len(msgs)
        # its span and participants are its messages' (a forgotten first or last turn, or
        # its speaker's only one, leaves neither behind: session 24)
        assert (stored.started_at, stored.ended_at) == (msgs[0].at, max(m.at for m in msgs)), (
            stored, msgs)
        assert sorted(stored.participants) == sorted({m.speaker or m.role for m in msgs}), (
            stored, msgs)
        by_id = {m.id: m for m in msgs}
        turns = mem.store.session_items(s.id, kind="turn")
        for t in turns:
            assert t.message_id in by_id, (t, msgs)
            m = by_id[t.message_id]
            assert (t.text, t.seq) == (m.text, m.seq), (t, m)
        assert len({t.message_id for t in turns}) == len(turns)
        out.append((s.scope, tuple((m.text, m.at.isoformat()) for m in msgs)))
    return out


def _all_turned(mem: Memory, scopes: Any) -> None:
    """After an index run, every message of a closed session has its turn, keyed as its
    messages are now (a late message placed between two turns changes the next one's
    keys, which carry the previous message's words: session 24)."""
    for s in [s for s in mem.sessions(limit=10_000) if s.scope in scopes and s.status != "open"]:
        msgs = mem.messages(s.id)
        assert {t.message_id for t in mem.store.session_items(s.id, kind="turn")} == {
            m.id for m in msgs}, (s, msgs)
        keys = dict(mem.store._run(  # type: ignore[attr-defined]
            "SELECT message_id, keys FROM items WHERE session_id = %s AND kind = 'turn'",
            (s.id,)).fetchall())
        assert keys == turn_keys(msgs), (s, msgs)


step = st.one_of(
    st.tuples(st.just("add"), st.sampled_from("ab"), st.integers(0, 60 * 12),
              st.booleans(), st.booleans()),
    st.tuples(st.just("close"), st.sampled_from("ab")),
    st.tuples(st.just("index"), st.booleans()),
    st.tuples(st.just("forget"), st.integers(0, 10**6)),
    st.tuples(st.just("resend"), st.integers(0, 10**6)),
    st.tuples(st.just("late"), st.integers(0, 10**6), st.booleans()),
)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_time_order_and_turn_erase_interleaved(request: pytest.FixtureRequest, tmp_path: Any,
                                                backend: str) -> None:
    counter = itertools.count()

    @settings(max_examples=40 if backend == "sqlite" else 20, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=st.lists(step, min_size=3, max_size=30), late_minute=st.integers(0, 60 * 12),
           pick=st.integers(0, 10**6))
    def run(steps: list[Any], late_minute: int, pick: int) -> None:
        n = next(counter)
        if backend == "sqlite":
            url = str(tmp_path / f"h{n}.db")
        else:
            url = request.getfixturevalue("pg_url")
        meddler = _Meddler()
        texts = itertools.count()
        sent: list[dict[str, Any]] = []  # messages given an id, to send again
        with _open(url, meddler) as mem, _open(url, HashingEmbedder(dim=256)) as other:

            scopes = {f"a{n}", f"b{n}"}

            def add(client: Memory, scope: str, minute: int, with_id: bool, batched: bool,
                    at: Any = None) -> None:
                i = next(texts)
                msg = {"scope": f"{scope}{n}" if at is None else scope, "role": "user" if i % 2 == 0 else "assistant",
                       "text": f"m{i} said at minute {minute}",
                       "speaker": (None, "ann", "bob")[i % 3],
                       "at": BASE + timedelta(minutes=minute) if at is None else at}
                if with_id:
                    msg["id"] = f"id{n}.{i}"
                    sent.append(msg)
                if batched:
                    client.add_messages([msg])
                else:
                    client.add_message(**msg)

            def forget(client: Memory, k: int, session: int | None = None) -> None:
                turns = [t for s in client.sessions(limit=10_000)
                         if s.scope in scopes and session in (None, s.id)
                         for t in client.store.session_items(s.id, kind="turn")]
                if turns:
                    client.forget_item(turns[k % len(turns)].id)

            def meddle(texts: list[str]) -> None:
                """A session whose turns are being embedded (one indexed before, if any): a
                late message joins it (at its first message's time, plus ``late_minute``
                seconds) and one of its turns is forgotten, so its message count is what
                the indexer read."""
                ms = [m for s in other.sessions(limit=10_000) if s.scope in scopes
                      for m in other.messages(s.id) if m.text in texts]
                if not ms:
                    return
                m = max(ms, key=lambda m: len(other.store.session_items(m.session_id,
                                                                        kind="turn")))
                first = other.messages(m.session_id)[0]
                add(other, m.scope, 0, False, False,
                    at=first.at + timedelta(seconds=late_minute % 120))
                forget(other, pick, m.session_id)

            for op in steps:
                if op[0] == "add":
                    add(mem, *op[1:])
                elif op[0] == "close":
                    mem.close_session(f"{op[1]}{n}")
                elif op[0] == "index":
                    if op[1]:  # meanwhile, another client: a late message and a forget
                        meddler.actions = [meddle]
                    mem.index(now=BASE + timedelta(days=2))
                    meddler.actions = []
                elif op[0] == "forget":
                    forget(mem, op[1])
                elif op[0] == "late":  # into a closed session, at its first message's time
                    closed = sorted(s.id for s in mem.sessions(limit=10_000)
                                    if s.scope in scopes and s.status != "open")
                    if closed:
                        first = mem.messages(closed[op[1] % len(closed)])[0]
                        add(mem, first.scope, 0, op[1] % 3 == 0, op[1] % 2 == 0,
                            at=first.at + timedelta(seconds=op[1] % 90))
                        if op[2]:  # and an index run that the other client meddles with
                            meddler.actions = [meddle]
                            mem.index(now=BASE + timedelta(days=2))
                            meddler.actions = []
                            # a session whose messages changed under the indexer is indexed
                            # by the next pass, from what is stored then
                            mem.index(now=BASE + timedelta(days=2))
                            _all_turned(mem, scopes)
                elif op[0] == "resend" and sent:
                    again = dict(sent[op[1] % len(sent)])
                    stored = mem.store.message_by_ext_id(again["scope"], again["id"])
                    mem.add_message(**again)
                    now = mem.store.message_by_ext_id(again["scope"], again["id"])
                    if stored is not None:  # still there (not erased): stored once
                        assert now is not None and now.id == stored.id
                _listing(mem, scopes)
            mem.index(now=BASE + timedelta(days=2))
            listed = _listing(mem, scopes)
            _all_turned(mem, scopes)
            ran.append((len(steps), sum(len(msgs) for _, msgs in listed)))

    ran: list[tuple[int, int]] = []
    run()
    assert len(ran) >= 8 and sum(n for _, n in ran) > 0, ran


def test_a_late_message_and_a_forgotten_turn_while_the_indexer_embeds(db_url: str) -> None:
    """The indexer read a session (4 messages, a late one's turn to make) and embeds it;
    meanwhile another client forgets the session's first turn (the rest numbered again) and
    delivers another late message: the count is what the indexer read, the messages are
    not. It wrote the first late message's turn with its old number and made none for the
    second (the session marked indexed)."""
    meddler = _Meddler()
    with _open(db_url, meddler) as mem, _open(db_url, HashingEmbedder(dim=256)) as other:
        for i in range(3):
            mem.add_message("chat", "user", f"m{i} at {i * 2}", at=BASE + timedelta(minutes=2 * i))
        mem.close_session("chat")
        mem.index(now=BASE + timedelta(days=2))
        [sid] = [s.id for s in mem.sessions("chat")]
        assert mem.add_message("chat", "user", "m late at 3",
                               at=BASE + timedelta(minutes=3)).seq == 3

        def meddle(_: str) -> None:
            [first] = [t for t in other.store.session_items(sid, kind="turn") if t.seq == 1]
            other.forget_item(first.id)
            other.add_message("chat", "user", "m later at 1", at=BASE + timedelta(minutes=1))

        meddler.actions = [meddle]
        mem.index(now=BASE + timedelta(days=2))
        assert not meddler.actions
        mem.index(now=BASE + timedelta(days=2))
        msgs = mem.messages(sid)
        assert [m.text for m in msgs] == ["m later at 1", "m1 at 2", "m late at 3", "m2 at 4"]
        turns = {t.message_id: (t.seq, t.text) for t in mem.store.session_items(sid, kind="turn")}
        assert turns == {m.id: (m.seq, m.text) for m in msgs}
