"""Advice questions, impersonal turns and the user's next turn (docs/retrieval.md, eighth
round): ``retrieval.advice_focus``, ``retrieval.impersonal_factor`` and
``retrieval.continue_lift``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.advice import advice_terms, asks_advice
from memlane.retrieve.search import about_user
from memlane.testing import TURNS_ALONE, add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("query", [
    "My laptop keeps running hot and the fan is loud lately. Any tips?",
    "Can you recommend some books where I can learn more about bird watching?",
    "I have a free evening tomorrow, any film recommendations?",
    "Should I buy an e-reader this month or hold off until the sales? Your view?",
    "Could you suggest a cocktail for the party?",
    "Should I attend my high school reunion?",
])
def test_requests_for_advice_are_advice_questions(query: str) -> None:
    assert asks_advice(query)


@pytest.mark.parametrize("query", [
    "What advice did Ivan give Omar about choosing sponsors?",
    "Which film did Ivan recommend to Omar?",
    "What did Hugo suggest as a way to save water?",
    "How many lamps did I repair?",
    "Where does Felix find his ideas?",
])
def test_questions_about_advice_given_are_not(query: str) -> None:
    assert not asks_advice(query)


def test_advice_terms_keep_the_subject() -> None:
    assert advice_terms(["trouble", "laptop", "fan", "loud", "lately", "tips"]) == [
        "laptop", "fan", "loud"]
    assert advice_terms(["Tips", "suggestions"]) == ["Tips", "suggestions"]  # nothing else


# The user said once that they watch documentaries; two other chats are requests whose
# words ("tips", "lately", "not sure which one to choose") the question repeats.
ADVICE_CHATS = [
    (30, [("user", "I've been watching a lot of nature documentaries on Netflix."),
          ("assistant", "Our Planet and Planet Earth are good picks.")]),
    (20, [("user", "Any tips? I'm not sure which one to choose lately, any suggestions?"),
          ("assistant", "Make a short list and pick the first one.")]),
    (10, [("user", "I have trouble lately, any tips or suggestions? Not sure which one."),
          ("assistant", "Start with the simplest option.")]),
]
ADVICE_Q = "I have a quiet evening ahead, not sure which one to choose. Any documentary suggestions or tips?"


def _first(m, query: str) -> str:
    return next(h.item.text for h in m.search(query, scope="chat", k=5, now=NOW)
                if h.item.kind == "turn")


def test_an_advice_question_finds_the_users_statement_by_its_subject(tmp_path: Path) -> None:
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"advice_focus": False}),
                       ADVICE_CHATS, now=NOW)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"advice_focus": True}),
                      ADVICE_CHATS, now=NOW)
    try:
        statement = ADVICE_CHATS[0][1][0][1]
        assert _first(off, ADVICE_Q) != statement  # the request words win without the focus
        assert _first(on, ADVICE_Q) == statement
    finally:
        off.close()
        on.close()


def test_about_user() -> None:
    assert about_user("What was my previous profession?")
    assert not about_user("What is the capital of Peru?")
    assert not about_user("Can you remind me what you recommended in our previous chat?")


# A task handed to the assistant repeats the question's words; the user's own statement
# about their job says them once.
USER_CHATS = [
    (30, [("user", "In my previous job, my profession was marketing analyst at a startup.")]),
    (20, [("user", "List the previous profession codes and profession titles, please.")]),
    (15, [("user", "Suggest a quick pasta recipe with tomatoes."),
          ("assistant", "Tomato and garlic spaghetti takes fifteen minutes.")]),
    (12, [("user", "How do I fix a flat bicycle tyre?"),
          ("assistant", "Patch the tube or replace it.")]),
    (8, [("user", "What is the weather like in Lisbon in spring?"),
         ("assistant", "Mild and sunny, around twenty degrees.")]),
]
USER_Q = "What was my previous profession?"


def test_user_turns_that_say_nothing_about_the_user_are_demoted(tmp_path: Path) -> None:
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"impersonal_factor": 1.0},
                              indexing=TURNS_ALONE),
                       USER_CHATS, now=NOW)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"impersonal_factor": 0.5},
                             indexing=TURNS_ALONE),
                      USER_CHATS, now=NOW)
    try:
        statement, task = USER_CHATS[0][1][0][1], USER_CHATS[1][1][0][1]
        assert _first(off, USER_Q) == task
        assert _first(on, USER_Q) == statement
        hits = on.search(USER_Q, scope="chat", k=5, now=NOW)
        demoted = [h for h in hits if h.item.text == task]
        assert demoted and demoted[0].scores["impersonal"] == 0.5
        assert all("impersonal" not in h.scores for h in hits if h.item.text == statement)
    finally:
        off.close()
        on.close()


def test_conversations_between_people_are_not_demoted(tmp_path: Path) -> None:
    m = memory(tmp_path / "p.db", retrieval={"impersonal_factor": 0.5})
    try:
        for days, turns in USER_CHATS:
            for role, text in turns:
                m.add_message("chat", "user", text, at=NOW.replace(day=1, hour=days % 24),
                              speaker="Ana" if role == "user" else "Ben")
            m.close_session("chat")
        m.index(now=NOW)
        hits = m.search(USER_Q, scope="chat", k=5, now=NOW)
        assert hits and all("impersonal" not in h.scores for h in hits)
    finally:
        m.close()


# The user states a like over two turns: the second shares no word with the question.
CONTINUE_CHATS = [
    (30, [("user", "Any cultural events or festivals nearby? I loved the cultural festival."),
          ("assistant", "Check the city's events calendar."),
          ("user", "Also, I've been practising conversational French and Spanish."),
          ("assistant", "Language exchanges are a great way to practise."),
          ("user", "Thanks, what about the weather there in spring?"),
          ("assistant", "Mild, with some rain."),
          ("user", "And the parking near the station?"),
          ("assistant", "There is a garage next to it."),
          ("user", "Is the museum open on cultural Sundays?"),
          ("assistant", "Yes, from ten.")]),
    (20, [("user", "Which cultural events should a tourist see in Rome?"),
          ("assistant", "The opera and the summer festivals.")]),
    (10, [("user", "Cultural events in Paris this weekend? Cultural festivals, events?"),
          ("assistant", "The Louvre has late openings.")]),
]
CONTINUE_Q = "Could you recommend some interesting cultural events near me this weekend?"


def _texts(m, k: int = 5) -> list[str]:
    return [h.item.text for h in m.search(CONTINUE_Q, scope="chat", k=k, now=NOW)
            if h.item.kind == "turn"]


def test_the_users_next_turn_after_their_best_one_is_kept_near_it(tmp_path: Path) -> None:
    nxt = CONTINUE_CHATS[0][1][2][1]
    fixed = {"newest_weight": 0.0, "turns_per_session": 2}  # the lift alone moves scores
    off = add_sessions(memory(tmp_path / "off.db", retrieval={"continue_lift": 0.0, **fixed}),
                       CONTINUE_CHATS, now=NOW)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={"continue_lift": 0.9, **fixed}),
                      CONTINUE_CHATS, now=NOW)
    try:
        assert nxt not in _texts(off)
        hits = on.search(CONTINUE_Q, scope="chat", k=5, now=NOW, explain=True)
        lifted = [h for h in hits if h.item.text == nxt]
        assert lifted, [h.item.text for h in hits]
        h = lifted[0]
        best = max(x.score for x in hits if x.item.session_id == h.item.session_id
                   and x.item.role == "user" and x.item.seq < h.item.seq)
        assert h.score >= 0.9 * best - 1e-9
        assert h.scores["continues"] > 0 and h.scores["contrib.continues"] == h.scores["continues"]
        # not an advice question: nothing continues
        plain = on.search("Which cultural events are there this weekend?", scope="chat", k=5,
                          now=NOW)
        assert all("continues" not in x.scores for x in plain)
    finally:
        off.close()
        on.close()


@pytest.mark.parametrize("key", ["impersonal_factor", "continue_lift", "reaction_factor",
                                 "assistant_factor"])
def test_out_of_range_shares_are_refused_naming_the_key(key: str) -> None:
    from memlane.config import load_config
    from memlane.errors import MemlaneError

    with pytest.raises(MemlaneError, match=f"retrieval.{key}"):
        load_config(environ={}, overrides={"retrieval": {key: 1.5}})


# Between people: the named speaker's own news against their reaction to the other's.
PEOPLE = [
    (30, [("Ben", "I just came back from the mountains."),
          ("Ana", "Camping in the mountains? Camping there is so cool, camping!"),
          ("Ben", "It was great, thanks.")]),
    (20, [("Ana", "We went camping by the lake with my kids last weekend."),
          ("Ben", "That sounds lovely.")]),
    (10, [("Ben", "How is work going?"),
          ("Ana", "Busy, but fine.")]),
]
PEOPLE_Q = "Where did Ana go camping?"


def _people(path: Path, **retrieval: object):
    return add_sessions(memory(path, retrieval=retrieval), PEOPLE, now=NOW, speakers=True)


def test_the_named_speakers_reactions_are_demoted(tmp_path: Path) -> None:
    reaction, news = PEOPLE[0][1][1][1], PEOPLE[1][1][0][1]
    off = _people(tmp_path / "off.db", reaction_factor=1.0)
    on = _people(tmp_path / "on.db", reaction_factor=0.5)
    try:
        assert _first(off, PEOPLE_Q) == reaction
        assert _first(on, PEOPLE_Q) == news
        # every turn (k=20): since the reply keys (session 24) Ben's "I just came back from
        # the mountains." carries Ana's reply ("Camping in the mountains?") and rises above
        # the reaction, sixth now
        hits = on.search(PEOPLE_Q, scope="chat", k=20, now=NOW)
        assert [h.scores.get("reaction") for h in hits if h.item.text == reaction] == [0.5]
        assert all("reaction" not in h.scores for h in hits if h.item.text == news)
        # a query naming nobody is left alone
        plain = on.search("Where did someone go camping?", scope="chat", k=5, now=NOW)
        assert all("reaction" not in h.scores for h in plain)
    finally:
        off.close()
        on.close()


# The assistant restates the subject at length; the user's statement says it once.
ASSISTANT_CHATS = [
    (30, [("user", "In my previous job, my profession was marketing analyst at a startup."),
          ("assistant", "Good to know.")]),
    (20, [("user", "I need help with my CV."),
          ("assistant", "List each previous profession: previous profession titles, "
                        "profession dates and every previous profession's duties.")]),
    (15, [("user", "Suggest a quick pasta recipe with tomatoes."),
          ("assistant", "Tomato and garlic spaghetti takes fifteen minutes.")]),
    (8, [("user", "What is the weather like in Lisbon in spring?"),
         ("assistant", "Mild and sunny, around twenty degrees.")]),
]


def test_assistant_turns_are_demoted_for_questions_about_the_user(tmp_path: Path) -> None:
    plain = {"impersonal_factor": 1.0, "min_similarity": -1}  # the floor off: far turns
    # filled the first four the demoted one is kept out of (session 31)
    off = add_sessions(memory(tmp_path / "off.db", retrieval={**plain, "assistant_factor": 1.0}),
                       ASSISTANT_CHATS, now=NOW)
    on = add_sessions(memory(tmp_path / "on.db", retrieval={**plain, "assistant_factor": 0.5}),
                      ASSISTANT_CHATS, now=NOW)
    try:
        statement, restated = ASSISTANT_CHATS[0][1][0][1], ASSISTANT_CHATS[1][1][1][1]
        def texts(m) -> list[str]:
            return [h.item.text for h in m.search(USER_Q, scope="chat", k=6, now=NOW)]

        assert texts(off)[:2] == [statement, restated]
        assert texts(on)[0] == statement and restated not in texts(on)[:4]
        hits = on.search(USER_Q, scope="chat", k=6, now=NOW)
        assert [h.scores.get("assistant_turn") for h in hits if h.item.text == restated] == [0.5]
    finally:
        off.close()
        on.close()
