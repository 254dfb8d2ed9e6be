"""Session 26: facts over time as a user walks them through the CLI and the HTTP service.

- A fact forgotten by hand (``DELETE /v1/facts/{id}``) came back when its conversation was
  read again: a late message joining the session (an export imported again, a client's retry)
  queues it, and the next index run read "I live in Berlin" from the turn still stored.
- ``add_fact("The user", …)`` or ``add_fact("I", …)`` was another subject than ``user``.
- ``memlane facts history`` without ``--scope`` interleaved every scope's values in one
  chain, naming none: two scopes' current values read as two current values of one fact.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.testing import HashingEmbedder, add_sessions, memory
from memlane.testing.http import serving

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    db = request.getfixturevalue("pg_url") if request.param == "postgres" else str(tmp_path / "h.db")
    mem = Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))
    with serving(create_app(mem)) as base, httpx.Client(base_url=base, timeout=30.0) as http:
        yield http, mem
    mem.close()


def test_a_fact_forgotten_over_http_stays_forgotten_when_its_conversation_is_read_again(served: Any) -> None:
    http, mem = served
    said = NOW - timedelta(days=5)
    add_sessions(mem, [(30, [("user", "I live in Lisbon."), ("assistant", "Noted.")]),
                       (5, [("user", "I live in Berlin now."), ("assistant", "Noted."),
                            ("user", "I work at Acme."), ("assistant", "Cool.")])], now=NOW, scope="u")
    facts = http.get("/v1/facts", params={"scope": "u"}).json()["facts"]
    berlin = next(f for f in facts if f["object"] == "Berlin")
    assert http.delete(f"/v1/facts/{berlin['id']}").status_code == 200
    # a message that joins the Berlin conversation (between its turns) queues it to be read again
    r = http.post("/v1/messages", json={"scope": "u", "role": "user", "text": "And I like jazz.",
                                        "at": (said + timedelta(seconds=90)).isoformat()})
    assert r.status_code == 200, r.text
    assert http.post("/v1/index", json={"now": NOW.isoformat()}).status_code == 200
    current = {(f["predicate"], f["object"]) for f in
               http.get("/v1/facts", params={"scope": "u"}).json()["facts"]}
    assert ("likes", "jazz") in current  # the session was read again
    assert ("works_at", "Acme") in current
    assert not {o for p, o in current if p == "lives_in"}  # was Berlin, back
    history = http.get("/v1/facts/history", params={"subject": "user", "predicate": "lives_in",
                                                   "scope": "u"}).json()["history"]
    assert [h["object"] for h in history] == ["Lisbon"]
    # the user saying it again later is a new statement, and current
    add_sessions(mem, [(1, [("user", "I live in Berlin, by the way."), ("assistant", "Noted.")])],
                 now=NOW, scope="u")
    assert [f.object for f in mem.facts("u", now=NOW) if f.predicate == "lives_in"] == ["Berlin"]


def test_facts_history_of_every_scope_names_each_scopes_chain(cli_run: Any) -> None:
    for scope, city, day in (("alice", "Lisbon", 10), ("bob", "Rome", 5), ("alice", "Berlin", 1)):
        at = (NOW - timedelta(days=day)).isoformat()
        cli_run("add", "--scope", scope, "--at", at, f"I live in {city}.")
        cli_run("add", "--scope", scope, "--role", "assistant", "--at", at, "Noted.")
        cli_run("sessions", "close", "--scope", scope)
    cli_run("index", "--now", NOW.isoformat())
    lines = [ln for ln in cli_run("facts", "history", "user", "lives_in").output.splitlines()
             if not ln.startswith(" ")]
    # each scope's values together, in time order, each naming its scope (bob's Rome was
    # printed between alice's Lisbon and Berlin, no scope said)
    assert [(ln.split()[0], ln.split()[3]) for ln in lines] == [
        ("superseded", "Lisbon"), ("current", "Berlin"), ("current", "Rome")]
    assert ["scope alice" in ln for ln in lines] == [True, True, False]
    assert "scope bob" in lines[2]
    # one scope's history reads as before
    one = cli_run("facts", "history", "user", "lives_in", "--scope", "alice").output
    assert "scope" not in one and "Lisbon" in one and "Berlin" in one
    data = json.loads(cli_run("facts", "history", "user", "lives_in", "--json").output)
    assert {h["scope"] for h in data} == {"alice", "bob"}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spellings=st.lists(st.sampled_from(["user", "User", " USER ", "the user", "The User", "I", "me", "Me"]),
                          min_size=2, max_size=4),
       names=st.lists(st.sampled_from(["Ana", "ANA", " ana ", "Ana."]), min_size=2, max_size=3))
def test_one_subject_however_a_caller_spells_it(tmp_path_factory: Any, spellings: list[str],
                                                names: list[str]) -> None:
    """``add_fact`` of the user as "The user" or "I" (as a model writes them, and the README's
    "articles" promise) was a subject of its own: its value stood current beside the user's."""
    with memory(tmp_path_factory.mktemp("subj") / "m.db") as mem:
        for day, (who, city) in enumerate(zip(spellings, ["Lisbon", "Porto", "Faro", "Braga"])):
            mem.add_fact(who, "lives in", city, scope="s", at=NOW + timedelta(days=day))
        for day, (who, job) in enumerate(zip(names, ["nurse", "teacher", "pilot"])):
            mem.add_fact(who, "job", job, scope="s", at=NOW + timedelta(days=day))
        current = [(f.subject.strip(" .").casefold(), f.predicate, f.object)
                   for f in mem.facts("s", now=NOW + timedelta(days=9))]
        assert sorted(current) == sorted([
            ("user", "lives_in", ["Lisbon", "Porto", "Faro", "Braga"][len(spellings) - 1]),
            ("ana", "job", ["nurse", "teacher", "pilot"][len(names) - 1])])
        # and read back by any of them
        assert all(len(mem.fact_history(who, "lives_in", "s")) == len(spellings) for who in spellings)
        assert all(len(mem.facts("s", who, include_superseded=True)) == len(spellings) for who in spellings)


def test_a_restatement_counts_once_however_often_its_session_is_read_and_not_after_its_erase(
        db_url: str) -> None:
    """A later conversation saying "I live in Berlin" again reinforces the first one's fact;
    read again (a turn of it erased) it counted once more each time (confidence 1.1, 1.2…),
    and erased it kept its count."""
    with memory(db_url) as mem:
        add_sessions(mem, [(10, [("user", "I live in Berlin."), ("assistant", "Noted.")]),
                           (5, [("user", "I live in Berlin, still."), ("assistant", "Cool."),
                                ("user", "I like jazz."), ("assistant", "Nice."), ("user", "Bye."),
                                ("assistant", "Bye!")])], now=NOW, scope="u")

        def berlin() -> Any:
            return next(f for f in mem.facts("u", now=NOW) if f.object == "Berlin")

        assert berlin().reinforcements == 1
        later = max(s.id for s in mem.sessions("u"))
        for text in ("Nice.", "Bye!"):
            turn = next(i for i in mem.search(text, scope="u", k=20) if i.item.text == text)
            mem.forget_item(turn.item.id)
            mem.index(now=NOW)
            assert berlin().reinforcements == 1  # was 2, then 3
        mem.forget_session(later)
        fact = berlin()
        assert fact.reinforcements == 0 and fact.confidence == 1.0  # was 1 (1.1) with its session gone
        assert [e["kind"] for h in mem.fact_history("user", "lives_in", "u") for e in h["events"]] == ["added"]
