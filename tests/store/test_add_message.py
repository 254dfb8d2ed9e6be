"""``store.add_message``: the whole of storing a message (lock, gap, session, message,
counters) as one transaction on both backends, and one round trip on PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.config import load_config
from memlane.errors import ConflictError
from memlane.memory import Memory
from memlane.store.sql.sessions import SessionsMixin

GAP = 1800.0


def _add(store, scope, text, at, *, role="user", speaker=None, ext_id=None, redactions=0):
    return store.add_message(scope, role, text, at, gap=GAP, speaker=speaker, ext_id=ext_id,
                             agent="ag", project=None, redactions=redactions)


def test_messages_continue_close_and_open_sessions(store):
    m1, s1, q1 = _add(store, "a", "one", 1000.0, speaker="Ana")
    m2, s2, q2 = _add(store, "a", "two", 1000.0 + GAP, role="assistant")
    assert (s2, q1, q2) == (s1, 1, 2) and m2 > m1
    m3, s3, q3 = _add(store, "a", "three", 1000.0 + 2 * GAP + 1, redactions=2)  # past the gap
    assert s3 != s1 and q3 == 1
    old, new = store.get_session(s1), store.get_session(s3)
    assert (old.status, old.closed_reason, old.message_count) == ("closed", "gap", 2)
    assert old.participants == ("Ana", "assistant") and old.agent == "ag"
    assert old.started_at.timestamp() == 1000.0 and old.ended_at.timestamp() == 1000.0 + GAP
    assert (new.status, new.message_count, new.participants) == ("open", 1, ("user",))
    assert [m.text for m in store.session_messages(s1)] == ["one", "two"]
    assert store.get_message(m3).redactions == 2
    _add(store, "b", "elsewhere", 1000.0)  # another scope has its own session
    counters = store.counters()
    assert counters["sessions_opened"] == 3 and counters["sessions_closed_gap"] == 1
    assert counters["sessions_closed"] == 1 and counters["secrets_redacted"] == 2


def test_a_taken_id_writes_nothing(store):
    got = _add(store, "a", "first", 1000.0, ext_id="m1")
    assert got is not None
    assert _add(store, "a", "again", 1000.0 + 10 * GAP, ext_id="m1") is None  # would close
    assert store.open_session_for("a") == (got[1], 1000.0, 1)  # still open, one message
    assert "sessions_closed" not in store.counters()
    assert _add(store, "b", "same id, other scope", 1000.0, ext_id="m1") is not None


def test_inside_a_transaction_it_rolls_back_with_it(store):
    with pytest.raises(RuntimeError), store.atomic():
        _add(store, "a", "one", 1000.0)
        raise RuntimeError("the caller's transaction fails")
    assert store.open_session_for("a") is None and store.recent_messages("a", 5) == []


def _memory(url: str) -> Memory:
    return Memory(config=load_config(environ={}, overrides={
        "db": url, "embedding": {"backend": "hashing"}, "indexing": {"enabled": False}}))


def test_postgres_add_message_is_one_round_trip(pg_url, round_trips):
    """Counted on the wire (libpq's trace of the store's connection): one round trip
    whether a message continues a session, opens one past the gap, or carries an id;
    the same steps as separate statements (the shared implementation) take five."""
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    mem = _memory(pg_url)
    for i in range(10):  # warm: migrations, connection, psycopg's prepared statement
        mem.add_message("warm", "user", f"warm up {i}", t0 + timedelta(seconds=i))
    for text, at, ext_id in (("next", t0 + timedelta(seconds=5), None),
                             ("after the gap", t0 + timedelta(hours=5), None),
                             ("with an id", t0 + timedelta(hours=5, seconds=1), "m1")):
        with round_trips(mem.store) as trips:
            mem.add_message("a", "user", text, at, id=ext_id)
        assert trips.count == 1, trips.trace
    with round_trips(mem.store) as trips, pytest.raises(ConflictError):
        mem.add_message("a", "user", "a taken id", t0 + timedelta(hours=6), id="m1")
    # the refusal reads the stored message (the same one delivered again is no error)
    assert trips.count == 2
    assert [m.text for m in mem.messages(mem.sessions(scope="a")[0].id)] == ["after the gap", "with an id"]
    for i in range(2):  # the first reads the session's participants once
        with round_trips(mem.store) as trips:
            SessionsMixin.add_message(mem.store, "a", "user", f"as separate statements {i}",  # type: ignore[arg-type]
                                      t0.timestamp() + 5 * 3600 + 2 + i, gap=GAP, speaker=None,
                                      ext_id=None, agent=None, project=None, redactions=0)
    assert trips.count == 5  # BEGIN, lock, open session, insert, COMMIT
    mem.close()
