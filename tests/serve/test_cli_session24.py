"""Session 24's walk of the command line as a new user: an import's bad line named by its
field and line in ``--json``; one exit status and one wording for a bad option value on
every command (introspected: every numeric option of every command)."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize(("line", "field"), [
    ('{"scope": "s", "role": "robot", "text": "x", "at": "2024-01-01T00:00:00Z"}', "role"),
    ('{"scope": "s", "role": "user", "text": "x", "at": "soon"}', "at"),
    ('{"scope": "s", "role": "user", "at": "2024-01-01T00:00:00Z"}', "text"),
    ('{"scope": "s", "role": "user", "text": "x", "at": "2024-01-01T00:00:00Z", "colour": 1}',
     "colour"),
    ('{"scope": "s", "role": "user", "text": "x"', None),  # not JSON: the line as a whole
])
def test_a_bad_import_line_is_named_by_its_field_and_line_in_json(cli_run, tmp_path, line, field):
    """``import --json`` named ``field: "file"`` whatever was wrong; the field and the line
    were only in the message."""
    f = tmp_path / "bad.jsonl"
    good = '{"scope": "s", "role": "user", "text": "ok", "at": "2024-01-01T00:00:00Z"}'
    f.write_text(f"{good}\n{line}\n", encoding="utf-8")
    data = json.loads(cli_run("import", str(f), "--json", code=1).stdout)
    assert data["error"]["field"] == field, data
    assert data["line"] == 2 and data["report"]["errors"][0][0] == 2
    assert data["report"]["error_field"] == field
