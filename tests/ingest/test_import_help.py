"""``memlane import --help`` names every field a line may carry (session 28's second review:
it named ``id``, ``speaker`` and ``session`` only, not ``agent``, ``project`` nor the fields
``memlane export`` writes since session 28: ``closed``, ``session_agent``,
``session_project``, ``participants``)."""

from __future__ import annotations

from typing import Any

from memlane.ingest.importer import _FIELDS


def test_import_help_names_every_field_a_line_may_carry(cli_run: Any) -> None:
    text = " ".join(cli_run("import", "--help").output.split())
    missing = sorted(f for f in _FIELDS if f'"{f}"' not in text)
    assert not missing, f"import --help does not name {missing}"
