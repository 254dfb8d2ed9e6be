"""A session lists its messages in time order, whatever order they arrived in (session 23).

Before, a message's ``seq`` was its arrival order in its session: a late message (session
22) joining last week's session, or a message a little earlier than the open session's last
one, was listed after turns that happened later, in ``memlane sessions show``, the export,
the MCP and HTTP message pages and the inspector (which all list by ``seq``), and its turn
item carried that number. Now ``seq`` is the message's turn in time order: a message takes
its place after every message of its session no later than it (messages of one time keep
their arrival order), later ones moving down by one with their turns. Both stores (SQLite:
``SessionsMixin._place``, migration 0013 for the sessions written before; PostgreSQL:
``memlane_place``, migration 0016), single messages and batches.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.memory import Memory
from memlane.serve.cli import cli
from memlane.testing import memory

NOW = datetime(2024, 6, 10, 12, 0, tzinfo=UTC)
WEEK_AGO = NOW - timedelta(days=7)


def _listed(mem: Memory, scope: str) -> list[str]:
    """Every message text of the scope as the sessions list them: sessions by start, each
    session's messages by ``seq``."""
    out = []
    for s in sorted(mem.sessions(scope, limit=1000), key=lambda s: (s.started_at, s.id)):
        msgs = mem.messages(s.id)
        assert [m.seq for m in msgs] == list(range(1, len(msgs) + 1))
        out += [m.text for m in msgs]
    return out


def test_a_message_a_little_earlier_than_the_open_sessions_last_takes_its_place(db_url: str) -> None:
    with memory(db_url) as mem:
        mem.add_message("chat", "user", "at noon", at=NOW)
        mem.add_message("chat", "assistant", "at five past", at=NOW + timedelta(minutes=5))
        mid = mem.add_message("chat", "user", "at three past", at=NOW + timedelta(minutes=3))
        assert mid.seq == 2
        same = mem.add_message("chat", "user", "also at three past", at=NOW + timedelta(minutes=3))
        assert same.seq == 3  # a message of one time comes after those that arrived before it
        msgs = mem.messages(mid.session_id)
        assert [(m.seq, m.text) for m in msgs] == [
            (1, "at noon"), (2, "at three past"), (3, "also at three past"), (4, "at five past")]


def test_a_late_message_joins_last_weeks_session_in_its_place_with_its_turn(db_url: str) -> None:
    """The session is indexed: the late message's turn goes in its place and the later turns
    move down with their messages; `sessions show` and the export read in time order."""
    with memory(db_url) as mem:
        sid = 0
        for i, text in enumerate(["I moved to Porto", "How is it?", "I love the river walks",
                                  "Sounds lovely."]):
            sid = mem.add_message("chat", "user" if i % 2 == 0 else "assistant", text,
                                  at=WEEK_AGO + timedelta(minutes=2 * i)).session_id
        mem.close_session("chat")
        mem.index(now=WEEK_AGO + timedelta(hours=1))
        mem.add_message("chat", "user", "Good morning", at=NOW)
        late = mem.add_messages([{"scope": "chat", "role": "user", "text": "with my dog Biscuit",
                                  "at": WEEK_AGO + timedelta(minutes=1)}])[0]
        assert (late.session_id, late.seq) == (sid, 2)
        mem.index(now=NOW + timedelta(minutes=1))
        texts = [m.text for m in mem.messages(sid)]
        assert texts == ["I moved to Porto", "with my dog Biscuit", "How is it?",
                         "I love the river walks", "Sounds lovely."]
        seq_of = {m.id: m.seq for m in mem.messages(sid)}
        turns = mem.store.session_items(sid, kind="turn")
        assert len(turns) == 5 and all(t.seq == seq_of[t.message_id] for t in turns)
        shown = CliRunner().invoke(cli, ["--db", db_url, "sessions", "show", str(sid)])
        assert shown.exit_code == 0, shown.output
        where = [shown.output.index(t) for t in texts]
        assert where == sorted(where), shown.output
        exported = CliRunner().invoke(cli, ["--db", db_url, "export", "--scope", "chat"])
        assert exported.exit_code == 0, exported.output
        lines = [json.loads(x)["text"] for x in exported.output.splitlines() if x.strip()]
        assert lines[:5] == texts


