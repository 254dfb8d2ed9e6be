"""An import never ends the conversation a user is in (session 31).

A labelled file (``memlane export``'s) imported into a scope with an open session closed
that live session (``explicit``) at its first label, whatever the label's time, and the
file's session, open in the file and older, became the scope's open one: the user's next
message, a minute after their last, opened a session of its own (the gap from the older
session), and the live conversation was cut in two.

Now a label that starts before the live session's last message is a past conversation:
the live session goes on untouched, and the label's session is stored closed, for the
reason the file gives, or ``late`` when it was open in the file (a scope holds one open
session, and a late message's session of its own is closed ``late`` too). A label that
starts after the live session's last message is the next conversation, and closes it as
before. Both stores.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.testing import memory

LIVE = datetime(2024, 6, 1, 10, 0, tzinfo=UTC)


def _at(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _file(path: Path, labels: list[tuple[str, datetime, str | None]], n: int = 3) -> Path:
    """Each label's ``n`` lines a minute apart from its start, ``closed`` as given."""
    lines = []
    for label, start, closed in labels:
        for i in range(n):
            line: dict[str, Any] = {"scope": "s", "role": "user", "session": label,
                                    "id": f"{label}-{i}", "text": f"{label} line {i}",
                                    "at": _at(start + timedelta(minutes=i))}
            if closed is not None:
                line["closed"] = closed
            lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n")
    return path


def _live(mem: Any, n: int = 3) -> int:
    for i in range(n):
        mem.add_message("s", "user", f"live {i}", at=_at(LIVE + timedelta(minutes=i)))
    (open_,) = mem.sessions(scope="s", status="open")
    return int(open_.id)


def _check_live_goes_on(mem: Any, live: int, labels: list[tuple[str, datetime, str | None]],
                        n: int = 3) -> None:
    sessions = {s.id: s for s in mem.sessions(scope="s", limit=1000)}
    assert sessions[live].status == "open", sessions[live]
    assert [m.text for m in mem.messages(live)] == [f"live {i}" for i in range(n)]
    for label, _, closed in labels:
        (held,) = [s for s in sessions.values()
                   if [m.text for m in mem.messages(s.id)] == [f"{label} line {i}"
                                                               for i in range(3)]]
        assert held.status != "open" and held.closed_reason == (closed or "late"), held
    # the user's next message, a minute after their last, is the same conversation
    mem.add_message("s", "user", "live next", at=_at(LIVE + timedelta(minutes=n)))
    assert mem.messages(live)[-1].text == "live next"
    assert len(mem.sessions(scope="s", status="open")) == 1


def test_an_older_open_session_imported_leaves_the_live_one_open(db_url, tmp_path) -> None:
    with memory(db_url) as mem:
        live = _live(mem)
        labels = [("old", LIVE - timedelta(days=30), None)]
        report = mem.import_file(_file(tmp_path / "f.jsonl", labels))
        assert report.imported == 3 and not report.errors
        again = mem.import_file(tmp_path / "f.jsonl")
        assert again.skipped_duplicates == 3
        _check_live_goes_on(mem, live, labels)


def test_an_export_with_closed_and_open_sessions_keeps_each_as_it_was(db_url, tmp_path) -> None:
    with memory(db_url) as mem:
        live = _live(mem)
        labels = [("a", LIVE - timedelta(days=9), "explicit"),
                  ("b", LIVE - timedelta(days=5), "idle"),
                  ("c", LIVE - timedelta(days=2), None)]
        assert mem.import_file(_file(tmp_path / "f.jsonl", labels)).imported == 9
        _check_live_goes_on(mem, live, labels)


def test_a_newer_session_imported_is_the_next_conversation(db_url, tmp_path) -> None:
    """Unchanged: a label after the live session's last message ends it."""
    with memory(db_url) as mem:
        live = _live(mem)
        mem.import_file(_file(tmp_path / "f.jsonl", [("new", LIVE + timedelta(days=1), None)]))
        assert mem.session(live).status == "closed"
        (open_,) = mem.sessions(scope="s", status="open")
        assert [m.text for m in mem.messages(open_.id)] == [f"new line {i}" for i in range(3)]


REASONS = st.sampled_from([None, "explicit", "gap", "idle", "late"])


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(days=st.lists(st.integers(1, 60), min_size=1, max_size=4, unique=True),
       reasons=st.lists(REASONS, min_size=4, max_size=4), cut=st.integers(0, 12),
       live_n=st.integers(1, 4))
def test_any_older_labels_imported_whole_or_in_two_leave_the_live_session_open(
        tmp_path_factory, days, reasons, cut, live_n) -> None:
    """Labels of any age before the live session, each closed for any reason or open (only
    an export's last is open, but files before session 28 leave all open), imported whole
    or cut at any line and imported again."""
    tmp = tmp_path_factory.mktemp("live")
    labels = [(f"l{d}", LIVE - timedelta(days=d), r)
              for d, r in zip(sorted(days, reverse=True), reasons, strict=False)]
    whole = _file(tmp / "f.jsonl", labels).read_text().splitlines(keepends=True)
    with memory(tmp / "m.db") as mem:
        live = _live(mem, live_n)
        (tmp / "part.jsonl").write_text("".join(whole[:cut]))
        mem.import_file(tmp / "part.jsonl")
        mem.import_file(tmp / "f.jsonl")
        # files before session 28: a label open in the file is closed ``explicit`` by the
        # file's next label (as before), the file's last stays closed ``late``
        expected = [(label, start, closed if closed is not None or i == len(labels) - 1
                     else "explicit") for i, (label, start, closed) in enumerate(labels)]
        _check_live_goes_on(mem, live, expected, live_n)
