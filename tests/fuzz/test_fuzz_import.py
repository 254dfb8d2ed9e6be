"""Import files, good and hostile: exact line/column, strict means nothing, re-import is a no-op."""

from __future__ import annotations

import io
import json
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import MemlaneError
from memlane.testing import memory

GOOD = {"scope": "s", "role": "user", "text": "hello", "at": "2024-01-01T00:00:00Z"}


def _line(i: int, **over) -> str:
    return json.dumps({**GOOD, "text": f"message {i}", "at": f"2024-01-01T{i // 60 % 24:02d}:{i % 60:02d}:00Z",
                       **over})


def _messages(mem) -> int:
    return mem.stats()["messages"]


def test_strict_imports_nothing_from_a_file_bad_at_line_1200(mem, tmp_path):
    rows = [_line(i) for i in range(1500)]
    rows[1199] = _line(1199, role="robot")
    f = tmp_path / "big.jsonl"
    f.write_text("\n".join(rows) + "\n")
    report = mem.import_file(f, strict=True)
    assert report.errors[0][0] == 1200 and report.imported == 0
    assert _messages(mem) == 0
    lenient = mem.import_file(f)
    assert lenient.imported == 1199 and _messages(mem) == 1199


def test_invalid_byte_is_reported_on_its_line_and_column(mem, tmp_path):
    rows = [_line(i).encode() for i in range(120)]
    rows[100] = b'{"scope": "s", "role": "user", "text": "caf\xe9 \xff", "at": "2024-01-01T00:00:00Z"}'
    f = tmp_path / "bytes.jsonl"
    f.write_bytes(b"\n".join(rows) + b"\n")
    (line, message), = mem.import_file(f, strict=True).errors
    assert line == 101 and "line 101: column 44: not valid UTF-8 (byte 0xe9)" in message


def test_json_error_names_its_column(mem, tmp_path):
    bad = '{"scope": "s", "role": "user", "text": "hello", "at" "2024-01-01T00:00:00Z"}'
    f = tmp_path / "c.jsonl"
    f.write_text(_line(0) + "\n" + bad + "\n")
    (line, message), = mem.import_file(f).errors
    column = bad.index('"2024') + 1  # where the missing ':' should be, 1-based
    assert line == 2 and f"column {column}: not valid JSON" in message


def test_reimport_without_ids_stores_nothing_new(mem, tmp_path):
    rows = [_line(i) for i in range(20)] + [_line(3)]  # two identical lines: both kept
    f = tmp_path / "noids.jsonl"
    f.write_text("\n".join(rows) + "\n")
    first = mem.import_file(f)
    assert first.imported == 21 and _messages(mem) == 21
    again = mem.import_file(f)
    assert again.imported == 0 and again.skipped_duplicates == 21
    assert _messages(mem) == 21
    mem.close_session("s")
    mem.index()
    hits = mem.search("message 7", scope="s", k=50)
    assert len([h for h in hits if h.item.text == "message 7"]) == 1


@pytest.mark.parametrize(("over", "field"), [
    ({"id": [1]}, "id"), ({"id": True}, "id"), ({"id": {"a": 1}}, "id"), ({"id": 1.5}, "id"),
    ({"scope": "a\nb"}, "scope"), ({"scope": "a\x1b[2Jb"}, "scope"), ({"scope": "x" * 300}, "scope"),
    ({"text": "\u200b\u200d\ufeff"}, "text"), ({"text": "\ud800"}, "text"),
    ({"speaker": "\x07bell"}, "speaker"), ({"at": "9999-12-31T23:59:59-05:00"}, "at"),
    ({"at": 1e300}, "at"), ({"role": None}, "role"),
])
def test_bad_field_is_named(mem, tmp_path, over, field):
    f = tmp_path / "c.jsonl"
    f.write_text(_line(0) + "\n" + _line(1, **over) + "\n")
    report = mem.import_file(f, strict=True)
    (line, message), = report.errors
    assert line == 2 and message.startswith(f"line 2: {field}: "), message
    assert _messages(mem) == 0


