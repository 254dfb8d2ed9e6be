"""Session 27's open-question classes, from heldout23's misses: a doubt the speaker's next
sentence says they will check ("I'm not sure the Reading depot has any left. I'll check…"), and
a question put first with the check after it ("whether equipment comes out of your budget or
facilities', I'd need to check with Nikhil"), leave that question open; both ways the offline
backend runs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.bench.summaries.score import dice, tokens
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_CLAUSES = [
    ("the Reading depot has any heaters left", "Does the Reading depot have any heaters left?"),
    ("the SMETS2 meter reads export properly with older inverters",
     "Does the SMETS2 meter read export properly with older inverters?"),
    ("whether the seat reservation fee is included", "Is the seat reservation fee included?"),
    ("if the church hall takes provisional bookings", "Does the church hall take provisional bookings?"),
    ("Northern Rail refunds the booking fee", "Does Northern Rail refund the booking fee?"),
]


def _found(wanted, written):
    return any(dice(tokens(wanted), tokens(x)) >= 0.5 for x in written)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(clause=st.sampled_from(_CLAUSES),
       doubt=st.sampled_from(["I'm not sure", "we do, but I'm not sure", "honestly I'm not certain",
                              "I don't know", "no idea if"]),
       check=st.sampled_from(["I'll check and ring you back within the hour", "I'll ask the team tomorrow",
                              "Let me check with the office", "I'll find out by Friday"]))
def test_a_doubt_the_next_sentence_checks_is_left_open(model, clause, doubt, check):
    said, wanted = clause
    if doubt.endswith(" if") and said.startswith(("whether", "if")):
        said = said.split(" ", 1)[1]
    summary, _ = offline_summary(
        "Agnieszka: hi, can you help with the booking for Saturday?",
        f"Darren: {doubt} {said}. {check}",
        "Agnieszka: ok, thanks",
        model=model)
    assert _found(wanted, summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "I don't know if they'd agree. I'll ask Stefan tomorrow.",  # a pronoun's thing: who is "they"?
    "I don't know if the exams officer would accept that. I'll ask Mrs Quinn",
    "I'm not sure the Reading depot has any heaters left. Anyway, see you Monday.",  # no check
])
def test_no_question_without_a_named_doubt_and_a_check(model, said):
    summary, _ = offline_summary("Maya: can we borrow the freezer space?", f"Tom: {said}", model=model)
    assert not [q for q in summary.open_questions if q.startswith("Whether")], summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(what=st.sampled_from(["equipment comes out of your budget or facilities'",
                             "the course fee is covered by the training budget"]),
       check=st.sampled_from(["I'd need to check with Nikhil", "I'll have to ask HR", "we'd need to check"]))
def test_a_question_put_before_its_check_is_left_open(model, what, check):
    summary, _ = offline_summary(
        "Malik: so what happens next with Tessa's referral?",
        f"Lorna: the report comes in two weeks. and whether {what}, {check}",
        model=model)
    assert _found(f"Whether {what}?", summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_heldout23_boiler_callout_leaves_the_heater_question_open(model):
    conv = next(c for c in load_set("heldout23") if c.id == "h23-boiler-breakdown-callout")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert _found("Does the Reading depot have any loan electric heaters left?", summary.open_questions)
    assert any("I'll check and ring you back" in s for s in summary.action_items), summary.action_items


_DEFERRING = ["let's think about it", "410's more honest, but some clients retry oddly. let's think about that",
              "that's one for the nurse, I don't want to tell you wrong",
              "I'd rather OH advised first, but that's between you two",
              "honestly that's a question for the committee"]
_ASKED = [("after shutoff, should v1 answer 410 or 404?", "Should v1 answer 410 or 404 after shutoff?"),
          ("should I be checking my blood pressure at home?", "Should I check my blood pressure at home?"),
          ("meanwhile can Tessa skip the Swindon run next week?", "Can Tessa skip the Swindon run next week?")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answer=st.sampled_from(_DEFERRING))
def test_a_question_the_answer_hands_on_is_left_open(model, asked, answer):
    question, wanted = asked
    summary, _ = offline_summary(
        "Soren: the v1 shutoff is on 30 June, the notice went out yesterday",
        f"Soren: {question}",
        f"Yusuf: {answer}",
        model=model)
    assert _found(wanted, summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["yes, that's fine, go ahead", "410, it tells clients the truth",
                                    "that's the plan for the winter"])
def test_a_question_the_answer_settles_is_not_left_open(model, answer):
    summary, _ = offline_summary("Soren: meanwhile can Tessa skip the Swindon run next week?",
                                 f"Yusuf: {answer}", model=model)
    assert not _found("Can Tessa skip the Swindon run next week?", summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_heldout23_api_deprecation_leaves_the_status_code_open(model):
    conv = next(c for c in load_set("heldout23") if c.id == "h23-api-deprecation")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert _found("Should v1 return 410 or 404 after the shutoff?", summary.open_questions), summary.open_questions
