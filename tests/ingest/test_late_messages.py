"""Late and out-of-order messages land in the session their time belongs to (session 22).

Before, a message earlier than its scope's open session joined that session however much
earlier it was: a message of last week delivered now stretched today's session back a
week and was summarized with today's conversation. The rule (docs/hardening.md, "Session
22"): a message joins the open session when it is no earlier than its start less the gap;
an earlier one (or, with no session open, one earlier than the end of the scope's newest
session) is *late* and joins the closed session whose span widened by the gap holds it,
which is indexed and summarized again with it, or else a session of its own, closed at
once (reason ``late``). Both stores (PostgreSQL: migration 0015), single messages and
batches; a worker that read a session before a late message joined it does not mark it
done.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.offline import OfflineIntelligence
from memlane.memory import Memory
from memlane.config import load_config
from memlane.testing import HashingEmbedder, memory
from memlane.types import Message

NOW = datetime(2024, 6, 10, 12, 0, tzinfo=UTC)
WEEK_AGO = NOW - timedelta(days=7)
GAP = 30 * 60.0

LAST_WEEK = [
    ("user", "I moved to Porto last month"),
    ("assistant", "Nice, how do you like it?"),
    ("user", "I love the river walks"),
    ("assistant", "Sounds lovely."),
]


def _last_week(mem: Memory, scope: str = "chat") -> int:
    """Last week's conversation: added, closed, indexed and summarized; its session id."""
    ids = [mem.add_message(scope, role, text, at=WEEK_AGO + timedelta(minutes=i)).session_id
           for i, (role, text) in enumerate(LAST_WEEK)]
    mem.close_session(scope)
    mem.index(now=WEEK_AGO + timedelta(hours=1))
    assert mem.session(ids[0]).status == "summarized"
    return ids[0]


def _today(mem: Memory, scope: str = "chat") -> int:
    first = mem.add_message(scope, "user", "Good morning", at=NOW)
    mem.add_message(scope, "assistant", "Morning! What's up?", at=NOW + timedelta(minutes=1))
    return first.session_id


def test_a_message_of_last_week_lands_in_last_weeks_session_not_todays(db_url: str) -> None:
    with memory(db_url) as mem:
        old = _last_week(mem)
        today = _today(mem)
        late = mem.add_message("chat", "user", "Also I adopted a dog named Biscuit",
                               at=WEEK_AGO + timedelta(minutes=6))
        assert late.session_id == old and late.seq == 5
        s_today = mem.session(today)
        assert s_today.started_at == NOW and s_today.message_count == 2  # not stretched back
        s_old = mem.session(old)
        # queued again: its new turn indexed, its intelligence written again with the message
        assert (s_old.status, s_old.indexed, s_old.summarized) == ("closed", False, False)
        assert s_old.ended_at == WEEK_AGO + timedelta(minutes=6) and s_old.message_count == 5
        mem.index(now=NOW + timedelta(minutes=2))
        s_old = mem.session(old)
        assert (s_old.status, s_old.indexed, s_old.summarized) == ("summarized", True, True)
        turns = mem.store.session_items(old, kind="turn")
        assert sorted(t.seq for t in turns) == [1, 2, 3, 4, 5]  # each message one turn
        assert len(mem.store.session_items(old, kind="summary")) == 1  # replaced, not added
        assert "Biscuit" in {f.object.split()[-1] for f in mem.facts(scope="chat")}
        assert mem.stats()["counters"]["messages_late"] == 1


def test_a_late_message_no_session_holds_gets_a_session_of_its_own(db_url: str) -> None:
    with memory(db_url) as mem:
        _last_week(mem)
        today = _today(mem)
        late = mem.add_message("chat", "user", "from a month ago", at=NOW - timedelta(days=30))
        assert late.session_id != today and late.seq == 1
        own = mem.session(late.session_id)
        assert (own.status, own.closed_reason) == ("closed", "late")
        assert own.started_at == own.ended_at == NOW - timedelta(days=30)
        assert mem.session(today).status == "open"
        # the rest of that old conversation, delivered late too, joins it
        more = mem.add_message("chat", "assistant", "noted", at=NOW - timedelta(days=30, minutes=-2))
        assert (more.session_id, more.seq) == (late.session_id, 2)
        # with no session open, a message before the newest session's end is late as well
        mem.close_session("chat")
        again = mem.add_message("chat", "user", "the river", at=WEEK_AGO + timedelta(minutes=3, seconds=30))
        assert again.session_id == _session_of(mem, WEEK_AGO)
        # ...and one after it opens a session as before
        after = mem.add_message("chat", "user", "later today", at=NOW + timedelta(hours=2))
        assert mem.session(after.session_id).status == "open"


def _session_of(mem: Memory, at: datetime) -> int:
    return next(s.id for s in mem.sessions("chat") if s.started_at == at)


