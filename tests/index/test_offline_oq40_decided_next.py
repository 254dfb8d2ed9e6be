"""Session 40: a question left open that a participant's decision in one of the next two turns
answers (the decision sharing a content word with it) is no longer open, both ways the offline
backend runs (``_Reader.decided_next``, after ``read()``); a turn between, or the deciding one,
that puts the matter off or does not know (``cues._DEFERS_CHOICE``) keeps it open."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _peers(question: str, remark: str, reply: str) -> list[str]:
    return ["Bronwen: The post office wants a hosted counter in the hall.",
            "Gethin: I'll reply to their letter.",
            f"Bronwen: {question} {remark}", f"Gethin: {reply}", "Bronwen: Fine by me."]


def _assisted(opening: str, advice: str, question: str, hedge: str, decision: str) -> list[str]:
    return [f"user: {opening}", f"assistant: {advice}", f"user: ok. {question}",
            f"assistant: {hedge}", f"user: right. {decision}"]


# (the conversation, a word of the question that the decision shares)
_DECIDED = [
    (_peers("Also, do we charge them rent?", "The hall committee will want something.",
            "Let's not charge rent for the first year."), "rent"),
    (_peers("Also, do we charge the choir for the room?", "The hall committee will want something.",
            "Let's not charge the choir this year."), "choir"),
    (_assisted("My Zigbee sensors keep dropping out in the garage.",
               "Mains-powered plugs act as routers and strengthen the mesh.",
               "Is one smart plug in the hallway enough for the garage?",
               "It depends on the walls. The network map shows link quality.",
               "I'll go with two of the smart plugs then, one in the hall and one in the utility room."), "plug"),
    (_assisted("My sourdough comes out flat every time.",
               "Usually the starter is too young or the dough overproofs.",
               "Is a two week old starter strong enough for the loaf?",
               "It depends on the flour. A float test tells you.",
               "I'll go with a starter fed twice a day for the loaf then."), "starter"),
]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", _DECIDED)
def test_a_question_a_decision_answers_next_is_not_open(model, case):
    turns, key = case
    summary, _ = offline_summary(*turns, model=model)
    assert any(key in d.lower() for d in summary.decisions), summary.decisions
    assert not any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("reply", ["Let's table the rent for now.",
                                   "Let's not charge rent for now, and argue it out with the committee.",
                                   "I don't know. Let's not charge rent for the first year."])
def test_a_question_put_off_or_not_known_stays_open(model, reply):
    summary, _ = offline_summary(*_peers("Also, do we charge them rent?", "The hall committee will want something.",
                                         reply), model=model)
    assert any("rent" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_an_assistants_step_does_not_answer_it(model):
    """Only a participant's decision answers: the assistant's own action ("I've added a note
    asking the warehouse to pick from batch …") after "I can't guarantee the batch" does not."""
    summary, _ = offline_summary(
        "user: the replacement pillowcase is on its way, thanks.", "assistant: You're welcome.",
        "user: will it be the same dye batch? the last ones were a different shade",
        "assistant: I can't guarantee the batch from here, I'm afraid. "
        "I've added a note asking the warehouse to pick from batch LN-0921.",
        "user: ok fair enough, thanks", model=model)
    assert any("batch" in q.lower() for q in summary.open_questions), summary.open_questions
