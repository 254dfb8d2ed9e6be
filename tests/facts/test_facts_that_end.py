"""A user says a fact has ended: "I no longer work at Acme", "I quit my job at Acme", "I'm not
vegetarian anymore", "I sold my Corolla", "we broke up", "I moved out of Leeds" (session 22).
The old value is no longer current (not in ``facts``, not in a pack's current facts), stays
in the history superseded by the ending, and a new value said with it ("… and joined
Globex") is current. Through ``Memory`` (ingest, close, index) on SQLite and PostgreSQL.
Before session 22 each old value stayed current with full confidence.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)

STATED = ("I work at Acme and I live in Leeds. I'm vegetarian. I have a Corolla. "
          "My girlfriend Sam is a nurse.")


def _current(mem, scope: str = "u") -> set[tuple[str, str, str]]:
    # "I don't like coffee anymore" is also read as ``dislikes`` (a fact of its own)
    return {(f.subject, f.predicate, f.object) for f in mem.facts(scope, now=NOW) if f.predicate != "dislikes"}


def _pack_facts(mem, query: str, scope: str = "u") -> str:
    text = mem.pack(query, scope=scope).text
    return text.split("Relevant earlier conversation:")[0]


@pytest.mark.parametrize("ending, gone, still", [
    ("I no longer work at Acme.", ("user", "works_at", "Acme"), ("user", "lives_in", "Leeds")),
    ("I quit my job at Acme last week.", ("user", "works_at", "Acme"), ("user", "diet", "vegetarian")),
    ("I quit my job on February 10th, time for a change.", ("user", "works_at", "Acme"), ("user", "has", "Corolla")),
    ("I'm not vegetarian anymore.", ("user", "diet", "vegetarian"), ("user", "works_at", "Acme")),
    ("I sold my Corolla.", ("user", "has", "Corolla"), ("user", "lives_in", "Leeds")),
    ("We broke up.", ("user", "girlfriend", "Sam"), ("user", "works_at", "Acme")),
    ("I moved out of Leeds in March.", ("user", "lives_in", "Leeds"), ("user", "has", "Corolla")),
    ("I don't live in Leeds any more, it got too expensive.", ("user", "lives_in", "Leeds"),
     ("user", "works_at", "Acme")),
])
def test_an_ending_retires_the_fact_it_names(db_url: str, ending: str, gone, still) -> None:
    mem = memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", ending), ("assistant", "Thanks for telling me.")])],
                     now=NOW, scope="u")
        current = _current(mem)
        assert gone not in current and still in current
        old = next(f for f in mem.facts("u", include_superseded=True, now=NOW)
                   if (f.subject, f.predicate, f.object) == gone and f.status == "superseded")
        assert old.confidence == 0.0
        history = mem.fact_history(gone[0], gone[1], "u", now=NOW)
        ender = next(h for h in history if h["id"] == old.superseded_by) if gone[1] != "girlfriend" else None
        if ender is not None:  # the ending is in the history, after the value it ended
            assert ender["status"] == "ended" and ender["item_id"] is None
        assert [e["kind"] for e in next(h for h in history if h["id"] == old.id)["events"]][-1] == "superseded"
        lines = _pack_facts(mem, f"what about {gone[2]}?").splitlines()
        assert not [x for x in lines if x.startswith("- user") and gone[2] in x]
    finally:
        mem.close()


def test_a_new_value_said_with_the_ending_is_current(db_url: str) -> None:
    mem = memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", "I left Acme and joined Globex last month."),
                                 ("assistant", "Congratulations!")]),
                           (5, [("user", "I moved from Leeds to York."), ("assistant", "Nice.")])],
                     now=NOW, scope="u")
        current = _current(mem)
        assert ("user", "works_at", "Globex") in current and ("user", "works_at", "Acme") not in current
        assert ("user", "lives_in", "York") in current and ("user", "lives_in", "Leeds") not in current
        assert "Globex" in _pack_facts(mem, "where do I work?")
    finally:
        mem.close()


@pytest.mark.parametrize("said", [
    "I don't work at Globex, I work at Acme.",            # a correction, no ending
    "I'm not vegetarian anymore?",                        # a question
    "Not anymore? I thought you were still at Acme.",     # the assistant's words, asked back
    "If I quit Acme, I'd have to move.",                  # a hypothesis
    "I might sell my Corolla next year.",                 # a plan
    "He said I'm not vegetarian anymore, which is wrong.",  # reported words
    "I'm thinking of moving out of Leeds.",               # a wish
])
def test_no_false_retirement(db_url: str, said: str) -> None:
    mem = memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", said), ("assistant", "OK.")])], now=NOW, scope="u")
        current = _current(mem)
        for fact in [("user", "works_at", "Acme"), ("user", "diet", "vegetarian"), ("user", "has", "Corolla"),
                     ("user", "lives_in", "Leeds")]:
            assert fact in current, (said, fact)
    finally:
        mem.close()


def test_someone_elses_ending_retires_their_fact_not_the_users(db_url: str) -> None:
    mem = memory(db_url)
    try:
        add_sessions(mem, [(30, [("user", "I work at Acme. Tom works at Acme too."), ("assistant", "Noted.")]),
                           (10, [("user", "Tom quit Acme."), ("assistant", "Oh, OK.")])], now=NOW, scope="u")
        current = _current(mem)
        assert ("user", "works_at", "Acme") in current
        assert ("Tom", "works_at", "Acme") not in current
    finally:
        mem.close()


def test_order_and_erasure(db_url: str) -> None:
    """The ending's session indexed before the statement's (out of order): the older statement
    is history at once. A value said again after the ending is current again. Erasing the
    ending's session makes the values it ended current again; a value of many (likes) does not
    lose to another one said meanwhile."""
    mem = memory(db_url)
    try:
        # the ending (said 10 days ago) is indexed first, the statement (30 days ago) after it
        add_sessions(mem, [(10, [("user", "I no longer work at Acme. I don't like coffee anymore."),
                                 ("assistant", "Noted.")])], now=NOW, scope="u")
        add_sessions(mem, [(30, [("user", "I work at Acme. I like coffee."), ("assistant", "Noted.")])],
                     now=NOW, scope="u")
        assert _current(mem) == set()
        add_sessions(mem, [(5, [("user", "I like tea."), ("assistant", "Noted.")])], now=NOW, scope="u")
        assert _current(mem) == {("user", "likes", "tea")}
        ending = next(s.id for s in mem.sessions("u") if s.started_at.day == 22)
        mem.forget_session(ending)
        assert _current(mem) == {("user", "works_at", "Acme"), ("user", "likes", "coffee"),
                                 ("user", "likes", "tea")}
        add_sessions(mem, [(3, [("user", "I quit my job at Acme."), ("assistant", "OK.")]),
                           (1, [("user", "I work at Acme, they took me back."), ("assistant", "Nice.")])],
                     now=NOW, scope="u")
        assert ("user", "works_at", "Acme") in _current(mem)
    finally:
        mem.close()
