"""``sessions_requeued_late`` counts a session queued again once, whatever path the late
messages take (session 32). An import's lines counted a session once since session 31
(``test_metrics_requeued.py``), but a late message stored by ``add_message`` (one message or
a batch, on SQLite and in PostgreSQL's ``memlane_add_late``) still counted one a message: five
late messages to one indexed session said five sessions had been queued again.

The rule, as the import's: a message joining a closed session counts it when the session had
been indexed or summarized (it is queued again); later ones find it queued and do not count
until the session is indexed again."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, example, given, settings, strategies as st
from prometheus_client.parser import text_string_to_metric_families

BASE = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)
SESSIONS = 3
LIVE = BASE + timedelta(days=2 * SESSIONS + 5)
_scopes = itertools.count()


def _at(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _start(i: int) -> datetime:
    """Session ``i``'s first message: two days apart, so no late message meets two sessions
    (a merge is the other counter's)."""
    return BASE + timedelta(days=2 * i)


def _requeued(client, event: str = "sessions_requeued_late") -> float:
    text = client.get("/metrics")
    assert text.status_code == 200, text.text
    for family in text_string_to_metric_families(text.text):
        for s in family.samples:
            if s.name == "memlane_events_total" and s.labels == {"event": event}:
                return float(s.value)
    return 0.0


def _seed(c, scope: str) -> None:
    """``SESSIONS`` closed sessions of three messages (minutes 0, 5, 10 of their start),
    then the scope's live session, open; all indexed."""
    rows = [{"scope": scope, "role": "user", "text": f"session {i} note {m} about tea",
             "at": _at(_start(i) + timedelta(minutes=m))}
            for i in range(SESSIONS) for m in (0, 5, 10)]
    rows.append({"scope": scope, "role": "user", "text": "live now", "at": _at(LIVE)})
    assert c.post("/v1/messages", json={"messages": rows}).status_code == 200
    _index(c, scope)


def _index(c, scope: str) -> None:
    got = c.post("/v1/index", json={"scope": scope, "now": _at(LIVE)})
    assert got.status_code == 200, got.text


def _late(c, scope: str, targets: list[tuple[int, int]], n: int) -> None:
    """One request storing a late message into each target session (at its minute
    ``minute``): one message alone, several as a batch."""
    rows = [{"scope": scope, "role": "user", "text": f"late {n}.{k} about tea",
             "at": _at(_start(i) + timedelta(minutes=minute))}
            for k, (i, minute) in enumerate(targets)]
    body = rows[0] if len(rows) == 1 else {"messages": rows}
    got = c.post("/v1/messages", json=body)
    assert got.status_code == 200, got.text
    sessions = {m["session_id"] for m in got.json()["messages"]}
    assert len(sessions) == len({i for i, _ in targets}), got.json()  # each joined its own


def test_five_late_messages_to_one_session_count_it_once(service) -> None:
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        _seed(c, scope)
        before = _requeued(c)
        for n in range(5):
            _late(c, scope, [(1, 2 + n)], n)
        assert _requeued(c) - before == 1  # 5 before
        _index(c, scope)  # its turns and summary redone: one more late message queues it again
        _late(c, scope, [(1, 7)], 5)
        _late(c, scope, [(1, 8), (1, 9)], 6)
        assert _requeued(c) - before == 2


# each step: a request of late messages (session, minute inside its span), or an index run
_steps = st.lists(st.one_of(
    st.lists(st.tuples(st.integers(0, SESSIONS - 1), st.integers(0, 10)), min_size=1, max_size=4),
    st.just("index")), min_size=1, max_size=10)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=_steps)
