"""Every time in the service's answers is written ``…Z``, the engine's summary and
observation times included.

Found reading ``GET /v1/sessions/1`` after indexing: ``session.started_at`` was
``2024-03-04T09:12:00Z`` while ``summary.time_start`` in the same answer was
``2024-03-04T09:12:00+00:00`` (also in search hits' ``item.extra.summary`` and an
observation's ``extra.event_date``): they were stored that way. New ones are stored ``Z``;
ones stored before are read as ``Z``."""

from __future__ import annotations

import re
from typing import Any

from memlane.testing import example_files

_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?([+-]\d\d:\d\d|Z)?$")


def _times(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _times(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [t for i, v in enumerate(value) for t in _times(v, f"{path}.{i}")]
    if isinstance(value, str) and _TIME.match(value):
        return [(path, value)]
    return []


def test_every_time_of_every_answer_ends_in_z(service):
    mem = service.mem
    for f in example_files():
        mem.import_file(f)
    mem.index("2024-06-01T00:00:00Z")
    # a summary and an observation as stored before session 20
    with mem.store.atomic():
        mem.store.insert_items([
            {"kind": "summary", "text": "Old summary about the passport renewal", "at": 1000.0,
             "scope": "alice-assistant", "extra": {"summary": {
                 "topic": "passport", "time_start": "2024-03-04T09:12:00+00:00",
                 "time_end": "2024-03-04T10:00:00+00:00"}}},
            {"kind": "observation", "text": "The passport renewal is on 2024-04-02",
             "at": 1000.0, "scope": "alice-assistant",
             "extra": {"event_date": "2024-04-02T00:00:00+00:00", "event_phrase": "April 2"}}])
    key = service.key("*")
    with service.client(key) as c:
        answers = [c.get(f"/v1/sessions/{s.id}").json()
                   for s in mem.sessions(scope="alice-assistant")]
        answers.append(c.post("/v1/search", json={
            "query": "passport renewal", "scope": "alice-assistant", "k": 50,
            "kinds": ["summary", "observation"]}).json())
        answers.append(c.post("/actions", json={"kind": "memory.search", "input": {
            "query": "passport", "scope": "alice-assistant", "k": 50}}).json())
        answers.append(c.get("/v1/graph/Lisbon", params={"scope": "alice-assistant"}).json())
    found = [t for a in answers for t in _times(a)]
    assert any(p.endswith("time_start") for p, _ in found), found
    assert any(p.endswith("event_date") for p, _ in found), found
    wrong = [(p, v) for p, v in found if not v.endswith("Z")]
    assert not wrong, wrong[:10]
