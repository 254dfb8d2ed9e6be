"""Session 38's next-step classes, from heldout33's misses, both ways the offline backend runs
(docs/summary-eval.md, "Session 38: heldout33's next steps and references classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_PLANS = [("posting the cheque tonight", "User: Post the cheque tonight"),
          ("booking the plumber this week", "User: Book the plumber this week"),
          ("writing to the landlord tomorrow", "User: Write to the landlord tomorrow"),
          ("ringing the surgery on Monday", "User: Ring the surgery on Monday"),
          ("dropping the keys round this weekend", "User: Drop the keys round this weekend"),
          ("taking the form in today", "User: Take the form in today")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=12, deadline=None)
@given(plan=st.sampled_from(_PLANS), lead=st.sampled_from(["", "ok ", "perfect. ", "great, "]))
def test_a_plan_said_as_a_verb_in_ing_with_a_time_to_come_is_the_speakers_step(model, plan, lead):
    said, step = plan
    summary, _ = offline_summary(
        "user: my neighbour's fence blew into my garden in the storm, what do I do",
        "assistant: Tell the neighbour in writing, with photos, and check your home insurance for storm cover.",
        f"user: {lead}{said}", model=model)
    steps = [s.lower() for s in scored_steps(summary)]
    assert step.lower().rstrip(".") + "." in steps, steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "doing it now",  # as they speak, not to come
    "thinking about it tonight",  # a frame, not a plan
    "morning meeting tomorrow was cancelled",  # a noun in -ing
    "posting it tonight?",  # a question
])
def test_an_ing_sentence_that_plans_nothing_is_no_step(model, said):
    summary, _ = offline_summary(
        "user: my neighbour's fence blew into my garden in the storm, what do I do",
        "assistant: Tell the neighbour in writing, with photos, and check your home insurance for storm cover.",
        f"user: ok. {said}", model=model)
    assert not any("ing" in s.split(":", 1)[-1].split()[0] for s in scored_steps(summary)), scored_steps(summary)
    assert not any(s.lower().startswith(("user: do it", "user: think", "user: morn", "user: post"))
                   for s in scored_steps(summary)), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_the_first_turns_ing_sentence_sets_the_scene(model):
    summary, _ = offline_summary(
        "user: Cooking a curry for ten on Saturday. one guest can't eat nuts, any tips?",
        "assistant: Use sunflower seeds for body instead of cashews and check the labels on the spice mixes.",
        model=model)
    assert not any("Cook" in s for s in scored_steps(summary)), scored_steps(summary)


_ASKED = [("Does the loan van need a deposit too?", "deposit"),
          ("Is the hall booked for the 12th or the 19th? The email says the 19th", "hall"),
          ("Will the new router fit in the old cabinet?", "router")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=12, deadline=None)
@given(asked=st.sampled_from(_ASKED),
       answer=st.sampled_from(["Probably, I'll check", "Good spot, I'll check before I pay", "I'll check tonight"]))
def test_a_bare_ill_check_is_written_with_the_question_it_answers(model, asked, answer):
    question, key = asked
    summary, _ = offline_summary(
        "Rosa: The club's summer fair is on. We need the kit sorted by Friday",
        "Tom: I'll book the van for Thursday",
        f"Rosa: {question}",
        f"Tom: {answer}", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Tom: I'll check") and key in s for s in steps), steps


_REQUESTS = [("can you take the minutes?", "I'll type them up tonight", "take the minutes and type them up tonight"),
             ("can you collect the banner?", "I'll pick it up from the printers on Friday",
              "collect the banner and pick it up from the printers on friday"),
             ("could you ring the caterers?", "Yes, I'll ring them after lunch",
              "ring the caterers and ring them after lunch")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=9, deadline=None)
@given(request=st.sampled_from(_REQUESTS))
def test_a_request_and_the_asked_ones_own_step_in_answer_are_one_step(model, request):
    asked, answer, joined = request
    summary, _ = offline_summary(
        "Ines: The AGM is on Thursday and the hall is booked from seven",
        f"Ines: Marco, {asked}",
        f"Marco: {answer}", model=model)
    steps = [s.lower() for s in scored_steps(summary) if s.startswith("Marco: ")]
    assert steps == [f"marco: {joined}."], scored_steps(summary)
