"""Session 40: a question a peer answers yes or no and then says it does not know something else
("Could members use their phones instead?" — "They do, but I don't know what it costs per
user.") is answered: what stays open is what the answer does not know, not the question, both
ways the offline backend runs (``_Reader.answered_then_unknown``, ``cues._ANSWERED_BUT``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_CASES = [("Could members use their phones instead? Paxton do a mobile credential thing.",
           "They do, but I don't know what it costs per user.", "phones"),
          ("oh thank you. do you still lend out those electric heaters?",
           "we do, but I'm not sure the Reading depot has any left. I'll check and ring you back",
           "heaters")]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", _CASES)
def test_a_question_answered_yes_but_unknown_is_not_open(model, case):
    question, answer, asked = case
    summary, _ = offline_summary("Nia: Another lost fob, six since January.", "Tom: That's a lot.",
                                 f"Nia: {question}", f"Tom: {answer}", "Nia: ok", model=model)
    assert not any(asked in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_an_answer_that_only_does_not_know_keeps_the_question(model):
    summary, _ = offline_summary("Nia: Another lost fob, six since January.", "Tom: That's a lot.",
                                 "Nia: Could members use their phones instead?",
                                 "Tom: No idea, I don't know what Paxton offers.", "Nia: ok", model=model)
    assert any("phones" in q.lower() for q in summary.open_questions), summary.open_questions
