"""The cursor on the CLI and MCP (session 28): ``memlane facts list`` / ``sessions list``
and the MCP ``facts`` / ``sessions`` tools paged by offset only, so a fact added before the
page reached repeated the page's edge. Their "more follow" hints now name the cursor too,
and following it reads on after the last row shown, whatever was added before it."""

from __future__ import annotations

import json
import re
import shlex

from mcp import Client

from memlane.testing import memory
from tests.serve.test_mcp import call, server, talk


def _facts(mem, names, obj="v", at="2024-01-02T00:00:00Z") -> list[int]:
    return [mem.add_fact("user", name, obj, scope="s", at=at).fact_id for name in names]


def test_the_cli_hint_names_a_cursor_that_facts_added_meanwhile_do_not_shift(cli_run, tmp_path):
    with memory(tmp_path / "cli.db") as mem:
        first = _facts(mem, [f"trait {i}" for i in range(5)])
    out = cli_run("facts", "list", "--scope", "s", "--limit", "3", "--json")
    assert [f["id"] for f in json.loads(out.stdout)] == first[:3]
    hint = re.search(r"memlane facts list .*--cursor \S+", out.stderr)
    assert hint is not None and "--offset 3" in out.stderr, out.stderr
    with memory(tmp_path / "cli.db") as mem:
        _facts(mem, ["a trait"])  # sorts before every one shown: an offset would repeat one
    rest = cli_run(*shlex.split(hint.group(0))[1:], "--json")
    assert [f["id"] for f in json.loads(rest.stdout)] == first[3:]
    both = cli_run(*shlex.split(hint.group(0))[1:], "--offset", "3", code=2)
    assert "cursor" in both.stderr
    bad = cli_run("sessions", "list", "--cursor", "nonsense", code=2)
    assert "cursor" in bad.stderr


def test_the_mcp_answers_name_a_cursor_that_rows_added_meanwhile_do_not_shift(tmp_path):
    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        # long values: the answer stops at its length before the page's end (both the
        # page's end and the answer's length name where to read on)
        first = _facts(mem, [f"trait {i:03d}" for i in range(100)], obj="v" * 900)
        for day in range(1, 4):
            mem.add_message("s", "user", f"hello {day}", at=f"2024-03-0{day}T00:00:00Z")
            mem.close_session("s")
    answers: list[str] = []

    async def body(c: Client) -> None:
        page = await call(c, "facts", {"scope": "s"})
        answers.append(page)
        cursor = re.search(r'or cursor "([^"]+)"', page)
        assert cursor is not None, page
        with memory(db) as mem:
            _facts(mem, ["a trait"])
        answers.append(await call(c, "facts", {"scope": "s", "cursor": cursor[1]}))
        sessions = await call(c, "sessions", {"scope": "s", "limit": 2})
        cursor = re.search(r'or cursor "([^"]+)"', sessions)
        assert cursor is not None, sessions
        older = await call(c, "sessions", {"scope": "s", "limit": 2, "cursor": cursor[1]})
        assert "1 session(s) in scope s, newest first after the cursor" in older, older
        answers.append(await call(c, "facts", {"scope": "s", "cursor": "made-up"}, error=True))

    talk(server(tmp_path, db), body)
    shown = [int(i) for a in answers[:2] for i in re.findall(r"^fact (\d+) ·", a, re.M)]
    assert sorted(shown) == first and len(shown) == len(set(shown)), answers[:2]
    assert "cursor" in answers[2]
