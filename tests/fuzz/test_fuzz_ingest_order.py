"""Ingest fuzzed with the times and ids applications really send (session 23): timestamps out
of order and equal, ids delivered twice, offsets and DST times in ``at`` (strings, epoch
numbers), far past dates, gaps of exactly the session gap, scopes switching within a batch,
single messages and batches, sessions closed explicitly between them, on SQLite and
PostgreSQL. Whatever arrives: no crash but a
``ValidationError`` or ``ConflictError`` naming the message, no message lost or stored twice,
each session's messages numbered 1..n in time order within its span, at most one session open
a scope, and every session closed once the clock passes the gap after the scope's last
message (none that never closes).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ConflictError, ValidationError
from memlane.testing import memory

BASE = datetime(2024, 10, 27, 0, 30, tzinfo=UTC)  # the night Europe's clocks go back
GAP = 30 * 60.0

offsets = st.sampled_from([0.0, 1.0, 60.0, GAP - 1, GAP, GAP + 1, 2 * GAP, 3600.0 * 5,
                           -GAP, -GAP - 1, -86400.0 * 3, -86400.0 * 365 * 50])
"""Seconds from the previous message's time: equal times, exactly the gap, just either side,
back in time a little and a lot (50 years: far past)."""
zones = st.sampled_from([UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=1)),
                         timezone(timedelta(hours=-9, minutes=-30)), timezone(timedelta(hours=14))])


@st.composite
def deliveries(draw: st.DrawFn) -> list[dict[str, Any]]:
    n = draw(st.integers(1, 18))
    t = BASE.timestamp()
    out = []
    for i in range(n):
        t = max(t + draw(offsets), 86400.0 * 366)  # after 1971: the epoch form stays positive
        when = datetime.fromtimestamp(t, UTC)
        form = draw(st.sampled_from(["datetime", "iso", "epoch", "zoned"]))
        at: Any = {"datetime": when, "epoch": t, "iso": when.isoformat().replace("+00:00", "Z"),
                   "zoned": when.astimezone(draw(zones)).isoformat()}[form]
        ident = draw(st.one_of(st.none(), st.sampled_from(["a", "b", "c"]).map(lambda x: f"id-{x}")))
        out.append({"scope": draw(st.sampled_from(["alpha", "beta"])),
                    "role": draw(st.sampled_from(["user", "assistant"])),
                    "text": f"m{i}", "at": at, "id": ident,
                    "how": draw(st.sampled_from(["one", "one", "batch", "batch", "close"]))})
    return out


def _deliver(mem: Any, plan: list[dict[str, Any]]) -> dict[tuple[str, str], float]:
    """Deliver the plan; the messages stored, by (scope, text) -> time."""
    stored: dict[tuple[str, str], float] = {}
    ids: dict[tuple[str, str], str] = {}
    batch: list[dict[str, Any]] = []

    def flush() -> None:
        try:
            got = mem.add_messages([{k: v for k, v in m.items() if k != "how"} for m in batch])
        except ConflictError as e:
            assert "id" in str(e)
            return
        for m in got:
            key = (m.scope, m.ext_id) if m.ext_id else None
            if key is not None and key in ids and ids[key] != m.text:
                continue  # the stored one answered again
            stored[(m.scope, m.text)] = m.at.timestamp()
            if key is not None:
                ids[key] = m.text

    for m in plan:
        if m["how"] == "batch":
            batch.append(m)
            continue
        if batch:
            flush()
            batch = []
        if m["how"] == "close":  # the app closes the scope's session, then sends the message
            mem.close_session(m["scope"])
        try:
            got = mem.add_message(m["scope"], m["role"], m["text"], m["at"], id=m["id"])
        except ConflictError as e:
            assert m["id"] in str(e)
            continue
        except ValidationError as e:  # only a time too far ahead of the clock
            assert e.field == "at", e
            continue
        if got.text == m["text"]:
            stored[(got.scope, got.text)] = got.at.timestamp()
            if m["id"]:
                ids[(got.scope, m["id"])] = got.text
    if batch:
        flush()
    return stored


def _check(mem: Any, stored: dict[tuple[str, str], float]) -> None:
    seen: dict[tuple[str, str], float] = {}
    for scope in ("alpha", "beta"):
        sessions = mem.sessions(scope, limit=1000)
        assert sum(1 for s in sessions if s.status == "open") <= 1
        for s in sessions:
            msgs = mem.messages(s.id)
            assert [m.seq for m in msgs] == list(range(1, len(msgs) + 1)) == list(range(1, s.message_count + 1))
            times = [m.at.timestamp() for m in msgs]
            assert times == sorted(times), (s.id, times)  # listed in time order
            assert (s.started_at.timestamp(), s.ended_at.timestamp()) == (times[0], times[-1])
            for m in msgs:
                assert (scope, m.text) not in seen  # stored once
                seen[(scope, m.text)] = m.at.timestamp()
    assert seen == stored  # nothing lost, nothing extra
    # the clock a day past the last message: every session is closed
    last = max(stored.values(), default=BASE.timestamp())
    mem.close_idle(datetime.fromtimestamp(last + 86400, UTC))
    assert not [s for s in mem.sessions(limit=1000) if s.status == "open"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_any_delivery_of_times_ids_and_scopes_keeps_every_message_once_in_order(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    counter = iter(range(10**6))

    @settings(max_examples=80 if backend == "sqlite" else 40, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(plan=deliveries())
    def run(plan: list[dict[str, Any]]) -> None:
        if backend == "sqlite":
            url = str(tmp_path / f"f{next(counter)}.db")
        else:
            from memlane.testing.postgres import create_database, drop_database

            server = request.getfixturevalue("postgres_server_url")
            name = f"fz_{next(counter)}"
            url = create_database(server, name)
        try:
            with memory(url) as mem:
                _check(mem, _deliver(mem, plan))
        finally:
            if backend == "postgres":
                drop_database(server, name)

    run()