def test_a_batch_applies_the_same_rule(db_url: str) -> None:
    with memory(db_url) as mem:
        old = _last_week(mem)
        today = _today(mem)
        got = mem.add_messages([
            {"scope": "chat", "role": "user", "text": "and one more thing", "at": NOW + timedelta(minutes=2)},
            {"scope": "chat", "role": "user", "text": "my dog Biscuit", "at": WEEK_AGO + timedelta(minutes=5)},
            {"scope": "chat", "role": "user", "text": "way back", "at": NOW - timedelta(days=60)},
            {"scope": "chat", "role": "assistant", "text": "ok", "at": NOW + timedelta(minutes=3)},
        ])
        assert [(m.session_id, m.seq) for m in got][:2] == [(today, 3), (old, 5)]
        assert got[2].session_id not in (today, old) and got[2].seq == 1
        assert (got[3].session_id, got[3].seq) == (today, 4)
        assert mem.session(today).started_at == NOW
        assert mem.session(today).message_count == 4
        assert mem.session(old).message_count == 5 and not mem.session(old).indexed


class _LateDuringSummary:
    """An intelligence backend that, the first time it summarizes, has another client deliver a
    late message to the session it is reading (as a service would, meanwhile)."""

    name = "offline"

    def __init__(self, url: str) -> None:
        self.url, self.done, self.inner = url, False, OfflineIntelligence()

    def summarize(self, scope: str, messages: Sequence[Message]) -> Any:
        if not self.done:
            self.done = True
            with memory(self.url) as other:  # another connection, another client
                other.add_message(scope, "user", "I adopted a dog named Biscuit",
                                  at=messages[0].at + timedelta(minutes=5))
        return self.inner.summarize(scope, messages)


def test_a_late_message_while_the_worker_summarizes_is_not_left_out(db_url: str) -> None:
    mem = Memory(config=load_config(environ={}, overrides={"db": db_url}),
                 embedder=HashingEmbedder(dim=256, char_trigrams=True),
                 intelligence=_LateDuringSummary(db_url))
    with mem:
        ids = {mem.add_message("chat", role, text, at=WEEK_AGO + timedelta(minutes=i)).session_id
               for i, (role, text) in enumerate(LAST_WEEK)}
        mem.close_session("chat")
        _today(mem)
        mem.index(now=NOW)  # summarizes with four messages while the fifth arrives
        (sid,) = ids
        s = mem.session(sid)
        assert s.message_count == 5
        assert not s.summarized and not s.indexed  # queued again, not marked done
        mem.index(now=NOW)
        s = mem.session(sid)
        assert s.summarized and s.status == "summarized"
        assert sorted(t.seq for t in mem.store.session_items(sid, kind="turn")) == [1, 2, 3, 4, 5]
        assert "Biscuit" in " ".join(f.object for f in mem.facts(scope="chat"))


class _LateDuringIndex:
    """An embedder that, when the indexer embeds a session's turns, has another client deliver a
    late message to that session (between the indexer's read and its claim)."""

    def __init__(self, url: str) -> None:
        self.inner = HashingEmbedder(dim=256, char_trigrams=True)
        self.name, self.dim = self.inner.name, self.inner.dim
        self.url, self.armed = url, False

    def embed_batch(self, texts: Sequence[str]) -> Any:
        if self.armed and "I love the river walks" in texts:
            self.armed = False
            with memory(self.url) as other:
                other.add_message("chat", "user", "I adopted a dog named Biscuit",
                                  at=WEEK_AGO + timedelta(minutes=5))
        return self.inner.embed_batch(texts)


def test_a_late_message_while_the_indexer_embeds_gets_its_turn(db_url: str) -> None:
    embedder = _LateDuringIndex(db_url)
    mem = Memory(config=load_config(environ={}, overrides={"db": db_url}), embedder=embedder)
    with mem:
        sid = {mem.add_message("chat", role, text, at=WEEK_AGO + timedelta(minutes=i)).session_id
               for i, (role, text) in enumerate(LAST_WEEK)}.pop()
        mem.close_session("chat")
        _today(mem)
        embedder.armed = True
        mem.index(now=NOW)
        assert not embedder.armed
        s = mem.session(sid)
        assert s.message_count == 5 and not s.indexed and not s.summarized
        mem.index(now=NOW)
        assert sorted(t.seq for t in mem.store.session_items(sid, kind="turn")) == [1, 2, 3, 4, 5]
        assert mem.session(sid).summarized


# -- the rule as a property: any arrival order, both stores, single and batched --------------

arrivals = st.lists(
    st.tuples(st.integers(0, 60 * 24 * 20), st.booleans(), st.sampled_from(["add", "batch", "close"])),
    min_size=1, max_size=25)


def _deliver(mem: Memory, scope: str, plan: list[tuple[int, bool, str]]) -> None:
    batch: list[dict[str, Any]] = []
    for i, (minute, user, how) in enumerate(plan):
        msg = {"scope": scope, "role": "user" if user else "assistant", "text": f"m{i}",
               "at": NOW - timedelta(minutes=minute), "id": f"m{i}"}
        if how == "batch":
            batch.append(msg)
            continue
        if batch:
            mem.add_messages(batch)
            batch = []
        mem.add_message(**msg)
        if how == "close":
            mem.close_session(scope)
    if batch:
        mem.add_messages(batch)


