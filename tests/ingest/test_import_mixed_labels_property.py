"""A file mixing lines without a session label and labelled ones (session 32).

The import format's rule (README, "Import format"): lines without ``session`` go by the
gap rule, as ``add_message`` stores them; where a scope's label changes its open session is
closed (``explicit``) and the line starts a new one, except that a label starting before
the last message of an open session *the file did not start* (the conversation the user is
in) leaves that session open and is stored closed beside it. Before session 32 the
session the file's own unlabelled lines had opened was taken for the user's: a label older
than its last line was stored closed (``late``) beside it, and the unlabelled lines'
session stayed the scope's open one, so the file's last label, open in the file, came back
closed and an imported session was left open as if it were the conversation going on.

The property: any file of unlabelled runs and labels (older than the scope's live session
or newer, open or closed in the file for any reason), into a scope with or without a live
session, imported whole or stopped at any line (Ctrl-C) and imported again, in batches of
any size, stores what the rule says
(each session's messages, whether it is open, how it ended), and nothing stored before is
lost. Both stores.
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.ingest import importer
from memlane.ingest.importer import import_jsonl
from memlane.testing import memory

LIVE = datetime(2024, 6, 1, 10, 0, tzinfo=UTC)
GAP = timedelta(minutes=30)  # ingest.session_gap_minutes' default
REASONS = [None, "explicit", "gap", "idle", "late"]


@dataclass
class _Session:
    """A session of the model: its messages ``(at, text)`` in arrival order."""

    msgs: list[tuple[datetime, str]] = field(default_factory=list)
    open: bool = True
    reason: str | None = None
    file: bool = True  # the file started it

    def close(self, reason: str) -> None:
        if self.open:
            self.open, self.reason = False, reason
        else:  # closed already: the label's end gives its reason (``set_closed_reason``)
            self.reason = reason

    def seen(self) -> tuple[Any, ...]:
        texts = tuple(t for _, t in sorted(self.msgs, key=lambda m: m[0]))  # stable: arrival
        return texts, self.open, None if self.open else self.reason


# a run of unlabelled lines: each a minute, or more than the gap, after the file's clock;
# a label: its lines a minute apart, starting days before the live session or after the
# clock, open in the file or closed for a reason
unlabelled = st.tuples(st.just("u"), st.lists(st.sampled_from([1, 45]), min_size=1, max_size=3))
labelled = st.tuples(st.just("l"), st.integers(1, 3),
                     st.one_of(st.integers(1, 60).map(lambda d: -d), st.sampled_from([1, 45])),
                     st.sampled_from(REASONS))


def build(segments: list[Any], live_n: int, scope: str, with_ids: bool
          ) -> tuple[list[dict[str, Any]], list[tuple[Any, ...]]]:
    """The file's lines and the sessions the rule gives (``_Session.seen`` each)."""
    sessions: list[_Session] = []
    opened: _Session | None = None
    if live_n:
        opened = _Session([(LIVE + timedelta(minutes=i), f"live {i}") for i in range(live_n)],
                          file=False)
        sessions.append(opened)
    clock = LIVE + timedelta(minutes=max(live_n - 1, 0))
    current: tuple[_Session, str | None] | None = None
    lines: list[dict[str, Any]] = []
    for n, segment in enumerate(segments):
        rows: list[tuple[datetime, str]] = []
        if segment[0] == "u":
            for i, step in enumerate(segment[1]):
                clock += timedelta(minutes=step)
                rows.append((clock, f"u{n}.{i}"))
                if opened is not None and clock - opened.msgs[-1][0] > GAP:
                    opened.close("gap")
                    opened = None
                if opened is None:
                    opened = _Session()
                    sessions.append(opened)
                opened.msgs.append(rows[-1])
                opened.msgs.sort(key=lambda m: m[0])
        else:
            _, k, when, closed = segment
            start = LIVE + timedelta(days=when) if when < 0 else clock + timedelta(minutes=when)
            rows = [(start + timedelta(minutes=i), f"l{n}.{i}") for i in range(k)]
            if when > 0:
                clock = rows[-1][0]
            if current is not None:  # the label before ends: closed as the file says
                current[0].close(current[1] or "explicit")
                if current[0] is opened and not opened.open:
                    opened = None
            if opened is not None and start < opened.msgs[-1][0] and not opened.file:
                own = _Session(list(rows), open=False, reason=closed or "late")
            else:  # the next conversation, or the file's own session ends
                if opened is not None:
                    opened.close("explicit")
                own = opened = _Session(list(rows))
            sessions.append(own)
            current = (own, closed)
        for at, text in rows:
            line: dict[str, Any] = {"scope": scope, "role": "user", "text": text,
                                    "at": at.isoformat().replace("+00:00", "Z")}
            if with_ids:
                line["id"] = text
            if segment[0] == "l":
                line["session"] = f"L{n}"
                if segment[3] is not None:
                    line["closed"] = segment[3]
            lines.append(line)
    if current is not None and current[1] is not None:
        current[0].close(current[1])
    return lines, sorted(s.seen() for s in sessions)


def stored(mem: Any, scope: str) -> list[tuple[Any, ...]]:
    out = []
    for s in mem.sessions(scope=scope, limit=1000):
        texts = tuple(m.text for m in mem.messages(s.id))
        is_open = s.status == "open"
        out.append((texts, is_open, None if is_open else s.closed_reason))
    return sorted(out)


def _interrupted(lines: list[dict[str, Any]], cut: int) -> Iterator[str]:
    """The file's lines up to ``cut``, then Ctrl-C (the import stores its whole batches)."""
    for line in lines[:cut]:
        yield json.dumps(line) + "\n"
    raise KeyboardInterrupt


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_file_mixing_labelled_and_unlabelled_lines_stores_what_the_rule_says(
        request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> None:
    counter = itertools.count()
    url = str(tmp_path / "m.db") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))

    @settings(max_examples=60 if backend == "sqlite" else 25, deadline=None, database=None,
              derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(segments=st.lists(st.one_of(unlabelled, labelled), min_size=1, max_size=5),
           live_n=st.integers(0, 3), batch=st.integers(1, 4), cut=st.integers(0, 16),
           with_ids=st.booleans())
    def run(segments: list[Any], live_n: int, batch: int, cut: int, with_ids: bool) -> None:
        scope = f"s{next(counter)}"
        lines, want = build(segments, live_n, scope, with_ids)
        want = sorted([*want, (("before",), False, "explicit")])  # stored before: kept
        text = "".join(json.dumps(x) + "\n" for x in lines)
        was, importer.BATCH = importer.BATCH, batch  # a label's lines over several batches
        try:
            with memory(url) as mem:
                mem.add_message(scope, "user", "before", at=LIVE - timedelta(days=90))
                mem.close_session(scope)
                for i in range(live_n):
                    mem.add_message(scope, "user", f"live {i}", at=LIVE + timedelta(minutes=i))
                if cut < len(lines):  # stopped there (Ctrl-C), then imported whole
                    with pytest.raises(importer.ImportInterrupted):
                        import_jsonl(mem.store, mem.config.ingest, _interrupted(lines, cut))
                report = import_jsonl(mem.store, mem.config.ingest, io.StringIO(text))
                assert not report.errors and report.lines == len(lines), report
                assert stored(mem, scope) == want
                again = import_jsonl(mem.store, mem.config.ingest, io.StringIO(text))
                assert again.imported == 0 and again.skipped_duplicates == len(lines)
                assert stored(mem, scope) == want  # nothing new, nothing moved
        finally:
            importer.BATCH = was

    run()
