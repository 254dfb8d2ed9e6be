"""SQLite and PostgreSQL give the same answers to the same history (hypothesis).

Any sequence of adds (one by one and in batches, times out of order, two scopes), explicit
closes, index runs, facts told, sessions erased and facts forgotten leaves the two
backends with the same sessions (ids included), messages, what ``sessions show`` prints of
each (summary, facts, entities, relations, observations), facts with their confidence and
history, forgotten facts, ``memlane export``'s lines and ``stats``.

Session 20: the first run of this property found SQLite giving an erased session's id and
a forgotten fact's id to the next one (PostgreSQL's sequences never go back), which cost
the new session its participants and gave the new fact the forgotten one's events
(``tests/test_ids_never_reused.py``)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("psycopg")

from memlane.config import load_config  # noqa: E402
from memlane.errors import MemlaneError  # noqa: E402
from memlane.memory import Memory  # noqa: E402
from memlane.serve.cli_export import export_lines  # noqa: E402
from memlane.testing import HashingEmbedder  # noqa: E402

T0 = datetime(2024, 1, 1, tzinfo=UTC)
TEXTS = ["I live in Lisbon", "I moved to Porto", "My sister Ana lives in Faro",
         "We decided to use Postgres for billing because reporting is relational.", "Agreed.",
         "I'm vegetarian", "Sure.", "ok", "I work at Acme", "Should I buy the red bike?",
         "Yes, buy the red bike.", "My dog Rex is 3 years old", "I started running last week"]
_names = itertools.count(1)

minutes = st.sampled_from([1, 5, 40, -10, -100, 600])
message = st.tuples(st.sampled_from("ab"), st.sampled_from(["user", "assistant"]),
                    st.sampled_from(TEXTS), minutes)
ops = st.lists(st.one_of(
    st.tuples(st.just("add"), message),
    st.tuples(st.just("batch"), st.lists(message, min_size=1, max_size=4)),
    st.tuples(st.just("close"), st.sampled_from("ab")),
    st.tuples(st.just("index"), st.sampled_from([0, 120])),
    st.tuples(st.just("fact"), st.tuples(st.sampled_from(["Lisbon", "Porto", "Faro"]),
                                         st.sampled_from("ab"), st.integers(-500, 500))),
    st.tuples(st.just("forget_session"), st.integers(1, 6)),
    st.tuples(st.just("forget_fact"), st.integers(1, 6)),
), min_size=1, max_size=20)


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


def _run(mem: Memory, history: list[tuple[str, Any]]) -> list[Any]:
    """Play ``history``; what each step answered (an error by its type and text)."""
    t = T0
    out: list[Any] = []
    for kind, arg in history:
        try:
            if kind in ("add", "batch"):
                batch = []
                for scope, role, text, step in [arg] if kind == "add" else arg:
                    t += timedelta(minutes=step)
                    batch.append({"scope": scope, "role": role, "text": text, "at": t})
                got = mem.add_messages(batch)
                out.append([(m.session_id, m.seq) for m in got])  # message ids: below
            elif kind == "close":
                s = mem.close_session(arg)
                out.append(s and s.id)
            elif kind == "index":
                r = mem.index(now=t + timedelta(minutes=arg))
                out.append((r.sessions_closed, r.sessions_indexed, r.sessions_summarized))
            elif kind == "fact":
                city, scope, shift = arg
                f = mem.add_fact("user", "city", city, scope=scope, at=t + timedelta(minutes=shift))
                out.append(dataclasses.astuple(f))
            elif kind == "forget_session":
                # not the change records' count: SQLite logs a late message's requeue of an
                # indexed session as a record of its own (``session.updated``, by the trigger),
                # where PostgreSQL writes the message's record alone (its reader fills in the
                # session's current document): one record more to blank on SQLite (session 27,
                # seed 308227553883673027990608339731852573346; the same stream state after)
                counts = mem.forget_session(arg).counts
                out.append({k: v for k, v in counts.items() if k != "changes"})
            else:
                mem.forget_fact(arg)
                out.append("forgotten")
        except MemlaneError as e:
            out.append((type(e).__name__, str(e)))
    return out


def _state(mem: Memory) -> dict[str, Any]:
    now = T0 + timedelta(days=30)
    state: dict[str, Any] = {"sessions": [dataclasses.asdict(s) for s in mem.sessions(limit=1000)]}
    for s in mem.sessions(limit=1000):
        # a message's own id is internal (its id for clients is ext_id); SQLite may give a
        # deleted newest message's id again, which nothing keeps
        state[f"session {s.id}"] = ([{**dataclasses.asdict(m), "id": None}
                                     for m in mem.messages(s.id)], mem.session_intelligence(s.id))
    for scope in "ab":
        state[f"facts {scope}"] = [dataclasses.asdict(f) for f in
                                   mem.facts(scope, include_superseded=True, now=now)]
        state[f"history {scope}"] = mem.fact_history("user", "city", scope, now=now)
        state[f"forgotten {scope}"] = [  # a forgotten mark is dated by the clock
            {k: v for k, v in e.items() if not (k == "at" and e["kind"] == "forgotten")}
            for e in mem.forgotten_facts("user", "city", scope)]
    state["export"] = list(export_lines(mem))
    stats = mem.stats()
    for key in ("db", "backend", "migrations", "summary_ms_avg"):
        stats.pop(key, None)
    stats["counters"] = {k: v for k, v in stats["counters"].items() if not k.endswith("_ms_total")}
    state["stats"] = stats
    return json.loads(json.dumps(state, default=str, sort_keys=True))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(history=ops)
def test_sqlite_and_postgres_answer_alike(postgres_server_url, tmp_path_factory, history):
    from memlane.testing.postgres import create_database, drop_database

    name = f"parity_{os.getpid()}_{next(_names)}"
    url = create_database(postgres_server_url, name)
    folder = tmp_path_factory.mktemp("parity")
    try:
        with _memory(str(folder / "m.db")) as lite, _memory(url) as pg:
            assert _run(pg, history) == _run(lite, history)
            a, b = _state(lite), _state(pg)
            for key in a.keys() | b.keys():
                assert a.get(key) == b.get(key), key
    finally:
        drop_database(postgres_server_url, name)
