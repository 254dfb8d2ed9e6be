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


def _listed(answer: str, what: str) -> list[int]:
    return [int(i) for i in re.findall(rf"^{what} (\d+) ·", answer, re.M)]


def test_the_mcp_answers_name_a_page_back_that_joins_the_page(tmp_path):
    """Session 29: an answer past the first page names the ``before`` that reads the page
    just before it (sessions read on by cursor, facts from an offset); following it lists
    that page again, which names none; a ``before`` memlane did not give, or one beside
    ``offset``, is a tool error naming ``before``."""
    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        _facts(mem, [f"trait {i}" for i in range(5)])
        for day in range(1, 6):
            mem.add_message("s", "user", f"hello {day}", at=f"2024-03-0{day}T00:00:00Z")
            mem.close_session("s")
    answers: dict[str, str] = {}

    async def body(c: Client) -> None:
        answers["first"] = await call(c, "sessions", {"scope": "s", "limit": 2})
        cursor = re.search(r'or cursor "([^"]+)"', answers["first"])
        assert cursor is not None, answers["first"]
        answers["second"] = await call(c, "sessions",
                                       {"scope": "s", "limit": 2, "cursor": cursor[1]})
        before = re.search(r'newer sessions come before: call sessions with before "([^"]+)"',
                           answers["second"])
        assert before is not None, answers["second"]
        answers["back"] = await call(c, "sessions", {"scope": "s", "limit": 2,
                                                     "before": before[1]})
        answers["facts"] = await call(c, "facts", {"scope": "s", "offset": 3})
        before = re.search(r'earlier facts come before: call facts with before "([^"]+)"',
                           answers["facts"])
        assert before is not None, answers["facts"]
        answers["facts back"] = await call(c, "facts", {"scope": "s", "before": before[1]})
        answers["bad"] = await call(c, "sessions", {"scope": "s", "before": "made-up"},
                                    error=True)
        answers["both"] = await call(c, "facts", {"scope": "s", "before": before[1],
                                                  "offset": 1}, error=True)

    talk(server(tmp_path, db), body)
    assert "come before" not in answers["first"]
    assert _listed(answers["back"], "session") == _listed(answers["first"], "session")
    assert "come before" not in answers["back"] and "before the cursor" in answers["back"]
    assert len(_listed(answers["second"], "session")) == 2
    facts_back = _listed(answers["facts back"], "fact")
    assert len(facts_back) == 3 and not set(facts_back) & set(_listed(answers["facts"], "fact"))
    assert "come before" not in answers["facts back"]
    assert ": before: not a cursor" in answers["bad"], answers["bad"]
    assert ": before: pass before, cursor or offset" in answers["both"], answers["both"]


def test_the_cli_hint_names_a_page_back_that_joins_the_page(cli_run, tmp_path):
    """Session 29: past the first page, ``sessions list`` and ``facts list`` give on standard
    error the command that reads the page before (``--before``); it lists the page the
    reader came from, and no page back of its own. A bad ``--before``, or one with
    ``--offset`` or ``--cursor``, is a usage error naming ``--before`` (exit 2)."""
    with memory(tmp_path / "cli.db") as mem:
        facts = _facts(mem, [f"trait {i}" for i in range(5)])
        for day in range(1, 6):
            mem.add_message("s", "user", f"hello {day}", at=f"2024-03-0{day}T00:00:00Z")
            mem.close_session("s")
    for command, first_ids in (("sessions", None), ("facts", facts[:2])):
        first = cli_run(command, "list", "--scope", "s", "--limit", "2", "--json")
        assert "--before" not in first.stderr, first.stderr
        ids = [row["id"] for row in json.loads(first.stdout)]
        assert first_ids is None or ids == first_ids
        on = re.search(rf"memlane {command} list .*--cursor \S+", first.stderr)
        assert on is not None, first.stderr
        second = cli_run(*shlex.split(on.group(0))[1:], "--json")
        back = re.search(rf"memlane {command} list .*--before \S+", second.stderr)
        assert back is not None, second.stderr
        again = cli_run(*shlex.split(back.group(0))[1:], "--json")
        assert [row["id"] for row in json.loads(again.stdout)] == ids
        assert "--before" not in again.stderr, again.stderr
        good = shlex.split(back.group(0))[-1]
        for extra in (["--before", "nonsense"], ["--before", good, "--offset", "2"],
                      ["--before", good, "--cursor", good]):
            bad = cli_run(command, "list", "--scope", "s", *extra, code=2)
            assert "'--before'" in bad.stderr, bad.stderr
