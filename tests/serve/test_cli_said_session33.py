"""Three things the command line (and the library, MCP) did without a word, made to say
them (session 33, ux33b; docs/hardening.md): ``search --flat --top-sessions 3`` ranked
flat and dropped the option; ``add TEXT --id ID`` of a message already stored said
"message N added"; an import stopped by a bad line said "the N message(s) before it were
kept" of lines it had skipped as already stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.retrieve.presets import PRESETS
from memlane.serve.cli import cli
from memlane.testing import memory

SESSION_OPTIONS = ("top_sessions", "turns_per_session")  # what only session-aware ranking reads
FLAT_PRESETS = sorted(n for n, p in PRESETS.items() if p.session_aware is False)
SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "m.db"
    with memory(path) as mem:
        mem.add_message("chat", "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@SETTINGS
@given(options=st.lists(st.sampled_from(SESSION_OPTIONS), min_size=1, unique=True),
       preset=st.sampled_from([None, *FLAT_PRESETS]),
       aware=st.sampled_from([None, True, False]), value=st.integers(1, 1000))
def test_session_options_with_flat_ranking_are_refused_naming_both(
        db: str, options: list[str], preset: str | None, aware: bool | None, value: int) -> None:
    flat_by = "session_aware" if aware is False else "preset" if preset else None
    args = ["--db", db, "search", "Lisbon", "--json"]
    args += [a for o in options for a in ("--" + o.replace("_", "-"), str(value))]
    args += ["--preset", preset] if preset else []
    args += [] if aware is None else ["--session-aware" if aware else "--flat"]
    got = CliRunner().invoke(cli, args)
    kwargs = {o: value for o in options}
    with memory(db) as mem:
        if flat_by is None:  # session-aware: the options are taken, as before
            assert got.exit_code == 0, got.output
            assert mem.search("Lisbon", preset=preset, session_aware=aware, **kwargs)
            return
        with pytest.raises(ValidationError) as refused:
            mem.search("Lisbon", preset=preset, session_aware=aware, **kwargs)
    option = next(o for o in SESSION_OPTIONS if o in options)
    flag = "--" + option.replace("_", "-")
    off = "--flat" if flat_by == "session_aware" else f"--preset {preset}"
    assert got.exit_code == 2, got.output
    assert json.loads(got.stdout)["error"] == {
        "code": "usage", "field": flag,
        "message": f"{flag} goes with session-aware ranking, and {off} ranks flat: drop one "
                   "of them"}
    said = "session_aware=False" if flat_by == "session_aware" else f"preset {preset!r}"
    assert refused.value.field == option
    assert str(refused.value) == (f"{option}: {option} goes with session-aware ranking, and "
                                  f"{said} ranks flat: drop one of them")


def test_a_configured_flat_ranking_takes_the_options_without_a_refusal(db: str) -> None:
    """Flat ranking the configuration chose is not the call's: a client sending the same
    options to every deployment is answered (since session 36 the options rank
    session-aware there: tests/serve/test_fix36_session_options.py)."""
    with memory(db, retrieval={"session_aware": False}) as mem:
        assert mem.search("Lisbon", top_sessions=2, turns_per_session=2)
    with memory(db, retrieval={"preset": "lexical"}) as mem:
        assert mem.search("Lisbon", top_sessions=2)


@SETTINGS
@given(text=st.text(st.characters(codec="utf-8", categories=["L", "N", "Zs"]), min_size=1,
                    max_size=40).filter(str.strip),
       at=st.sampled_from([None, "2024-05-01T10:00:00Z"]), attempts=st.integers(2, 3))
def test_add_of_a_message_already_stored_says_so(tmp_path_factory: pytest.TempPathFactory,
                                                  text: str, at: str | None,
                                                  attempts: int) -> None:
    db = str(tmp_path_factory.mktemp("add") / "m.db")
    args = ["--db", db, "add", text, "--scope", "chat", "--id", "m-1"] + (["--at", at] if at else [])
    outs = [CliRunner().invoke(cli, args) for _ in range(attempts)]
    assert all(o.exit_code == 0 for o in outs), [o.output for o in outs]
    first, *again = [o.stdout for o in outs]
    assert first == "message 1 added to session 1 (turn 1)\n"
    assert again == ["message 1 is already stored under id 'm-1', in session 1 (turn 1): "
                     "nothing added\n"] * (attempts - 1)
    other = CliRunner().invoke(cli, ["--db", db, "add", "x" + text, "--scope", "chat", "--id", "m-2"])
    assert other.stdout.startswith("message 2 added to session "), other.output
    with memory(db) as mem:
        assert mem.stats()["messages"] == 2


@SETTINGS
@given(lines=st.lists(st.booleans(), max_size=6), strict=st.booleans())
def test_an_import_stopped_by_a_bad_line_says_what_it_stored_and_skipped(
        tmp_path_factory: pytest.TempPathFactory, lines: list[bool], strict: bool) -> None:
    """``lines``: before the bad line, a message already stored (True) or a new one."""
    folder = tmp_path_factory.mktemp("import")
    db = str(folder / "m.db")
    rows = [{"scope": "chat", "role": "user", "text": f"message {i}", "id": f"m-{i}",
             "at": f"2024-01-01T10:{i:02d}:00Z"} for i in range(len(lines))]
    with memory(db) as mem:
        for row, stored in zip(rows, lines, strict=True):
            if stored:
                mem.add_message(row["scope"], row["role"], row["text"], row["at"], id=row["id"])
        before = mem.stats()["messages"]
    file = folder / "f.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"scope": "chat", "text": 5}\n')
    got = CliRunner().invoke(cli, ["--db", db, "import", str(file)] + (["--strict"] if strict else []))
    assert got.exit_code == 1
    new, dupes = (0, 0) if strict else (lines.count(False), lines.count(True))
    with memory(db) as mem:
        assert mem.stats()["messages"] == before + new
    said = got.stderr.rstrip("\n").rsplit(" (", 1)[1]
    if not new + dupes:
        assert said == "nothing was imported)"
    elif not dupes:
        assert said == f"the {new} message(s) before it were kept)"
    elif not new:
        assert said == f"the {dupes} message(s) before it were already stored: skipped, nothing stored)"
    else:
        assert said == (f"of the {new + dupes} message(s) before it, {new} were stored and {dupes} "
                        "skipped as already stored)")
