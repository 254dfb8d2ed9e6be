"""Import files as they come from other tools (session 21): an id given to two different
messages, a field given twice, RFC 3339 times (lowercase ``t``/``z``, a leap second), lines
ending in CR alone; and a property over the accepted formats (JSON Lines or a JSON list,
LF/CRLF, a BOM, a last line without its newline, every ISO-8601 spelling of a time)."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.cli_export import export_lines
from memlane.testing import memory

GOOD = {"scope": "s", "role": "user", "text": "hello", "at": "2024-01-01T00:00:00Z"}


def _texts(mem) -> list[str]:
    return [row["text"] for row in export_lines(mem)]


def _file(*rows: dict) -> io.BytesIO:
    return io.BytesIO("".join(json.dumps(r) + "\n" for r in rows).encode())


@pytest.mark.parametrize("strict", [False, True])
def test_one_id_for_two_messages_names_both_lines(mem, strict):
    """The second of two lines sharing an id was counted as "already stored" and dropped:
    a message lost without a word."""
    mem.add_message("s", "user", "stored before", "2023-12-31T00:00:00Z")
    f = _file(dict(GOOD, text="a", id="m-1"), dict(GOOD, text="b", id="m-2"),
              dict(GOOD, text="c", id="m-1"))
    report = mem.import_file(f, strict=strict)
    (line, message), = report.errors
    assert line == 3 and "id: 'm-1' is line 1's id too, with another message" in message
    assert _texts(mem) == ["stored before"] + ([] if strict else ["a", "b"])


def test_the_same_line_twice_is_a_duplicate_not_an_error(mem):
    row = dict(GOOD, id=7)
    report = mem.import_file(_file(row, dict(GOOD, text="x", at="2024-01-01T00:01:00Z"), row))
    assert not report.errors and report.imported == 2 and report.skipped_duplicates == 1


def test_an_id_is_per_scope(mem):
    report = mem.import_file(_file(dict(GOOD, id="m"), dict(GOOD, scope="t", text="b", id="m")))
    assert not report.errors and report.imported == 2


def test_the_cli_exits_non_zero_naming_the_line_and_field(cli_run, tmp_path):
    f = tmp_path / "chat.jsonl"
    f.write_bytes(_file(dict(GOOD, id="m-1"), dict(GOOD, text="other", id="m-1")).getvalue())
    out = cli_run("import", str(f), code=1).output
    assert "line 2: id: 'm-1' is line 1's id too" in out, out
    error = json.loads(cli_run("import", str(f), "--json", code=1).stdout)["error"]
    assert error["field"] == "file" or error["field"] == "id"


@pytest.mark.parametrize(("raw", "field"), [
    ('{"scope": "s", "role": "user", "text": "a", "text": "b", "at": "2024-01-01T00:00:00Z"}', "text"),
    ('{"scope": "s", "role": "user", "text": "a", "at": "2024-01-01T00:00:00Z", "at": 0}', "at"),
    ('{"scope": "s", "role": "user", "text": "a", "at": "2024-01-01T00:00:00Z", "x": 1, "x": 2}', None),
])
def test_a_field_given_twice_is_an_error_naming_it(mem, raw, field):
    """The last value won without a word (the file's writer meant one of them)."""
    for data in (raw, f"[{raw}]"):
        (line, message), = mem.import_file(io.StringIO(data + "\n")).errors
        name = field or "x"
        assert line == 1 and f"{name}: given twice in one object" in message
    assert _texts(mem) == []


@pytest.mark.parametrize(("at", "stored"), [
    ("2016-12-31T23:59:60Z", datetime(2017, 1, 1, tzinfo=UTC)),            # a leap second
    ("2016-12-31T23:59:60.250+00:00", datetime(2017, 1, 1, 0, 0, 0, 250000, tzinfo=UTC)),
    ("2015-07-01t08:59:60+09:00", datetime(2015, 7, 1, tzinfo=UTC)),
    ("2024-05-01t14:30:00z", datetime(2024, 5, 1, 14, 30, tzinfo=UTC)),    # RFC 3339 lowercase
])
def test_rfc3339_times_are_read(mem, at, stored):
    """RFC 3339 (what most logs write) allows a lowercase t and z and a leap second: each was
    refused as "not an ISO-8601 time"."""
    report = mem.import_file(_file(dict(GOOD, at=at)))
    assert not report.errors, report
    (row,) = export_lines(mem)
    assert datetime.fromisoformat(row["at"]) == stored


@pytest.mark.parametrize("at", ["2016-12-31T23:59:61Z", "2024-01-01T10:60:00Z", "2024-13-01",
                                "2024-01-01T24:00:60Z"])
def test_what_is_no_time_is_still_refused(mem, at):
    (line, message), = mem.import_file(_file(dict(GOOD, at=at))).errors
    assert line == 1 and "at:" in message


def test_lines_ending_in_cr_alone_say_so(mem):
    data = "\r".join(json.dumps(dict(GOOD, text=t)) for t in "ab").encode()
    (line, message), = mem.import_file(io.BytesIO(data)).errors
    assert line == 1 and "end in CR alone" in message


# -- the accepted formats, as a property --------------------------------------------------

_ZONES = [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8)),
          timezone(timedelta(hours=14))]


