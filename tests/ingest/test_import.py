import json

import pytest

from memlane.testing import example_files


def _write(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


GOOD = {"scope": "s", "role": "user", "text": "hello", "at": "2024-01-01T00:00:00Z"}


def test_examples_import(mem):
    total = 0
    for f in example_files():
        report = mem.import_file(f)
        assert report.errors == () and report.imported > 0
        total += report.imported
    assert mem.stats()["messages"] == total
    # re-import is idempotent thanks to message ids
    again = mem.import_file(example_files()[0])
    assert again.imported == 0 and again.skipped_duplicates > 0


def test_bad_line_keeps_earlier_lines_and_names_line_and_field(mem, tmp_path):
    f = _write(tmp_path / "c.jsonl", [GOOD, {**GOOD, "text": "second"}, {**GOOD, "role": "robot"}, GOOD])
    report = mem.import_file(f)
    assert report.imported == 2
    (line, message), = report.errors
    assert line == 3 and "line 3" in message and "role" in message
    assert mem.stats()["messages"] == 2


def test_strict_refuses_whole_file(mem, tmp_path):
    f = _write(tmp_path / "c.jsonl", [GOOD, GOOD, "{not json"])
    report = mem.import_file(f, strict=True)
    assert report.imported == 0 and report.errors[0][0] == 3
    assert "not valid JSON" in report.errors[0][1]
    assert mem.stats()["messages"] == 0


@pytest.mark.parametrize(("row", "needle"), [
    ({"role": "user", "text": "x", "at": "2024-01-01T00:00:00Z"}, "scope"),
    ({**GOOD, "at": "not a time"}, "at"),
    ({k: v for k, v in GOOD.items() if k != "at"}, "at: missing"),
    ({**GOOD, "colour": "red"}, "unknown field"),
    ([1, 2], "JSON object"),
])
def test_each_kind_of_bad_line(mem, tmp_path, row, needle):
    f = _write(tmp_path / "c.jsonl", [GOOD, row])
    report = mem.import_file(f)
    assert report.imported == 1
    assert report.errors[0][0] == 2 and needle in report.errors[0][1]


def test_nothing_stored_is_lost_on_a_bad_import(mem, tmp_path):
    mem.import_file(_write(tmp_path / "a.jsonl", [GOOD]))
    mem.import_file(_write(tmp_path / "b.jsonl", ["garbage"]), strict=True)
    mem.import_file(_write(tmp_path / "b.jsonl", ["garbage"]))
    assert mem.stats()["messages"] == 1


def test_missing_file(mem, tmp_path):
    from memlane.errors import ValidationError

    with pytest.raises(ValidationError, match="does not exist"):
        mem.import_file(tmp_path / "nope.jsonl")
