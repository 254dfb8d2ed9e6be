"""A question about what still holds, answered short, ends (or confirms) the fact it names
(session 23): "Do you still live in Leeds?" — "Not anymore." Before, the answer ended nothing
(it names no fact, and the question is the assistant's), so Leeds stayed current with full
confidence. Only the answerer's own facts: "Is Tom still at Acme?" — "No." is not read, nor a
question about the asker's plans ("Do you still want me to book it?"). Through ``Memory`` on
SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import add_sessions, memory, turn_messages

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)
STATED = "I work at Acme and I live in Leeds. I'm vegetarian."


def _current(mem, scope: str = "u") -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in mem.facts(scope, now=NOW)}


@pytest.mark.parametrize("question, answer, gone", [
    ("Do you still live in Leeds?", "Not anymore.", ("user", "lives_in", "Leeds")),
    ("Are you still at Acme?", "Nope, left in March.", ("user", "works_at", "Acme")),
    ("Thanks! Are you still vegetarian?", "No.", ("user", "diet", "vegetarian")),
    ("Are you still in Leeds these days?", "No longer, we moved to York", ("user", "lives_in", "Leeds")),
    ("So do you still work at Acme?", "Sadly not", ("user", "works_at", "Acme")),
])
def test_a_short_no_ends_the_fact_the_question_names(db_url: str, question: str, answer: str,
                                                     gone: tuple[str, str, str]) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", "Hi again"), ("assistant", question), ("user", answer),
                                 ("assistant", "Thanks for letting me know.")])],
                     now=NOW, scope="u")
        current = _current(mem)
        assert gone not in current  # before: current, confidence 0.5
        assert len(current & {("user", "works_at", "Acme"), ("user", "lives_in", "Leeds"),
                              ("user", "diet", "vegetarian")}) == 2
        old = next(f for f in mem.facts("u", include_superseded=True, now=NOW)
                   if (f.subject, f.predicate, f.object) == gone and f.status == "superseded")
        assert old.confidence == 0.0


def test_yes_still_confirms_the_fact(db_url: str) -> None:
    """"Yes, still" states the fact again: it is reinforced (two statements), and an ending
    said before it no longer holds."""
    with memory(db_url) as mem:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", "Hi"), ("assistant", "Do you still live in Leeds?"),
                                 ("user", "Yes, still."), ("assistant", "Great.")])],
                     now=NOW, scope="u")
        leeds = next(f for f in mem.facts("u", now=NOW) if f.predicate == "lives_in")
        assert leeds.object == "Leeds" and leeds.reinforcements >= 1


@pytest.mark.parametrize("question, answer", [
    ("Is Tom still at Acme?", "No."),                       # not the answerer's fact
    ("Do you still want me to book the table?", "No."),     # the asker's plan
    ("Do you still live in Leeds?", "No idea what you mean, I live in Leeds"),
    ("Do you live in Leeds?", "Yes"),                        # no "still": nothing to end
])
def test_what_is_not_read_as_an_answer_about_the_answerers_fact(db_url: str, question: str,
                                                                 answer: str) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(30, [("user", STATED), ("assistant", "Noted.")]),
                           (10, [("user", "Hi"), ("assistant", question), ("user", answer),
                                 ("assistant", "Okay.")])],
                     now=NOW, scope="u")
        assert {("user", "works_at", "Acme"), ("user", "lives_in", "Leeds")} <= _current(mem)


NO = st.sampled_from(["No.", "Nope", "Not anymore.", "Not any more!", "No longer.", "nah",
                      "No, not anymore", "Sadly not.", "I don't.", "Not since March."])
YES = st.sampled_from(["Yes", "Yep, still.", "Yeah", "Still there.", "I do.", "Yes, still am"])
ASKED = st.sampled_from([("Do you still live in Leeds?", "I live in Leeds"),
                         ("Are you still at Acme?", "I work at Acme"),
                         ("Are you still vegetarian?", "I'm vegetarian"),
                         ("Have you still got the Corolla?", "I have the Corolla")])


@settings(max_examples=150, deadline=None)
@given(asked=ASKED, no=NO, yes=YES, lead=st.sampled_from(["", "Got it. ", "Thanks! "]),
       people=st.sampled_from([("assistant", "user"), ("Tom", "Ana")]))
def test_any_short_answer_reads_one_way(asked: tuple[str, str], no: str, yes: str, lead: str,
                                        people: tuple[str, str]) -> None:
    """A short no reads as no, a short yes as yes, whoever asks (the assistant, or another
    person in a group chat); the answerer's own statement, never the asker's."""
    from memlane.index.ending import still_answers

    asker, answerer = people
    for answer, holds in ((no, False), (yes, True)):
        msgs = turn_messages([f"{asker}: {lead}{asked[0]}", f"{answerer}: {answer}"])
        got = still_answers(msgs)
        assert [(a, h) for _, a, h, _ in got] == [(asked[1], holds)], (answer, got)
        # a question that only has "you're still" in it asks nothing about a fact
        assert still_answers(turn_messages([f"{asker}: Is there anything you're still unsure about?",
                                            f"{answerer}: {answer}"])) == []
        # the asker's own words are never an answer to themself
        assert still_answers(turn_messages([f"{answerer}: {lead}{asked[0]}", f"{answerer}: {answer}"])) == []