def test_the_counter_is_the_number_of_sessions_queued_again(service, steps) -> None:
    """Any interleaving of late messages to several indexed sessions (alone or in batches)
    and index runs: the counter rises by one for each session a message queued again, a
    session counted again only after an index run took it."""
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        _seed(c, scope)
        before = _requeued(c)
        done = [True] * SESSIONS  # indexed: the next late message queues it again
        expected = 0
        for n, step in enumerate(steps):
            if step == "index":
                _index(c, scope)
                done = [True] * SESSIONS
                continue
            _late(c, scope, step, n)
            for i, _ in step:
                expected += done[i]
                done[i] = False
        assert _requeued(c) - before == expected, steps


# Session 33: a late message that joins two sessions (a merge) counts the one it queues again.
# Two sessions of the morning, 50 minutes apart (the gap is 30): a message at 09:33 is within
# the gap of both, joins the nearer (09:00-09:10) and merges the other (10:00-10:10) into it.
_MORNING = BASE + timedelta(days=40)


def _morning(c, scope: str) -> None:
    rows = [{"scope": scope, "role": "user", "text": f"morning {h} note {m} about tea",
             "at": _at(_MORNING + timedelta(hours=h, minutes=m))}
            for h in (0, 1) for m in (0, 5, 10)]
    rows.append({"scope": scope, "role": "user", "text": "live now",
                 "at": _at(_MORNING + timedelta(days=1))})
    assert c.post("/v1/messages", json={"messages": rows}).status_code == 200
    got = c.post("/v1/index", json={"scope": scope, "now": _at(_MORNING + timedelta(days=1))})
    assert got.status_code == 200, got.text


def _one(c, scope: str, at: datetime, text: str) -> int:
    got = c.post("/v1/messages", json={"scope": scope, "role": "user", "text": text,
                                       "at": _at(at)})
    assert got.status_code == 200, got.text
    return int(got.json()["messages"][0]["session_id"])


def _merged(client) -> float:
    return _requeued(client, "sessions_merged")


def test_a_merge_that_queues_an_indexed_session_again_counts_it_once(service) -> None:
    """The joined session still waiting (a late message queued it) and the merged one
    indexed: the merge queues the indexed one's messages again, counted once (0 before)."""
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        _morning(c, scope)
        before = _requeued(c)
        first = _one(c, scope, _MORNING + timedelta(minutes=2), "late into the first")
        assert _requeued(c) - before == 1  # the first session, indexed, queued again
        merges = _merged(c)
        assert _one(c, scope, _MORNING + timedelta(minutes=33), "between both") == first
        assert _merged(c) - merges == 1
        assert _requeued(c) - before == 2  # the second session's, queued again by the merge
        # the merged session is queued: a later late message finds it so
        _one(c, scope, _MORNING + timedelta(hours=1, minutes=3), "late into the second")
        assert _requeued(c) - before == 2


def test_a_merge_of_two_indexed_sessions_counts_one_requeue(service) -> None:
    """Both indexed: the message that joins one and merges the other queues one session
    again (the one they became), counted once, not once for each."""
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        _morning(c, scope)
        before = _requeued(c)
        merges = _merged(c)
        _one(c, scope, _MORNING + timedelta(minutes=33), "between both")
        assert _merged(c) - merges == 1
        assert _requeued(c) - before == 1


def test_a_message_before_the_open_session_that_merges_an_indexed_one_counts_it(service) -> None:
    """A message just before the open session's start and within the gap of the indexed
    session before it joins the open one and merges the other: the indexed session's
    messages are queued again, counted once (0 before)."""
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        rows = [{"scope": scope, "role": "user", "text": f"note {m} about tea",
                 "at": _at(_MORNING + timedelta(minutes=m))} for m in (0, 5, 10, 50)]
        assert c.post("/v1/messages", json={"messages": rows}).status_code == 200
        got = c.post("/v1/index", json={"scope": scope,
                                        "now": _at(_MORNING + timedelta(minutes=51))})
        assert got.status_code == 200, got.text
        before, merges = _requeued(c), _merged(c)
        live = _one(c, scope, _MORNING + timedelta(minutes=50, seconds=30), "still here")
        assert _one(c, scope, _MORNING + timedelta(minutes=30), "in between") == live
        assert _merged(c) - merges == 1
        assert _requeued(c) - before == 1