def test_deep_nesting_is_a_clear_error(mem, tmp_path):
    f = tmp_path / "deep.jsonl"
    f.write_text(_line(0) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    (line, message), = mem.import_file(f).errors
    assert line == 2 and "nested deeper than 64 levels" in message


def test_integer_id_is_accepted_as_text(mem, tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text(_line(0, id=7) + "\n")
    assert mem.import_file(f).imported == 1
    assert mem.import_file(f).skipped_duplicates == 1


junk_line = st.one_of(
    st.binary(max_size=60),
    st.text(max_size=60).map(str.encode),
    st.builds(lambda d: json.dumps(d).encode(), st.dictionaries(
        st.sampled_from(["scope", "role", "text", "at", "id", "speaker", "agent", "project", "x"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                  st.sampled_from(["user", "s", "2024-01-01T00:00:00Z", "9999-12-31T23:59:59-05:00"]),
                  st.lists(st.integers(), max_size=2)),
        max_size=8)),
    st.just(_line(5).encode()),
    st.just(b"[" * 5000),
    st.integers(4200, 6000).map(lambda n: json.dumps({**GOOD, "id": 0}).replace(
        '"id": 0', '"id": ' + "7" * n).encode()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(junk_line, max_size=8), strict=st.booleans())
def test_any_bytes_give_a_report_never_a_traceback(tmp_path_factory, lines, strict):
    path = tmp_path_factory.mktemp("imp") / "m.db"
    mem = memory(path)
    try:
        before = _messages(mem)
        try:
            report = mem.import_file(io.BytesIO(b"\n".join(lines)), strict=strict)
        except MemlaneError:
            report = None
        after = _messages(mem)
        if report is not None and report.errors and strict:
            assert after == before  # strict: a bad file changes nothing
        if report is not None:
            assert after - before == report.imported
    finally:
        mem.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_nesting_is_measured_without_recursion():
    from memlane.ingest.validate import json_nesting, value_nesting

    assert json_nesting('{"text": "' + "[" * 500 + '"}') == 1  # brackets in a string do not nest
    assert json_nesting('{"text": "a \\" [[[' + "[" * 100 + '"}') <= 1
    assert json_nesting("[" * 100_000) > 64
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert value_nesting(deep) > 64 and value_nesting({"a": [1, {"b": 2}]}) == 3


def test_a_deep_line_leaves_the_interpreter_able_to_compile(mem, tmp_path):
    f = tmp_path / "deep.jsonl"
    f.write_text("[" * 200_000 + "\n" + '{"a": ' * 100_000 + "\n")
    report = mem.import_file(f)
    assert report.errors[0][0] == 1
    compile("x = " + "(" * 50 + "1" + ")" * 50, "check", "exec")  # CPython bookkeeping intact


@pytest.mark.parametrize("field", ["id", "at", "text"])
def test_an_integer_past_pythons_digit_limit_is_a_line_error(mem, tmp_path, field):
    """Valid JSON that json.loads refuses with ValueError (not JSONDecodeError): the line
    is named, the lines before it are kept."""
    huge = "9" * 5000
    f = tmp_path / "big.jsonl"
    f.write_text(_line(0) + "\n" + _line(1).replace('"text": "message 1"', f'"{field}": {huge}', 1)
                 .replace(f'"{field}": "2024-01-01T00:01:00Z"', f'"{field}": {huge}') + "\n")
    report = mem.import_file(f)
    (line, message), = report.errors
    assert line == 2 and "line 2:" in message and "4300 digits" in message
    assert report.imported == 1 and _messages(mem) == 1


@pytest.mark.parametrize("field", ["role", "text", "at", "scope"])
@pytest.mark.parametrize("how", ["absent", "null"])
def test_a_required_field_absent_or_null_is_named_missing(mem, tmp_path, field, how):
    """"at": null was imported at the time of the import, and so stored again by each
    re-import (its content id holds the time); other nulls read 'got NoneType'."""
    row = json.loads(_line(1))
    if how == "absent":
        del row[field]
    else:
        row[field] = None
    f = tmp_path / "c.jsonl"
    f.write_text(_line(0) + "\n" + json.dumps(row) + "\n")
    for _ in range(2):
        report = mem.import_file(f)
        (line, message), = report.errors
        assert line == 2 and message.startswith(f"line 2: {field}: missing (required"), message
    assert _messages(mem) == 1


def test_a_null_scope_takes_the_default_scope(mem, tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text(_line(0, scope=None) + "\n")
    assert mem.import_file(f, scope="fallback").imported == 1
    assert [s.scope for s in mem.sessions()] == ["fallback"]
    assert mem.import_file(f, scope="fallback").skipped_duplicates == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.fixed_dictionaries({}, optional={
    "scope": st.one_of(st.none(), st.just("s")), "role": st.one_of(st.none(), st.just("user")),
    "text": st.one_of(st.none(), st.just("hi")),
    "at": st.one_of(st.none(), st.just("2024-01-01T00:00:00Z"))}), min_size=1, max_size=5))
def test_reimporting_any_file_stores_nothing_new(tmp_path_factory, rows):
    """Whatever a file holds, a second import of it adds no message."""
    path = tmp_path_factory.mktemp("re") / "m.db"
    data = io.BytesIO("\n".join(json.dumps(r) for r in rows).encode())
    with memory(path) as mem:
        mem.import_file(data)
        first = _messages(mem)
        data.seek(0)
        mem.import_file(data)
        assert _messages(mem) == first
