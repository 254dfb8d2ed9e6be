"""``memlane import`` reads the JSON list ``memlane export --json`` writes, as well as JSON
Lines (session 20: a backup taken with ``export --json`` was refused, "line 1: column 1:
not valid JSON"), with the same checks: a bad item stops the import naming its line, its
place in the list and its field; the items before it stay stored; ``--strict`` stores none."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ImportFormatError
from memlane.ingest.importer import parse_lines

CFG = load_config(environ={}).ingest
GOOD = {"scope": "s", "role": "user", "text": "hello", "at": "2024-01-01T00:00:00Z"}


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _stored(cli_run) -> list[str]:
    return [json.loads(line)["text"] for line in cli_run("export").stdout.splitlines()]


def test_a_bad_item_names_its_line_item_and_field_and_keeps_the_items_before(cli_run, tmp_path):
    rows = [dict(GOOD, text=f"message {i}") for i in range(3)]
    rows[2]["role"] = "robot"
    f = tmp_path / "backup.json"
    f.write_text(json.dumps(rows, indent=2))
    out = cli_run("import", str(f), code=1).output
    assert "line 14: list item 3: role: must be one of" in out, out
    assert "the 2 message(s) before it were kept" in out
    assert _stored(cli_run) == ["message 0", "message 1"]
    report = json.loads(cli_run("import", str(f), "--json", code=1).stdout)
    assert report["error"]["field"] == "role" and report["line"] == 14 and report["report"]["skipped_duplicates"] == 2


def test_strict_stores_nothing_of_a_list_with_a_bad_item(cli_run, tmp_path):
    f = tmp_path / "backup.json"
    f.write_text(json.dumps([GOOD, dict(GOOD, text="   ")]))
    out = cli_run("import", str(f), "--strict", code=1).output
    assert "line 1: list item 2: text: must not be empty" in out and "nothing was imported" in out
    cli_run("add", "--scope", "other", "x")
    assert _stored(cli_run) == ["x"]


@pytest.mark.parametrize(("text", "needle"), [
    ('[{"scope": "s", "role": "user", "text": "a", "at": "2024-01-01T00:00:00Z"}',
     "line 1: the JSON list is cut short (no closing ])"),
    ('[\n' + json.dumps(GOOD) + '\n' + json.dumps(GOOD) + ']',
     "line 3: list item 1: expected , or ] after it"),
    ('[\n' + json.dumps(GOOD) + ',\n{"scope": "s",,}]',
     "line 3: list item 2: column 15: not valid JSON"),
    ('[' + json.dumps(GOOD) + '] trailing', "line 1: text after the JSON list's closing ]"),
    ('[' + json.dumps(GOOD) + ', [1]]', "line 1: list item 2: expected a JSON object"),
    ('[' + json.dumps(GOOD) + ', ' + "[" * 300 + "]" * 300 + ']', "line 1: JSON nested deeper"),
])
def test_a_malformed_list_is_an_error_naming_where(text, needle):
    with pytest.raises(ImportFormatError) as e:
        list(parse_lines(_lines(text), CFG))
    assert needle in str(e.value), str(e.value)


def test_an_empty_list_imports_nothing(cli_run, tmp_path):
    f = tmp_path / "empty.json"
    f.write_text("  [\n]\n")
    assert "imported 0 message(s)" in cli_run("import", str(f)).stdout


values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
objects = st.fixed_dictionaries(
    {"scope": st.sampled_from(["s", "t"]), "role": st.sampled_from(["user", "assistant", "bot"]),
     "text": st.text(max_size=12), "at": st.sampled_from(["2024-01-01T00:00:00Z", "soon", 5])},
    optional={"id": st.integers(-3, 3) | st.text(max_size=4), "speaker": values, "extra": values})


def _outcome(lines: list[str]) -> tuple[list[tuple[int, object]], str | None]:
    """The messages parsed (as their index in the input) and the error's text without its
    line number, which differs between the two layouts."""
    got = []
    try:
        for _, msg in parse_lines(lines, CFG):
            got.append((msg.scope, msg.role, msg.text, msg.at, msg.ext_id, msg.speaker))
    except ImportFormatError as e:
        return got, str(e).split(": ", 1)[1].removeprefix(f"list item {len(got) + 1}: ")
    return got, None


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(objects | values.filter(lambda v: not isinstance(v, list)), max_size=6),
       indent=st.sampled_from([None, 2]))
def test_a_json_list_reads_as_the_same_objects_one_a_line(rows, indent):
    """Whatever the objects (good, bad, not objects at all), a list of them and the same
    objects as JSON Lines give the same messages and stop at the same one with the same
    error. (A first line that is itself a list is read as the file's list.)"""
    as_lines = [json.dumps(r) + "\n" for r in rows]
    as_list = _lines(json.dumps(rows, indent=indent))
    assert _outcome(as_list) == _outcome(as_lines)
