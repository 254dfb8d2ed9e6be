"""Clocks as applications have them (session 22): skewed into the future, before 1970,
across a DST change, naive, out of order within a batch.

Before, a message dated years ahead (a clock set wrong, a local time sent as UTC with a
wrong offset) was stored: its session ended in the future, no idle sweep closed it, and
every later message of the scope joined it. Now a message dated more than
``ingest.max_future_minutes`` (a day) after the clock of the process storing it is refused,
naming ``at`` (its place in a batch, its line in an import).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ConfigError, ValidationError
from memlane.ingest.sessionize import prepare
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving


def test_a_message_dated_days_ahead_is_refused_naming_at(db_url: str, tmp_path: Path) -> None:
    ahead = datetime.now(UTC) + timedelta(days=400)
    with memory(db_url) as mem:
        with pytest.raises(ValidationError) as e:
            mem.add_message("s", "user", "from the future", at=ahead)
        assert e.value.field == "at" and "max_future_minutes" in str(e.value)
        with pytest.raises(ValidationError) as e:
            mem.add_messages([{"scope": "s", "text": "ok"},
                              {"scope": "s", "text": "skewed", "at": ahead.isoformat()}])
        assert e.value.field == "messages.1.at"
        f = tmp_path / "in.jsonl"
        f.write_text(json.dumps({"scope": "s", "role": "user", "text": "x",
                                 "at": ahead.isoformat()}) + "\n", encoding="utf-8")
        report = mem.import_file(f)
        assert report.errors and report.errors[0][0] == 1 and "at:" in report.errors[0][1]
        with serving(create_app(mem, worker=False)) as url, httpx.Client(base_url=url) as c:
            r = c.post("/v1/messages", json={"scope": "s", "text": "x", "at": ahead.isoformat()})
        assert r.status_code == 400 and r.json()["error"]["field"] == "at"
        assert mem.stats()["messages"] == 0
        # a clock a few hours fast is taken; the session follows the message's time
        soon = mem.add_message("s", "user", "a fast clock", at=datetime.now(UTC) + timedelta(hours=3))
        assert soon.at > datetime.now(UTC)


@settings(max_examples=200, deadline=None)
@given(minutes=st.floats(-1e6, 1e6, allow_nan=False), limit=st.sampled_from([0.0, 5.0, 1440.0]))
def test_a_time_ahead_is_taken_exactly_up_to_the_limit(minutes: float, limit: float) -> None:
    cfg = load_config(environ={}, overrides={"ingest": {"max_future_minutes": limit}}).ingest
    now = datetime(2024, 6, 1, tzinfo=UTC)
    at = now + timedelta(minutes=minutes)
    if (at - now).total_seconds() <= limit * 60:
        assert prepare(cfg, "s", "user", "x", at, now=now).at == at
    else:
        with pytest.raises(ValidationError) as e:
            prepare(cfg, "s", "user", "x", at, now=now)
        assert e.value.field == "at"


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf")])
def test_the_limit_is_checked(bad: float) -> None:
    with pytest.raises(ConfigError, match="ingest.max_future_minutes"):
        load_config(environ={}, overrides={"ingest": {"max_future_minutes": bad}})


def test_times_before_1970_and_across_dst_are_kept_exactly(db_url: str) -> None:
    with memory(db_url) as mem:
        old = mem.add_message("s", "user", "the moon landing", at="1969-07-20T20:17:40Z")
        assert mem.messages(old.session_id)[0].at == datetime(1969, 7, 20, 20, 17, 40, tzinfo=UTC)
        # Europe's clocks go forward at 01:00 UTC on 31 March 2024: 01:59+01:00 and
        # 03:00+02:00 are a minute apart, one session
        cet, cest = timezone(timedelta(hours=1)), timezone(timedelta(hours=2))
        a = mem.add_message("t", "user", "before", at=datetime(2024, 3, 31, 1, 59, tzinfo=cet))
        b = mem.add_message("t", "user", "after", at=datetime(2024, 3, 31, 3, 0, tzinfo=cest))
        assert b.session_id == a.session_id and (b.at - a.at) == timedelta(minutes=1)
        # ...and back in October: 02:30+02:00 then 02:10+01:00 is 40 minutes later
        c = mem.add_message("u", "user", "first 02:30", at="2024-10-27T02:30:00+02:00")
        d = mem.add_message("u", "user", "second 02:10", at="2024-10-27T02:10:00+01:00")
        assert d.at - c.at == timedelta(minutes=40) and d.session_id != c.session_id
        # a naive time is UTC, whatever the process's zone
        n = mem.add_message("v", "user", "naive", at="2024-03-31T02:30:00")
        assert n.at == datetime(2024, 3, 31, 2, 30, tzinfo=UTC)


def test_a_batch_out_of_order_is_cut_by_time(db_url: str) -> None:
    """A batch whose times go back and forth (a client's clock corrected mid-conversation,
    messages queued on two devices): within the gap they share a session; an hour back is
    another session, not the current one stretched."""
    t0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    offsets = [0, 5, 2, 9, -20, 7, -90, 11]
    with memory(db_url) as mem:
        got = mem.add_messages([{"scope": "s", "text": f"m{o}", "at": t0 + timedelta(minutes=o)}
                                for o in offsets])
        main = got[0].session_id
        assert [m.session_id == main for m in got] == [True] * 6 + [False, True]
        s = mem.session(main)
        assert (s.started_at, s.ended_at) == (t0 - timedelta(minutes=20), t0 + timedelta(minutes=11))
        assert mem.session(got[6].session_id).closed_reason == "late"
        # listed in time order (session 23: seq is the turn in time order, not arrival)
        assert [m.text for m in mem.messages(main)] == ["m-20", "m0", "m2", "m5", "m7", "m9", "m11"]
        assert [m.seq for m in mem.messages(main)] == [1, 2, 3, 4, 5, 6, 7]
