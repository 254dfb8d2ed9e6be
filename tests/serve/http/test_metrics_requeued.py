"""``sessions_requeued_late`` counts a session queued again once, not once a line (session
31): an import's label older than the scope's live session is stored in a session created
closed, and each of its lines bumped the counter, though nothing had been queued before."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

LIVE = datetime(2024, 6, 1, 10, 0, tzinfo=UTC)
OLD = LIVE - timedelta(days=30)


def _at(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _file(path: Path, lines: int) -> Path:
    path.write_text("".join(
        json.dumps({"scope": "s", "role": "user", "session": "old", "id": f"old-{i}",
                    "text": f"old line {i} about tea", "at": _at(OLD + timedelta(minutes=i))})
        + "\n" for i in range(lines)))
    return path


def _event(client, name: str) -> float:
    text = client.get("/metrics")
    assert text.status_code == 200, text.text
    for family in text_string_to_metric_families(text.text):
        for s in family.samples:
            if s.name == "memlane_events_total" and s.labels == {"event": name}:
                return float(s.value)
    return 0.0


def test_a_session_is_counted_requeued_once_not_once_a_line(service, tmp_path) -> None:
    with service.client(service.key()) as c:
        live = [{"scope": "s", "role": "user", "text": f"live {i}",
                 "at": _at(LIVE + timedelta(minutes=i))} for i in range(3)]
        assert c.post("/v1/messages", json={"messages": live}).status_code == 200
        # an older label: a session created closed (late) beside the live one, 5 lines
        report = service.mem.import_file(_file(tmp_path / "f.jsonl", 5))
        assert report.imported == 5 and not report.errors, report
        closed = [s for s in service.mem.sessions(scope="s") if s.status != "open"]
        assert len(closed) == 1 and closed[0].message_count == 5, closed
        assert _event(c, "sessions_closed_late") == 1
        assert _event(c, "sessions_requeued_late") == 0  # new, never queued before: 5 before
        # indexed, then the file again with 5 more lines of the label: queued again, once
        assert c.post("/v1/index", json={"now": _at(LIVE)}).status_code == 200
        report = service.mem.import_file(_file(tmp_path / "f.jsonl", 10))
        assert report.imported == 5 and not report.errors, report
        (held,) = [s for s in service.mem.sessions(scope="s") if s.status != "open"]
        assert held.id == closed[0].id and held.message_count == 10, held
        assert _event(c, "sessions_requeued_late") == 1  # 10 before
        # its turns and summary are redone: the index takes it again
        assert c.post("/v1/index", json={"now": _at(LIVE)}).status_code == 200
        assert _event(c, "sessions_requeued_late") == 1
