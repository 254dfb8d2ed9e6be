"""Session 39 (dec39): decisions the offline summarizer missed (docs/summary-eval.md,
"Session 39: decisions (dec39)")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

# (question of two options, the answer naming one, what the decision must say)
_ANSWERED = [
    ("Coaches from Harlow Travel or the minibus from the school?", "Minibus.", "minibus"),
    ("Raffle tickets at a pound or at two pounds?", "Two pounds, nobody carries coins now", "two pounds"),
    ("Do we paint the shed green or leave it bare?", "Green, it will last longer that way", "green"),
    ("Lamb stew or the vegetable lasagne for the Friday supper?", "The lasagne.", "lasagne"),
]


@settings(max_examples=8, deadline=None)
@given(case=st.sampled_from(_ANSWERED), model=st.sampled_from(_WAYS))
def test_an_option_named_in_answer_to_a_question_of_two_is_a_decision(case, model):
    question, answer, said = case
    summary, _ = offline_summary(
        "Nadia: The scout group's summer camp is three weeks away and the budget is set.",
        f"Nadia: Right. {question} I said I'd let them know this week.",
        f"Owen: {answer}",
        "Nadia: I'll tell them tomorrow.",
        model=model)
    assert any(said in d.lower() for d in summary.decisions), summary.decisions
    other = question.split(" or ")[0].split()[-1].lower().rstrip("?")
    assert not any(other in d.lower() and said not in d.lower() for d in summary.decisions)


# an answer that names both options, neither, more than the option, or a yes: no choice read
_NOT_A_CHOICE = ["Both, honestly.", "Neither, we can't afford it.", "Yes.",
                 "Minibus drivers are hard to find in August, I heard."]


@pytest.mark.parametrize("answer", _NOT_A_CHOICE)
def test_an_answer_that_names_no_one_option_is_no_decision(answer):
    summary, _ = offline_summary(
        "Nadia: The scout group's summer camp is three weeks away and the budget is set.",
        "Nadia: Coaches from Harlow Travel or the minibus from the school?",
        f"Owen: {answer}",
        model=None)
    assert not any("minibus" in d.lower() or "coach" in d.lower() for d in summary.decisions), \
        summary.decisions


# (a sentence settling two things after ", and", each part's words)
_TWO = [
    ("Then the jumble sale moves to the church hall, and the raffle prizes go to the hospice shop.",
     "jumble sale", "raffle prizes"),
    ("Let's repaint the scout hut in April, and we sell the old canoe trailer to the rowing club.",
     "scout hut", "canoe trailer"),
]


@settings(max_examples=6, deadline=None)
@given(case=st.sampled_from(_TWO), model=st.sampled_from(_WAYS))
def test_a_second_choice_after_and_is_a_second_decision(case, model):
    sentence, one, two = case
    summary, _ = offline_summary(
        "Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
        "Tom: The treasurer says the accounts can take both if we are careful.",
        f"Priya: {sentence}",
        "Tom: Good, I'll put it in the minutes.",
        model=model)
    firsts = [d for d in summary.decisions if one in d.lower()]
    seconds = [d for d in summary.decisions if two in d.lower()]
    assert firsts and seconds, summary.decisions
    assert not any(two in d.lower() for d in firsts), summary.decisions


# a second part that is the speaker's own step, a consequence or a remark stays in one decision
@pytest.mark.parametrize("tail", ["and I'll ring the caretaker about the keys tomorrow",
                                  "and that's the cheapest way to do it"])
def test_a_step_or_a_remark_after_and_is_no_second_decision(tail):
    summary, _ = offline_summary(
        "Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
        "Tom: The treasurer says the accounts can take both if we are careful.",
        f"Priya: Then the jumble sale moves to the church hall, {tail}.",
        model=None)
    assert not any(d.lower().startswith(tail.split()[1]) for d in summary.decisions), summary.decisions


def _club(said: str) -> list[str]:
    return ["Ines: The sailing club lost money again this season, about nine hundred pounds.",
            "Ravi: The minibus alone costs a fortune in insurance and nobody drives it.",
            f"Ines: {said}",
            "Ravi: The members will grumble but the accounts come first."]


# among people, a choice said after an agreement in a form the patterns did not read
_SAID = [("Fine, we sell the old minibus and hire one for the summer trips.", "sell the old minibus"),
         ("Right, the old minibus goes and the trailer stays for the regatta.", "the old minibus goes")]


@settings(max_examples=4, deadline=None)
@given(case=st.sampled_from(_SAID), model=st.sampled_from(_WAYS))
def test_a_choice_said_after_an_agreement_is_a_decision(case, model):
    said, decided = case
    summary, _ = offline_summary(*_club(said), model=model)
    assert any(d.lower().startswith(decided) for d in summary.decisions), summary.decisions


# an agreement naming nothing chosen, or a request to the speaker: no decision
@pytest.mark.parametrize("said", ["Ugh ok, ship it.", "ok, send me the spreadsheet tonight.",
                                  "ok, fair enough.", "Aye, scrap the raffle and run a quiz night instead.",
                                  "Yes, the kit fund only works if it is warm."])
def test_an_agreement_choosing_nothing_named_is_no_decision(said):
    summary, _ = offline_summary(*_club(said), model=None)
    assert summary.decisions == (), summary.decisions


def _hall(said: str) -> list[str]:
    return ["Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
            "Tom: The treasurer says the accounts can take both if we are careful.",
            "Priya: Let's move the jumble sale to the church hall.",
            f"Tom: {said}"]


@settings(max_examples=4, deadline=None)
@given(said=st.sampled_from(["And no more raffles until the licence is renewed.",
                             "and keep the old trestle tables out of the main room."]),
       model=st.sampled_from(_WAYS))
def test_one_more_thing_with_and_beside_a_decision_is_a_decision(said, model):
    summary, _ = offline_summary(*_hall(said), model=model)
    added = said.split(maxsplit=1)[1].rstrip(".").lower()
    assert any(d.lower().rstrip(".") == added for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("said", ["And can we keep the old trestle tables out of the main room?",
                                  "And I'll ring the caretaker about the keys tomorrow morning."])
def test_a_question_or_own_step_with_and_is_no_decision(said):
    summary, _ = offline_summary(*_hall(said), model=None)
    assert not any("trestle" in d or "caretaker" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_said_as_a_whole_directive_is_written_alone(model):
    summary, _ = offline_summary(
        "Ana: The council changed the street trading rules for the vans this spring.",
        "Ben: The chimes can only play for 12 seconds now, ours run for 40.",
        "Ana: Set ours to 12 seconds then.",
        model=model)
    assert summary.decisions == ("Set ours to 12 seconds.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_choice_keeps_what_it_settles(model):
    summary, _ = offline_summary(
        "Ana: For the summer fete, the bouncy castle or the climbing wall?",
        "Ben: The climbing wall needs two trained staff, the castle needs one.",
        "Ana: The bouncy castle then.",
        model=model)
    assert any(" — " in d for d in summary.decisions if "castle" in d.lower()), summary.decisions