minutes = st.lists(st.integers(0, 60 * 24 * 3), min_size=1, max_size=20, unique=True)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_any_arrival_order_lists_the_messages_as_in_order_arrival(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    """Distinct times delivered in any order (single messages and batches mixed) are listed,
    session after session, exactly as the same messages delivered in time order."""
    url = str(tmp_path / "p.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    counter = iter(range(10**6))
    with memory(url) as mem, memory(str(tmp_path / "ref.db")) as ref:

        @settings(max_examples=60 if backend == "sqlite" else 30, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(times=minutes, data=st.data())
        def run(times: list[int], data: st.DataObject) -> None:
            scope = f"s{next(counter)}"
            order = data.draw(st.permutations(times))
            batched = data.draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
            msgs = [{"scope": scope, "role": "user", "text": f"m{t}",
                     "at": WEEK_AGO + timedelta(minutes=t)} for t in order]
            batch: list[dict[str, Any]] = []
            for m, in_batch in zip(msgs, batched, strict=True):
                if in_batch:
                    batch.append(m)
                    continue
                if batch:
                    mem.add_messages(batch)
                    batch = []
                mem.add_message(**m)
            if batch:
                mem.add_messages(batch)
            for t in sorted(times):
                ref.add_message(scope, "user", f"m{t}", at=WEEK_AGO + timedelta(minutes=t))
            expected = [f"m{t}" for t in sorted(times)]
            assert _listed(ref, scope) == expected
            assert _listed(mem, scope) == expected

        run()


@pytest.mark.parametrize("backend, last", [("sqlite", "0012_id_floor_messages_packs"),
                                           ("postgres", "0015_late_messages")])
def test_a_session_stored_in_arrival_order_is_put_in_time_order_by_the_migration(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str, last: str) -> None:
    """A session the previous schema numbered by arrival (a late message listed last, its turn
    too) is renumbered by time when the database migrates; the other rows are as they were."""
    from tests.store.test_upgrades import _apply_until, _connect, _migrate

    if backend == "sqlite":
        url = str(tmp_path / "old.db")
    else:
        url = request.getfixturevalue("pg_url")
    _apply_until(backend, url, last, filler=0)  # sessions 1 and 2, in time order
    rows = [(1, "first", 0.0), (2, "third", 20.0), (3, "second, delivered late", 10.0)]
    con, q = _connect(backend, url)
    con.execute("INSERT INTO sessions (id, scope, status, started_at, ended_at, message_count,"
                " created_at) VALUES (3, 'carol', 'closed', 0, 20, 3, 0)")
    for seq, text, at in rows:
        mid = con.execute(f"INSERT INTO messages (session_id, scope, seq, role, text, at) VALUES"
                          f" (3, 'carol', {q}, 'user', {q}, {q}) RETURNING id", (seq, text, at)).fetchone()[0]
        con.execute("INSERT INTO items (kind, text, at, scope, session_id, message_id, seq,"
                    f" created_at, updated_at) VALUES ('turn', {q}, {q}, 'carol', 3, {q}, {q}, 0, 0)",
                    (text, at, mid, seq))
    before = con.execute("SELECT seq, text FROM messages WHERE session_id <> 3 ORDER BY id").fetchall()
    con.close()
    _migrate(url)
    with memory(url) as mem:
        assert [(m.seq, m.text) for m in mem.messages(3)] == [
            (1, "first"), (2, "second, delivered late"), (3, "third")]
        turns = {t.text: t.seq for t in mem.store.session_items(3, kind="turn")}
        assert turns == {"first": 1, "second, delivered late": 2, "third": 3}
        after = [(m.seq, m.text) for sid in (1, 2) for m in mem.messages(sid)]
        assert after == [tuple(r) for r in before]


class _LateDuringIndex:
    """An embedder that, when the indexer embeds last week's turns, has another client deliver
    a late message between two of them (after the indexer read the session's messages)."""

    def __init__(self, url: str) -> None:
        from memlane.testing import HashingEmbedder

        self.inner = HashingEmbedder(dim=256, char_trigrams=True)
        self.name, self.dim = self.inner.name, self.inner.dim
        self.url, self.armed = url, False

    def embed_batch(self, texts: Any) -> Any:
        if self.armed and "I love the river walks" in texts:
            self.armed = False
            with memory(self.url) as other:
                other.add_message("chat", "user", "with my dog Biscuit",
                                  at=WEEK_AGO + timedelta(minutes=1))
        return self.inner.embed_batch(texts)


def test_turns_read_before_a_late_message_moved_them_are_not_written_with_old_numbers(
        db_url: str) -> None:
    from memlane.config import load_config

    embedder = _LateDuringIndex(db_url)
    with Memory(config=load_config(environ={}, overrides={"db": db_url}), embedder=embedder) as mem:
        for i, text in enumerate(["I moved to Porto", "How is it?", "I love the river walks"]):
            sid = mem.add_message("chat", "user", text, at=WEEK_AGO + timedelta(minutes=2 * i)).session_id
        mem.close_session("chat")
        mem.add_message("chat", "user", "Good morning", at=NOW)
        embedder.armed = True
        mem.index(now=NOW)
        assert not embedder.armed and not mem.session(sid).indexed
        mem.index(now=NOW)
        seq_of = {m.id: m.seq for m in mem.messages(sid)}
        turns = mem.store.session_items(sid, kind="turn")
        assert sorted(t.seq for t in turns) == [1, 2, 3, 4]
        assert all(t.seq == seq_of[t.message_id] for t in turns)
