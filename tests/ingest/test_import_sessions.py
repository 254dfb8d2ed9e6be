"""An import line's ``session`` label (``memlane export`` writes one) starts a session of
its scope where it changes, so sessions a chat app closed with ``close_session`` come back
as they were (session 20: two conversations a minute apart, closed in between, came back
from ``export | import`` as one session: one summary, one set of facts)."""

from __future__ import annotations

import json

from memlane.testing import memory


def _line(text: str, minute: int, session: object, scope: str = "s") -> str:
    return json.dumps({"scope": scope, "role": "user", "text": text, "session": session,
                       "at": f"2024-01-01T10:{minute:02d}:00Z"}) + "\n"


def _cuts(mem) -> list[list[str]]:
    return sorted([m.text for m in mem.messages(s.id)] for s in mem.sessions())


def test_a_new_label_starts_a_session_and_a_second_import_changes_nothing(tmp_path):
    f = tmp_path / "chat.jsonl"
    f.write_text(_line("one", 0, 1) + _line("two", 1, 1) + _line("other", 2, "x", "t")
                 + _line("three", 3, 2) + _line("four", 4, "2"))
    with memory(tmp_path / "m.db") as mem:
        mem.add_message("s", "user", "already here", "2024-01-01T09:59:00Z")
        assert mem.import_file(f).imported == 5
        assert _cuts(mem) == [["already here"], ["one", "two"], ["other"], ["three", "four"]]
        before = mem.stats()["counters"]
        assert mem.import_file(f).skipped_duplicates == 5
        assert mem.stats()["counters"] == before and len(mem.sessions()) == 4


def test_importing_the_rest_of_a_cut_short_file_continues_its_session(tmp_path):
    lines = [_line("one", 0, 1), _line("two", 1, 1), _line("three", 2, 1), _line("four", 3, 2)]
    f = tmp_path / "chat.jsonl"
    with memory(tmp_path / "m.db") as mem:
        f.write_text("".join(lines[:2]))  # an import stopped after two lines
        mem.import_file(f)
        f.write_text("".join(lines))
        assert mem.import_file(f).imported == 2
        assert _cuts(mem) == [["four"], ["one", "two", "three"]]


def test_a_bad_label_names_the_field(tmp_path):
    f = tmp_path / "chat.jsonl"
    for bad, needle in ((True, "must be a string or an integer, got bool"),
                        ([1], "got list"), ("a\nb", "one line")):
        f.write_text(_line("one", 0, bad))
        with memory(tmp_path / "m.db") as mem:
            report = mem.import_file(f)
        (line, message), = report.errors
        assert line == 1 and message.startswith("line 1: session: ") and needle in message, message
