"""A refusal says what to change (session 33, from ux33's walk): a text over the length
limit named the limit but not the setting that sets it (``ingest.max_message_chars``), and
``since`` after ``until`` named neither value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.serve.cli import cli
from memlane.store.filters import Filters
from memlane.testing import memory
from memlane.types import PRIVACIES

LIMIT = 50


@settings(max_examples=25, deadline=None)
@given(over=st.integers(1, 500), surface=st.sampled_from(["message", "upsert", "extra"]))
def test_every_text_over_the_limit_names_the_setting(tmp_path_factory: pytest.TempPathFactory,
                                                     over: int, surface: str) -> None:
    db = tmp_path_factory.mktemp("m") / "m.db"
    with memory(str(db), ingest={"max_message_chars": LIMIT}) as mem:
        with pytest.raises(ValidationError) as e:
            if surface == "message":
                mem.add_message("s", "user", "a" * (LIMIT + over))
            elif surface == "upsert":
                mem.upsert("b" * (LIMIT + over), scope="s")
            else:
                mem.upsert("short note", scope="s", extra={"k": "c" * (LIMIT + over)})
        assert f"over the limit of {LIMIT} (ingest.max_message_chars)" in str(e.value), e.value
        # nothing stored
        assert not mem.store.filter_ids(Filters.build(scope="s", privacy=PRIVACIES))
        assert not mem.sessions(scope="s")


@settings(max_examples=25, deadline=None)
@given(days=st.integers(1, 3000))
def test_since_after_until_names_both_values(tmp_path_factory: pytest.TempPathFactory,
                                             days: int) -> None:
    from datetime import UTC, datetime, timedelta

    until = datetime(2024, 1, 1, tzinfo=UTC)
    since = until + timedelta(days=days)
    db = tmp_path_factory.mktemp("m") / "m.db"
    with memory(str(db)) as mem:
        mem.add_message("s", "user", "hello there")
        with pytest.raises(ValidationError) as e:
            mem.search("hello", scope="s", since=since.isoformat(), until=until.isoformat())
    said = str(e.value)
    assert said.startswith("since: must not be after until"), said
    assert f"since {since:%Y-%m-%dT%H:%M:%S}Z" in said and "until 2024-01-01T00:00:00Z" in said, said


def test_the_cli_says_both(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    runner = CliRunner()
    env = {"MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_INGEST_MAX_MESSAGE_CHARS": str(LIMIT)}
    out = runner.invoke(cli, ["--db", str(db), "add", "x" * (LIMIT + 1), "--scope", "s"], env=env)
    assert out.exit_code != 0 and "(ingest.max_message_chars)" in out.output, out.output
    runner.invoke(cli, ["--db", str(db), "add", "hello", "--scope", "s"], env=env)
    out = runner.invoke(cli, ["--db", str(db), "search", "hello", "--scope", "s", "--since",
                              "2025-01-01", "--until", "2024-01-01", "--json"], env=env)
    assert out.exit_code != 0, out.output
    said = json.dumps(out.output)
    assert "2025-01-01T00:00:00Z" in said and "2024-01-01T00:00:00Z" in said, out.output
