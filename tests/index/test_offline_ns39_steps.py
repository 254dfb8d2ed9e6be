"""Session 39's next-step classes, from heldout34's misses, both ways the offline backend runs
(docs/summary-eval.md, "Session 39: next steps and references (ns39)")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_LET_ME = [("let me check with Priya before we promise anything", "Yuki: Check with Priya before we promise anything."),
           ("Let me ask the organisers if they'd take the later slot", "Yuki: Ask the organisers if they'd take the later slot."),
           ("ok, let me talk to the landlord about the deposit", "Yuki: Talk to the landlord about the deposit."),
           ("Let me think about that one, I'll speak to the treasurer first",
            "Yuki: Speak to the treasurer first — Are we paying the caterers up front?")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=8, deadline=None)
@given(said=st.sampled_from(_LET_ME))
def test_a_participants_let_me_check_with_someone_is_their_step(model, said):
    sentence, step = said
    summary, _ = offline_summary(
        "Ben: The hall's booked for the 14th and the band is confirmed.",
        "Ben: Are we paying the caterers up front?",
        f"Yuki: {sentence}", model=model)
    steps = scored_steps(summary)
    assert step in steps, steps


@pytest.mark.parametrize("model", WAYS)
def test_let_me_check_with_little_beside_whom_is_written_with_the_question(model):
    summary, _ = offline_summary(
        "Hannah: The Leeds customer wants to cancel. Should we give them a month free?",
        "Sofia: Let me check with finance first", model=model)
    assert "Sofia: Check with finance first — Should we give them a month free?" in scored_steps(summary), \
        scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "assistant: Let me check with the warehouse team for you.",  # the assistant, as it answers
    "Yuki: let me know what they say",  # a courtesy
    "Yuki: let me check with Priya?",  # a question
])
def test_the_assistants_let_me_a_courtesy_or_a_question_is_no_such_step(model, said):
    summary, _ = offline_summary(
        "user: My parcel hasn't arrived and it says delivered." if said.startswith("assistant") else
        "Ben: Are we paying the caterers up front?", said, model=model)
    steps = [s.split(": ", 1)[-1] for s in scored_steps(summary)]
    assert not any(s.startswith(("Check with", "Know what")) for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("lead", ["Can you", "Could you also", "OK. Can you", "So can you"])
def test_a_request_opening_with_a_capital_taken_up_is_the_accepting_speakers_task(model, lead):
    summary, _ = offline_summary(
        "Pat: The winch packed up on the third launch this morning.",
        "Carys: I'll email the members tonight so nobody's surprised.",
        f"Pat: Tell them, it's a nicer first flight anyway. {lead} log the failure as DEF-117 in the maintenance book?",
        "Carys: yep", model=model)
    assert "Carys: Log the failure as DEF-117 in the maintenance book." in scored_steps(summary), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["Yes, Saturday before the match", "Sure, tomorrow morning first thing"])
def test_a_request_to_the_one_who_answers_taken_up_for_later_stays_their_step(model, answer):
    summary, _ = offline_summary(
        "Mel: The minibus is booked for the away game and Dev has the keys",
        "Raj: You don't need a D1 for it any more, it's under 3.5 tonnes",
        "Mel: Really? I missed that",
        "Raj: The rules changed. So I can drive too",
        "Mel: Then you and Dev both drive and swap at the services. Great. Can you check the tyres on Saturday?",
        f"Raj: {answer}", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Raj: Check the tyres") for s in steps), steps


_WHO = [("Who's painting the banner for the stall?", "I'll do it tonight",
         "Mo: Paint the banner for the stall tonight."),
        ("who keeps the float though?", "I'll do it, I'm there all day",
         "Mo: Keep the float."),
        ("Also can someone finally collect the raffle prizes from the Co-op", "ok I'll do that on Friday",
         "Mo: Collect the raffle prizes from the Co-op on Friday."),
        ("The gazebo's booked. Someone has to fetch the gazebo from the scout hut though", "I'll sort it after work",
         "Mo: Fetch the gazebo from the scout hut after work.")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=8, deadline=None)
@given(said=st.sampled_from(_WHO))
def test_i_ll_do_it_answering_who_does_a_thing_is_that_thing(model, said):
    asked, answer, step = said
    summary, _ = offline_summary(
        "Lou: The fete is on the 21st and the field is ours from eight.",
        f"Lou: {asked}", f"Mo: {answer}", model=model)
    steps = scored_steps(summary)
    assert step in steps, steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("asked", ["Who's going to the fete?", "who's on the gate Tuesday?"])
def test_i_ll_do_it_after_a_question_of_no_task_writes_none(model, asked):
    summary, _ = offline_summary(
        "Lou: The fete is on the 21st and the field is ours from eight.",
        f"Lou: {asked}", "Mo: I'll do it", model=model)
    steps = [s.split(": ", 1)[-1] for s in scored_steps(summary)]
    assert not any(s.startswith(("Go ", "On ", "Going")) for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("verb", ["ring", "bring"])
def test_a_call_for_someone_whose_verb_ends_in_ing_keeps_its_verb(model, verb):
    """"can someone ring / bring …" — "Sure, I'll do it today": the verb as asked ("ring" is no
    "-ing" form to cut), and a step another rule wrote with what was asked is left as it is."""
    summary, _ = offline_summary(
        "Lou: The fete is on the 21st and the field is ours from eight.",
        f"Lou: can someone {verb} the Park Authority about the car park?", "Mo: Sure, I'll do it today", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith(f"Mo: {verb.capitalize()} the Park Authority about the car park") for s in steps), steps