@st.composite
def _written_time(draw: st.DrawFn) -> tuple[str, datetime]:
    """A time as a file writes it (any ISO-8601 spelling memlane reads) and its UTC value."""
    # the past: a time more than ingest.max_future_minutes ahead is refused (test_clocks.py)
    when = draw(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2025, 1, 1)))
    when = when.replace(microsecond=draw(st.sampled_from([0, when.microsecond])))
    zone = draw(st.sampled_from([None, *_ZONES]))
    local = when if zone is None else when.replace(tzinfo=zone)
    text = local.isoformat(sep=draw(st.sampled_from(["T", " ", "t"])))
    if zone is UTC and draw(st.booleans()):
        text = text.replace("+00:00", draw(st.sampled_from(["Z", "z"])))
    utc = (local if zone is not None else local.replace(tzinfo=UTC)).astimezone(UTC)
    return text, utc


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Cf")), min_size=1,
                max_size=40).filter(lambda t: t.strip() and not t.isspace())


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rows=st.lists(st.tuples(st.sampled_from(["s", "t", "chat 42"]),
                               st.sampled_from(["user", "assistant", "system", "tool", " User "]),
                               _TEXT, _written_time(), st.one_of(st.none(), st.integers(1, 10**6))),
                     min_size=1, max_size=12),
       form=st.sampled_from(["jsonl", "list"]), newline=st.sampled_from(["\n", "\r\n"]),
       bom=st.booleans(), last_newline=st.booleans(), strict=st.booleans(),
       bad_at=st.one_of(st.none(), st.integers(0, 11)))
def test_any_accepted_file_imports_exactly_its_messages(tmp_path_factory, rows, form, newline,
                                                        bom, last_newline, strict, bad_at):
    """Every message of a file in an accepted format is stored once with its UTC time;
    a second import stores nothing; a bad line stops it naming that line, keeping the lines
    before it (none with ``strict``) and whatever was stored before."""
    seen_ids: set[tuple[str, int]] = set()
    objs = []
    for scope, role, text, (at, utc), mid in rows:
        obj = {"scope": scope, "role": role, "text": text, "at": at}
        if mid is not None and (scope, mid) not in seen_ids:
            seen_ids.add((scope, mid))
            obj["id"] = mid
        objs.append((obj, utc))
    bad = None if bad_at is None or bad_at >= len(objs) else bad_at
    if bad is not None:
        objs[bad] = (dict(objs[bad][0], role="robot"), objs[bad][1])
    if form == "jsonl":
        lines = [json.dumps(o, ensure_ascii=False) for o, _ in objs]
        bad_line = None if bad is None else bad + 1
    else:
        lines = ["["] + [json.dumps(o, ensure_ascii=False) + ("," if i < len(objs) - 1 else "")
                         for i, (o, _) in enumerate(objs)] + ["]"]
        bad_line = None if bad is None else bad + 2
    data = newline.join(lines) + (newline if last_newline else "")
    raw = ("\ufeff" if bom else "").encode() + data.encode()

    path = tmp_path_factory.mktemp("formats") / "m.db"
    with memory(path) as mem:
        mem.add_message("before", "user", "already here", "2020-01-01T00:00:00Z")
        report = mem.import_file(io.BytesIO(raw), strict=strict)
        kept = objs if bad is None else ([] if strict else objs[:bad])
        if bad is None:
            assert not report.errors, report
        else:
            (line, message), = report.errors
            assert line == bad_line and "role: must be one of" in message, report
        stored = [r for r in export_lines(mem) if r["scope"] != "before"]
        assert len(stored) == len(kept) == report.imported
        by_text: dict[tuple[str, str], list[datetime]] = {}
        for r in stored:
            by_text.setdefault((r["scope"], r["text"]), []).append(datetime.fromisoformat(r["at"]))
        for o, utc in kept:
            assert utc in by_text[(o["scope"], o["text"].replace("\x00", ""))]
        assert [r["text"] for r in export_lines(mem, "before")] == ["already here"]
        again = mem.import_file(io.BytesIO(raw), strict=strict)
        assert again.imported == 0