def _partition(mem: Memory, scope: str) -> list[tuple[str, ...]]:
    """Each session's messages (by id), sessions by their first message."""
    out = []
    for s in mem.sessions(scope, limit=1000):
        msgs = mem.messages(s.id)
        assert s.message_count == len(msgs) and [m.seq for m in msgs] == list(range(1, len(msgs) + 1))
        assert s.started_at == min(m.at for m in msgs) and s.ended_at == max(m.at for m in msgs)
        times = sorted(m.at.timestamp() for m in msgs)
        # the rule's invariant: no session holds two messages more than the gap apart
        # with nothing between them (a week-old message never stretches today's session)
        assert all(b - a <= GAP for a, b in zip(times, times[1:])), (s.id, times)
        out.append(tuple(sorted(m.ext_id or "" for m in msgs)))
    assert sum(len(p) for p in out) == len({m for p in out for m in p})
    assert sum(1 for s in mem.sessions(scope, limit=1000) if s.status == "open") <= 1
    return sorted(out)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_any_arrival_order_keeps_every_session_within_the_gap(request: pytest.FixtureRequest,
                                                               tmp_path: Any, backend: str) -> None:
    """Both stores cut the same arrivals into the same sessions, and no session holds a
    stretch longer than the gap without a message."""
    url = str(tmp_path / "p.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    sqlite_url = str(tmp_path / "ref.db")
    counter = iter(range(10**6))
    with memory(url) as mem, memory(sqlite_url) as ref:

        @settings(max_examples=60 if backend == "sqlite" else 30, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(plan=arrivals)
        def run(plan: list[tuple[int, bool, str]]) -> None:
            scope = f"s{next(counter)}"
            _deliver(mem, scope, plan)
            got = _partition(mem, scope)
            assert sum(map(len, got)) == len(plan)
            if backend == "postgres":
                _deliver(ref, scope, plan)
                assert got == _partition(ref, scope)

        run()


def test_messages_of_a_day_in_random_order_make_the_sessions_of_that_day(db_url: str) -> None:
    """A client syncing after a week offline sends a day of three conversations shuffled: the
    sessions come out as the day's conversations were, whatever the order."""
    rng = random.Random(7)
    day = [WEEK_AGO + timedelta(hours=h, minutes=m) for h in (9, 13, 20) for m in range(0, 20, 4)]
    shuffled = day[:]
    rng.shuffle(shuffled)
    with memory(db_url) as mem:
        _today(mem)
        for i, at in enumerate(shuffled):
            mem.add_message("chat", "user", f"turn {i}", at=at)
        spans = sorted((s.started_at, s.ended_at, s.message_count) for s in mem.sessions("chat")
                       if s.started_at < NOW)
        assert spans == [(day[k * 5], day[k * 5 + 4], 5) for k in range(3)]


def test_concurrent_late_and_current_messages_on_one_scope(db_url: str) -> None:
    """Two clients, one delivering today's conversation and one last week's backlog, at once:
    every message stored once, today's session never stretched back."""
    with memory(db_url) as mem:
        _last_week(mem)
        errors: list[BaseException] = []

        def deliver(kind: str) -> None:
            try:
                with memory(db_url) as m:
                    for i in range(20):
                        at = (NOW + timedelta(seconds=i) if kind == "now"
                              else WEEK_AGO + timedelta(seconds=9 * i))  # inside its span
                        m.add_message("chat", "user", f"{kind} {i}", at=at)
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=deliver, args=(k,)) for k in ("now", "late")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        sessions = {s.started_at: s for s in mem.sessions("chat")}
        assert sessions[NOW].message_count == 20
        assert sessions[WEEK_AGO].message_count == 24


def test_a_postgres_database_of_schema_14_upgrades_to_the_rule(pg_url: str) -> None:
    """A database made by the previous schema (0014), holding an open session whose start a
    late message had already stretched back, migrates to 0015 with every row as it was; then
    late messages follow the new rule, single and batched."""
    pytest.importorskip("psycopg")
    from tests.store.test_pg_fts_text import _apply_until

    _apply_until(pg_url, "0014_fts_fold")
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        t = NOW.timestamp()
        for at, text in ((t, "today"), (t - 7 * 86400, "last week")):
            conn.execute("SELECT memlane_add_message('chat', 'user', %s, %s, %s, NULL, NULL, NULL,"
                         " NULL, 0, %s)", (text, at, GAP, t))
        before = conn.execute("SELECT id, status, started_at, message_count FROM sessions").fetchall()
    assert [(r[1], r[2], r[3]) for r in before] == [("open", t - 7 * 86400, 2)]  # the old rule
    with memory(pg_url) as mem:  # migrates to head
        assert [(s.id, s.status, s.started_at.timestamp(), s.message_count)
                for s in mem.sessions("chat")] == before
        late = mem.add_message("chat", "user", "a month ago", at=NOW - timedelta(days=30))
        assert late.session_id != before[0][0]
        assert mem.session(late.session_id).closed_reason == "late"
        (m,) = mem.add_messages([{"scope": "chat", "text": "two months", "at": NOW - timedelta(days=60)}])
        assert m.session_id not in (before[0][0], late.session_id)
        assert mem.session(before[0][0]).message_count == 2

