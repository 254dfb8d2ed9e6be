"""Memory.add_messages on both backends: one transaction, order kept, all or none; on
PostgreSQL a scope's writer lock is taken once per batch, not once per message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.config import load_config
from memlane.errors import ValidationError
from memlane.memory import Memory

T0 = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        pytest.importorskip("psycopg")
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "batch.db")


def _memory(db: str, tracer=None) -> Memory:
    config = load_config(environ={}, overrides={"db": db, "embedding": {"backend": "hashing"},
                                                "indexing": {"enabled": False}})
    return Memory(config=config, tracer=tracer)


def _batch(n: int) -> list[dict]:
    return [{"scope": f"s{i % 2}", "role": "user" if i % 2 == 0 else "assistant",
             "text": f"message {i}", "at": T0 + timedelta(seconds=i)} for i in range(n)]


def test_a_batch_is_stored_in_order_across_scopes(db_url):
    mem = _memory(db_url)
    stored = mem.add_messages(_batch(30))
    assert [m.text for m in stored] == [f"message {i}" for i in range(30)]
    for scope, first in (("s0", 0), ("s1", 1)):
        (session,) = mem.sessions(scope=scope)
        texts = [m.text for m in mem.messages(session.id)]
        assert texts == [f"message {i}" for i in range(first, 30, 2)]
    mem.close()


def test_a_bad_message_stores_none_of_the_batch(db_url):
    mem = _memory(db_url)
    batch = _batch(10)
    batch[6]["text"] = ""
    with pytest.raises(ValidationError) as err:
        mem.add_messages(batch)
    assert err.value.field.startswith("messages.6")
    assert mem.sessions(scope="s0") == [] and mem.sessions(scope="s1") == []
    mem.close()


def test_postgres_batch_is_one_round_trip_a_message(pg_url, round_trips):
    mem = _memory(pg_url)
    mem.add_messages(_batch(10))  # warm: migrations, connection, psycopg's prepared statement
    with round_trips(mem.store) as trips:
        mem.add_messages(_batch(40))
    assert trips.count == 1 + 40 + 1  # BEGIN, one statement a message, COMMIT
    with round_trips(mem.store) as trips:
        mem.add_message("s0", "user", "alone", T0 + timedelta(hours=1))
    assert trips.count == 1  # alone: its own transaction, no BEGIN or COMMIT
    assert sum(len(mem.messages(x.id)) for x in mem.sessions(scope="s0")) == 5 + 20 + 1
    mem.close()
