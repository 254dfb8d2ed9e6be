"""A label's session an import reopens (a prefix of the file imported, then the whole
file; ``Store.reopen_session``, session 33) is counted: ``sessions_reopened`` and
``sessions_reopened_<reason>`` on ``/metrics`` (session 34, fix34). Its close was counted
at the prefix's end and its close at the label's end is counted again, as the event stream
says both (docs/live.md: an event for each status change) and a Prometheus counter never
goes down; ``sessions_closed`` less ``sessions_reopened`` is what one import of the whole
file counts. Before, nothing counted the reopening: two closes of one session, one open."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from memlane.serve.live import changes_since

START = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)


def _events(client) -> dict[str, float]:
    text = client.get("/metrics")
    assert text.status_code == 200, text.text
    return {s.labels["event"]: float(s.value)
            for family in text_string_to_metric_families(text.text)
            for s in family.samples if s.name == "memlane_events_total"}


def _lines(scope: str, reason: str) -> list[dict]:
    """A label closed for ``reason`` (two lines), then two lines without a label within
    the gap: one import joins all four in the label's session, closed at the file's end."""
    at = [(START + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ") for i in range(4)]
    return [*({"scope": scope, "role": "user", "text": f"label line {i}", "at": at[i],
               "id": f"{scope}-{i}", "session": "L0", "closed": reason} for i in range(2)),
            *({"scope": scope, "role": "user", "text": f"after line {i}", "at": at[i],
               "id": f"{scope}-{i}"} for i in range(2, 4))]


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def _delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


def test_a_reopened_label_is_counted_reopened_and_its_counts_add_up(service, tmp_path) -> None:
    mem = service.mem
    with service.client(service.key()) as c:
        for reason in ("explicit", "gap"):
            whole = _lines(f"w-{reason}", reason)  # one import of the whole file
            before = _events(c)
            assert not mem.import_file(_write(tmp_path / "w.jsonl", whole)).errors
            once = _delta(_events(c), before)
            assert once["sessions_closed"] == once[f"sessions_closed_{reason}"] == 1, once

            scope = f"p-{reason}"  # its label alone, then the whole file
            lines = _lines(scope, reason)
            before = _events(c)
            assert not mem.import_file(_write(tmp_path / "p.jsonl", lines[:2])).errors
            assert not mem.import_file(_write(tmp_path / "p.jsonl", lines)).errors
            twice = _delta(_events(c), before)
            (session,) = mem.sessions(scope=scope)
            assert (session.status, session.message_count) == ("closed", 4), session
            assert twice["sessions_reopened"] == twice[f"sessions_reopened_{reason}"] == 1, twice
            for name in ("sessions_closed", f"sessions_closed_{reason}"):
                assert twice[name] - twice[name.replace("closed", "reopened")] == once[name]
            # the stream says each status change: opened, closed, opened again, closed again
            topics = [ch.topic for ch in changes_since(mem.store, scope, 0)
                      if ch.topic in ("session.opened", "session.closed")]
            assert topics == ["session.opened", "session.closed"] * 2, topics
            opened = twice.get("sessions_opened", 0) + twice["sessions_reopened"]
            assert (topics.count("session.opened"), topics.count("session.closed")) == (
                opened, twice["sessions_closed"])
