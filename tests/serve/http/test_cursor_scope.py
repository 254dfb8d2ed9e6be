"""A cursor reads on in the listing that gave it (session 29).

A sessions cursor named its row's start and id, a facts cursor its row's scope, subject,
predicate, time and id; neither was checked against the listing it was given to. Given to
another scope's listing (a client paging two scopes that mixed up its cursors), a sessions
cursor of scope "alpha" skipped scope "beta"'s sessions newer than its row, and a facts
cursor of "beta" given to "alpha" (or of subject "Bob" given to "Ann") listed nothing, both
as a 200: the client took it for the listing's end. Drawn: two listings' filters (scopes
and subjects in several spellings, none), a real service on each store: the second
listing's page by the first's cursor is a 400 naming ``cursor`` unless both filters name
one listing (one scope however spelled, one subject by its key), and then it is the page
the offset gives."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.index.normalize import subject_key
from memlane.ingest.validate import canonical_scope

# "café" composed and not: one scope; subjects "José"/"Jose"/"JOSÉ" one key, "I" the user's
SCOPES = ["alpha", "beta", "café", unicodedata.normalize("NFD", "café"), None]
SUBJECTS = ["Bob", "Ann", "José", "Jose", "user", "I", None]
_filled: set[str] = set()


def _fill(service: Any) -> None:
    if service.url in _filled:
        return
    _filled.add(service.url)
    mem = service.mem
    for scope in ("alpha", "beta", "café"):
        for day in range(1, 5):
            mem.add_message(scope, "user", f"{scope} {day}", at=f"2024-01-0{day}T10:00:00Z")
            mem.close_session(scope)
        for subject in ("Bob", "Ann", "José", "Jose", "user"):
            for p in range(3):
                mem.add_fact(subject, f"p{p}", "x", scope=scope, at="2024-02-01T00:00:00Z")


def _params(scope: str | None, subject: str | None, listing: str) -> dict[str, Any]:
    params: dict[str, Any] = {"limit": 2}
    if scope is not None:
        params["scope"] = scope
    if subject is not None and listing == "facts":
        params["subject"] = subject
    return params


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(listing=st.sampled_from(["sessions", "facts"]), first=st.sampled_from(SCOPES),
       second=st.sampled_from(SCOPES), subject=st.sampled_from(SUBJECTS),
       other=st.sampled_from(SUBJECTS))
def test_a_cursor_given_to_another_listing_is_a_400_naming_cursor(
        service: Any, listing: str, first: str | None, second: str | None,
        subject: str | None, other: str | None) -> None:
    _fill(service)
    with service.client(service.key()) as http:
        one = http.get(f"/v1/{listing}", params=_params(first, subject, listing))
        assert one.status_code == 200, one.text
        cursor = one.json()["next_cursor"]
        if cursor is None:
            return
        last = one.json()[listing][-1]
        given = http.get(f"/v1/{listing}", params={**_params(second, other, listing),
                                                    "cursor": cursor})
        same_scope = second is None or canonical_scope(last["scope"]) == canonical_scope(second)
        same_subject = (listing == "sessions" or other is None
                        or subject_key(last["subject"]) == subject_key(other))
        if not (same_scope and same_subject):
            assert given.status_code == 400, given.text
            assert given.json()["error"]["field"] == "cursor", given.text
            return
        assert given.status_code == 200, given.text
        if (second, other if listing == "facts" else None) == \
                (first, subject if listing == "facts" else None):
            by_offset = http.get(f"/v1/{listing}", params={**_params(second, other, listing),
                                                           "offset": 2})
            assert given.json()[listing] == by_offset.json()[listing]


def test_the_cli_refuses_a_cursor_of_another_scope(tmp_path: Any) -> None:
    """The user's walk: ``sessions list --scope alpha``'s hint, run with ``--scope beta``."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli
    from memlane.testing import memory

    db = tmp_path / "m.db"
    with memory(db) as mem:
        for scope in ("alpha", "beta"):
            for day in range(1, 5):
                mem.add_message(scope, "user", f"{scope} {day}", at=f"2024-01-0{day}T10:00:00Z")
                mem.close_session(scope)
    runner = CliRunner(env={"MEMLANE_EMBEDDING_BACKEND": "hashing"})
    first = runner.invoke(cli, ["--db", str(db), "sessions", "list", "--scope", "alpha",
                                "--limit", "2"])
    cursor = first.stderr.split("--cursor ")[-1].split()[0]
    wrong = runner.invoke(cli, ["--db", str(db), "sessions", "list", "--scope", "beta",
                                "--cursor", cursor])
    assert wrong.exit_code != 0 and "cursor" in wrong.output and "'alpha'" in wrong.output, \
        wrong.output
    right = runner.invoke(cli, ["--db", str(db), "sessions", "list", "--scope", "alpha",
                                "--cursor", cursor])
    assert right.exit_code == 0, right.output
    assert [line.split()[3] for line in right.stdout.splitlines()] == ["2024-01-02", "2024-01-01"]


def test_the_mcp_tools_refuse_a_cursor_of_another_scope(tmp_path: Any) -> None:
    import re

    from mcp import Client

    from memlane.testing import memory
    from tests.serve.test_mcp import call, server, talk

    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        for scope in ("s", "t"):
            for day in range(1, 4):
                mem.add_message(scope, "user", f"{scope} {day}", at=f"2024-03-0{day}T00:00:00Z")
                mem.close_session(scope)
    answers: list[str] = []

    async def body(c: Client) -> None:
        sessions = await call(c, "sessions", {"scope": "s", "limit": 1})
        cursor = re.search(r'or cursor "([^"]+)"', sessions)
        assert cursor is not None, sessions
        answers.append(await call(c, "sessions", {"scope": "t", "cursor": cursor[1]},
                                  error=True))

    talk(server(tmp_path, db), body)
    assert "cursor" in answers[0] and "'s'" in answers[0], answers
