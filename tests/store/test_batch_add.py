"""Memory.add_messages on both backends: one transaction, order kept, all or none; a batch
stores exactly what the same messages stored one by one would; on PostgreSQL a batch is
one statement."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ConflictError, ValidationError
from memlane.memory import Memory
from memlane.store.contract import NewMessage

T0 = datetime(2024, 1, 1, tzinfo=UTC)


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


def test_a_known_id_stores_none_of_the_batch(db_url):
    mem = _memory(db_url)
    mem.add_message("s0", "user", "first", T0, id="m-1")
    batch = _batch(6)
    batch[4]["id"] = "m-1"  # s0 holds it already
    with pytest.raises(ConflictError) as err:
        mem.add_messages(batch)
    assert err.value.field == "messages.4.id" and "messages[4]" in str(err.value)
    batch = _batch(6)
    batch[1]["id"] = batch[3]["id"] = "twice"  # both s1: the second is refused
    with pytest.raises(ConflictError) as err:
        mem.add_messages(batch)
    assert err.value.field == "messages.3.id"
    assert [m.text for s in mem.sessions(scope="s0") for m in mem.messages(s.id)] == ["first"]
    assert mem.sessions(scope="s1") == []
    mem.close()


def test_a_batch_is_redacted_like_add_message(db_url):
    """Secrets in a batch's text, speaker and id are redacted before they are stored, and
    counted, as ``add_message`` does it."""
    mem = _memory(db_url)
    secret = "sk-abcdefghijklmnopqrstuvwxyz123456"
    (m,) = mem.add_messages([{"scope": "s0", "role": "user", "text": f"my key is {secret}",
                              "speaker": f"bot {secret}", "id": f"id-{secret}", "at": T0}])
    (stored,) = mem.messages(m.session_id)
    for value in (stored.text, stored.speaker, stored.ext_id):
        assert secret not in value and "[REDACTED:api_key" in value
    assert stored.redactions == 3 and mem.store.counters().get("secrets_redacted") == 3
    mem.close()


# -- a batch stores what one-by-one adds store ----------------------------------------------
_prefixes = itertools.count()
_message = st.tuples(
    st.sampled_from(["x", "y"]),                                     # scope
    st.sampled_from(["user", "assistant"]),                          # role
    st.sampled_from([None, "Ann", "Bob"]),                           # speaker
    st.sampled_from([1.0, 30.0, -20.0, 4000.0]),                     # seconds after the last
    st.sampled_from([None, None, "a", "b"]),                         # ext_id
    st.sampled_from([None, "agent-1"]),                              # agent
    st.integers(0, 2),                                               # redactions
)


def _state(store, scopes):
    out = {}
    for scope in scopes:
        sessions = sorted(store.list_sessions(scope=scope, limit=1000), key=lambda s: s.id)
        out[scope[2:]] = [
            (s.status, s.closed_reason, s.message_count, s.started_at, s.ended_at,
             tuple(s.participants), s.agent,
             [(m.seq, m.role, m.speaker, m.text, m.at, m.ext_id, m.redactions)
              for m in store.session_messages(s.id)])
            for s in sessions]
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messages=st.lists(_message, min_size=1, max_size=14))
def test_a_batch_stores_what_adding_one_by_one_stores(db_url, messages):
    """Sessions opened and closed by the gap, seq, time ranges, participants, counters and
    refused ids: the same for ``add_messages`` as for ``add_message`` in a loop."""
    mem = _memory(db_url)
    store = mem.store
    n = next(_prefixes)
    clock, rows = T0.timestamp(), []
    for i, (scope, role, speaker, step, ext_id, agent, red) in enumerate(messages):
        clock += step
        rows.append(NewMessage(scope, role, f"text {i}", clock, speaker, ext_id, agent, None, red))
    one, batch = f"o{n}:", f"b{n}:"
    counters = store.counters()
    singles = [store.add_message(one + r.scope, r.role, r.text, r.at, gap=3600.0,
                                 speaker=r.speaker, ext_id=r.ext_id, agent=r.agent,
                                 project=r.project, redactions=r.redactions) for r in rows]
    after_singles = store.counters()
    got = store.add_messages([r._replace(scope=batch + r.scope) for r in rows], gap=3600.0)
    after_batch = store.counters()
    assert [g is None for g in got] == [s is None for s in singles]
    assert [g[2] for g in got if g] == [s[2] for s in singles if s]  # seq
    scopes = ("x", "y")
    assert _state(store, [one + s for s in scopes]) == _state(store, [batch + s for s in scopes])
    for name in ("sessions_opened", "sessions_closed_gap", "secrets_redacted"):
        assert (after_batch.get(name, 0) - after_singles.get(name, 0)
                == after_singles.get(name, 0) - counters.get(name, 0)), name
    mem.close()


def test_postgres_batch_is_one_statement(pg_url, round_trips):
    mem = _memory(pg_url)
    mem.add_messages(_batch(10))  # warm: migrations, connection, psycopg's prepared statement
    with round_trips(mem.store) as trips:
        mem.add_messages(_batch(40))
    # BEGIN, the locks of its two scopes and their sessions in the one order (docs/store.md,
    # "Session 27: locks and their order"), the batch, COMMIT
    assert trips.count == 1 + 2 + 1 + 1
    with round_trips(mem.store) as trips:
        mem.add_messages([m for m in _batch(40) if m["scope"] == "s0"])
    assert trips.count == 1 + 1 + 1  # one scope: BEGIN, the batch, COMMIT
    with round_trips(mem.store) as trips:
        mem.add_message("s0", "user", "alone", T0 + timedelta(hours=1))
    assert trips.count == 1  # alone: its own transaction, no BEGIN or COMMIT
    assert sum(len(mem.messages(x.id)) for x in mem.sessions(scope="s0")) == 5 + 20 + 20 + 1
    mem.close()
