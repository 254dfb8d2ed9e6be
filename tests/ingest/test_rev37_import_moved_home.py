"""An import whose batch moves a stored message to another session before a later line of
its label is placed (session 37, rev37). Session 36 (fix36) reads a batch's stored messages
once, at the batch's start (``_held``), and took a label's session from that read
(``_home``, ``_resume``). A line the batch writes earlier can move a stored message: a late
line between two sessions of its scope joins them, and the one it merges away is deleted.
A later line of the label was then given to the deleted session: ``TypeError: cannot
unpack non-iterable NoneType object`` in ``add_to_session``, and the file could not be
imported again at all (each attempt rolled back). The batch's read now tells where a
stored message is only until the batch writes to its scope."""

from __future__ import annotations

import io
import itertools
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.ingest import importer
from memlane.ingest.importer import import_jsonl
from memlane.memory import Memory
from memlane.testing import memory

# a label's line, an unlabelled line written late between two sessions (merging them), and
# the label's next line: its home was merged away by the line before
FILE = [
    {"scope": "p", "role": "user", "text": "line 10", "at": "2024-03-01T12:53:00Z", "id": "p-10",
     "session": "pA", "closed": "idle"},
    {"scope": "p", "role": "user", "text": "line 11", "at": "2024-03-01T13:33:00Z", "id": "p-11"},
    {"scope": "p", "role": "user", "text": "line 12", "at": "2024-03-01T13:13:00Z", "id": "p-12"},
    {"scope": "p", "role": "user", "text": "line 15", "at": "2024-03-01T13:10:00Z", "id": "p-15",
     "session": "pA", "closed": "idle"},
]


def _text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def _sessions(mem: Memory, scope: str) -> list[Any]:
    return sorted((s.status, s.closed_reason, [m.ext_id for m in mem.messages(s.id)])
                  for s in mem.sessions(scope=scope, limit=1000))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_label_whose_session_a_late_line_merged_away_is_imported(
        request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> None:
    url = str(tmp_path / "m.db") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))
    with memory(url) as mem:
        import_jsonl(mem.store, mem.config.ingest, io.StringIO(_text([
            {**x, "scope": "a"} for x in FILE])))
        once = _sessions(mem, "a")
        first = import_jsonl(mem.store, mem.config.ingest, io.StringIO(_text([
            {**x, "scope": "b"} for x in FILE[:2]])))
        assert first.imported == 2
        report = import_jsonl(mem.store, mem.config.ingest, io.StringIO(_text([
            {**x, "scope": "b"} for x in FILE])))
        assert not report.errors, report
        assert (report.imported, report.skipped_duplicates) == (2, 2)
        assert _sessions(mem, "b") == once == [("closed", "idle", ["p-10", "p-15", "p-12", "p-11"])]


START = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
# a line: its label (or none) and its minutes after the line before (negative: late)
LINE = st.tuples(st.sampled_from([None, None, "A", "B"]),
                 st.sampled_from([1, 2, 40, 300, -20, -45, -200]))


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(spec=st.lists(LINE, min_size=2, max_size=14),
       closed=st.sampled_from([None, "gap", "explicit", "idle"]),
       cut=st.integers(0, 14), batch=st.sampled_from([1, 2, 3, 1000]))
@example(spec=[("A", 173), (None, 40), (None, -20), ("A", -3)], closed="idle", cut=2,
         batch=1000)  # FILE's case
def test_a_prefix_then_the_whole_file_of_late_lines_and_labels_again_imports(
        tmp_path_factory: pytest.TempPathFactory, spec: list[tuple[str | None, int]],
        closed: str | None, cut: int, batch: int) -> None:
    """Labels that come back after other lines, lines written late between sessions: a
    prefix imported, then the whole file, in batches of any size, is imported without an
    error, each line stored once; a third import changes nothing."""
    at, lines = START, []
    for i, (label, minutes) in enumerate(spec):
        at += timedelta(minutes=minutes)
        line: dict[str, Any] = {"scope": "p", "role": "user", "text": f"line {i}",
                                "at": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "id": f"p-{i}"}
        if label is not None:
            line["session"] = f"p{label}"
            if closed is not None:
                line["closed"] = closed
        lines.append(line)
    was, importer.BATCH = importer.BATCH, batch
    try:
        with memory(tmp_path_factory.mktemp("late") / "m.db") as mem:
            for text in (_text(lines[:cut % (len(lines) + 1)]), _text(lines)):
                report = import_jsonl(mem.store, mem.config.ingest, io.StringIO(text))
                assert not report.errors, report
            held = list(itertools.chain.from_iterable(m for _, _, m in _sessions(mem, "p")))
            assert sorted(held) == sorted(x["id"] for x in lines)
            before = _sessions(mem, "p")
            again = import_jsonl(mem.store, mem.config.ingest, io.StringIO(_text(lines)))
            assert (again.imported, again.skipped_duplicates) == (0, len(lines))
            assert _sessions(mem, "p") == before
    finally:
        importer.BATCH = was
