"""A label's session erased while the import writes it (session 28 review).

An import writes a file in batches; a label (a ``session`` of the file) can span two. When
the label's session is erased between them (``forget_session``), the label's first line is
no longer stored, so its next lines were written as the scope's unlabelled lines with no
gap: with no session open they were *late* to the scope's newest session and joined the
previous label's session (another session of the file, closed for its own reason), and
the label's end found no session to close. They now open a session of their own, as a
label starts one, and the label's end closes it as the file says."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from memlane.ingest import importer
from memlane.ingest.importer import import_jsonl
from tests.ingest.test_import_again_property import BASE, _open


def test_the_rest_of_an_erased_label_stays_out_of_the_label_before(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def line(i: int, minute: int, label: str, closed: str) -> dict[str, Any]:
        return {"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}",
                "at": (BASE + timedelta(minutes=minute)).isoformat(), "session": label,
                "closed": closed}

    lines = [line(0, 0, "p", "gap"), line(1, 5, "p", "gap"),
             line(2, 120, "l", "idle"), line(3, 125, "l", "idle"),
             line(4, 130, "l", "idle"), line(5, 135, "l", "idle")]
    monkeypatch.setattr(importer, "BATCH", 2)
    with _open(db_url) as mem:
        def source() -> Any:
            for k, x in enumerate(lines):
                if k == 4:  # batches of lines 1-2 and 3-4 are stored: erase the label's
                    there = mem.store.message_by_ext_id("chat", "m2")
                    assert there is not None
                    mem.forget_session(there.session_id)
                yield json.dumps(x) + "\n"

        report = import_jsonl(mem.store, mem.config.ingest, source())
        assert not report.errors and report.imported == 6, report  # (two erased since)
        sessions = {s.id: s for s in mem.store.list_sessions(scope="chat")}
        held = {s: [m.ext_id for m in mem.store.session_messages(s)] for s in sessions}
        assert sorted(held.values()) == [["m0", "m1"], ["m4", "m5"]], held
        reasons = {tuple(held[s]): sessions[s].closed_reason for s in sessions}
        assert reasons == {("m0", "m1"): "gap", ("m4", "m5"): "idle"}, reasons