# The class, with merges: sessions of the morning some within twice the gap of the next (a
# message between them is within the gap of both), late messages anywhere around them, alone
# or in batches, and index runs. A plain model of the rule (``_late_session``, ``_merge_near``)
# gives the sessions each message joins and merges, and which had been indexed.
_GAP = 30
_spacing = st.lists(st.sampled_from([45, 55, 200]), min_size=1, max_size=3)  # > 10 + the gap
_merge_steps = st.lists(st.one_of(
    st.lists(st.integers(-45, 560), min_size=1, max_size=3), st.just("index")),
    min_size=1, max_size=8)


def _model_late(sessions: list[dict[str, Any]], t: int, ids: Iterator[int]) -> tuple[int, int]:
    """One late message at minute ``t``: ``(sessions queued again counted, merges)``."""
    def near(s: dict[str, Any]) -> bool:
        return s["start"] <= t + _GAP and s["end"] >= t - _GAP

    holders = [s for s in sessions if near(s)]
    if not holders:  # a session of its own, closed late: nothing queued again
        sessions.append({"id": next(ids), "start": t, "end": t, "done": False})
        return 0, 0
    keep = min(holders, key=lambda s: (max(s["start"] - t, t - s["end"], 0), -s["id"]))
    counted = keep["done"]
    keep.update(start=min(keep["start"], t), end=max(keep["end"], t), done=False)
    others = [s for s in sessions if s is not keep and near(s)]
    for o in others:
        keep.update(start=min(keep["start"], o["start"]), end=max(keep["end"], o["end"]))
        sessions.remove(o)
    return int(counted or any(o["done"] for o in others)), len(others)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(spacing=_spacing, steps=_merge_steps)
@example(spacing=[45], steps=[[0, 15]])  # joins the first (counted), then merges the second
def test_the_counter_counts_each_message_that_queues_an_indexed_session_once(
        service, spacing: list[int], steps: list[Any]) -> None:
    """Any interleaving of late messages that join, merge or start sessions, and index runs:
    ``sessions_requeued_late`` rises by one for each message that queued a session that
    had been indexed (joined or merged, once however many), ``sessions_merged`` by the
    sessions merged away."""
    with service.client(service.key()) as c:
        scope = f"late-{next(_scopes)}"
        starts = list(itertools.accumulate([0, *spacing]))
        rows = [{"scope": scope, "role": "user", "text": f"seed {s} {m} about tea",
                 "at": _at(_MORNING + timedelta(minutes=s + m))} for s in starts for m in (0, 5, 10)]
        rows.append({"scope": scope, "role": "user", "text": "live now",
                     "at": _at(_MORNING + timedelta(days=1))})
        assert c.post("/v1/messages", json={"messages": rows}).status_code == 200
        ids = itertools.count()
        sessions = [{"id": next(ids), "start": s, "end": s + 10, "done": False} for s in starts]
        before, merges = _requeued(c), _merged(c)
        want = want_merged = 0
        for n, step in enumerate(["index", *steps]):
            if step == "index":
                got = c.post("/v1/index", json={"scope": scope,
                                                "now": _at(_MORNING + timedelta(days=1))})
                assert got.status_code == 200, got.text
                for s in sessions:
                    s["done"] = True
                continue
            batch = [{"scope": scope, "role": "user", "text": f"late {n}.{k} about tea",
                      "at": _at(_MORNING + timedelta(minutes=t))} for k, t in enumerate(step)]
            got = c.post("/v1/messages", json=batch[0] if len(batch) == 1 else {"messages": batch})
            assert got.status_code == 200, got.text
            for t in step:
                counted, merged = _model_late(sessions, t, ids)
                want += counted
                want_merged += merged
        assert (_requeued(c) - before, _merged(c) - merges) == (want, want_merged), (spacing, steps)
