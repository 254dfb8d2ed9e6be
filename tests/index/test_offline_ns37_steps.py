"""Session 37's next-step classes, from heldout32's misses, both ways the offline backend runs
(docs/summary-eval.md, "Session 37: heldout32's next steps and references classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_DUTIES = [("the grant report has to be sent to the council by the 30th", "grant report"),
           ("the new rota needs to be on the noticeboard before Monday", "new rota"),
           ("the hall keys have to be back with the caretaker on Friday", "hall keys"),
           ("your slides need to be uploaded the night before", "slides")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=12, deadline=None)
@given(duty=st.sampled_from(_DUTIES), lead=st.sampled_from(["", "Good. ", "Okay, that's settled. "]))
def test_what_a_thing_must_be_said_to_a_participant_by_name_is_their_step(model, duty, lead):
    text, key = duty
    summary, _ = offline_summary(
        "Nadia: The open day is on the 14th. We've got the hall from nine",
        "Colm: I can do the tea urn and the signs",
        f"Nadia: {lead}Colm, {text}",
        "Colm: Fine", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Colm: ") and key in s.lower() for s in steps), steps


_QUESTIONS = [("Does the caterer want a deposit up front?", "deposit"),
              ("Is the marquee firm free on the Saturday?", "marquee"),
              ("Do we hire the big urn or borrow the church's?", "urn")]
_ANSWERS = ["No idea, I'll ask them", "Not sure yet. I'll ask Pauline", "Good question, I don't know. I'll ring them",
            "Not sure. I'll price both"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=12, deadline=None)
@given(question=st.sampled_from(_QUESTIONS), remark=st.sampled_from(["", " Some places still want cash"]),
       answer=st.sampled_from(_ANSWERS))
def test_a_step_after_not_knowing_is_written_with_the_question_it_answers(model, question, remark, answer):
    asked, key = question
    if "both" in answer and " or " not in asked:
        return
    summary, _ = offline_summary(
        "Nadia: The open day is on the 14th. We've got the hall from nine",
        f"Colm: {asked}{remark}",
        f"Nadia: {answer}", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Nadia: ") and key in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("name", ["Moore", "Jane Okoro", "Price"])
def test_a_reverends_title_ends_no_sentence(model, name):
    summary, _ = offline_summary(
        "user: the churchyard needs the vicar to approve the wording on my mum's headstone",
        "assistant: Ask the vicar informally before you submit the proof.",
        f"user: ok. I'll ring Rev. {name} tomorrow about the wording", model=model)
    steps = scored_steps(summary)
    assert any(f"Rev. {name} tomorrow" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=10, deadline=None)
@given(worth=st.sampled_from([("asking them", "Ask them"), ("getting the framer", "Get the framer"),
                              ("checking with the seller", "Check with the seller")]),
       took=st.sampled_from(["good idea, I'll ask.", "ok, will do.", "good shout, I'll check."]))
def test_a_suggestion_worth_doing_taken_up_in_a_word_is_the_users_step(model, worth, took):
    gerund, step = worth
    summary, _ = offline_summary(
        "user: my grandad's old map has a tear along the fold. there's a framer in town, Hollins & Rae",
        "assistant: A framer can mount it on archival board. Avoid tape; it yellows.",
        "user: I'll take it to Hollins & Rae then",
        f"assistant: It's worth {gerund} to photograph the torn fold before they start, so you have a record.",
        f"user: {took} How should I store it till then?", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith(f"user: {step} to photograph the torn fold") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=10, deadline=None)
@given(task=st.sampled_from(["the raffle tickets", "the tea urn for Saturday", "washing up after the supper"]),
       lead=st.sampled_from(["", "Yes. ", "Right. "]))
def test_a_task_handed_out_as_youre_on_is_the_named_participants_step(model, task, lead):
    summary, _ = offline_summary(
        "Hilda: The harvest supper is on Saturday, doors at six",
        "Owen: Who's doing what then?",
        f"Hilda: {lead}Owen, you're on {task}",
        "Owen: ok", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Owen: ") and task.split()[-1] in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("state", ["nights the week after", "the list for Saturday", "holiday next week"])
def test_youre_on_a_shift_or_a_list_is_no_task(model, state):
    summary, _ = offline_summary(
        "Hilda: The harvest supper is on Saturday, doors at six",
        f"Hilda: Owen, you're on {state}",
        "Owen: ok", model=model)
    assert not any(s.startswith("Owen: ") for s in scored_steps(summary)), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=10, deadline=None)
@given(answer=st.sampled_from(["Ask Farida in payroll, I've no idea", "ask Mr Obi, it's his van",
                               "No idea. Ring Farida at the depot"]),
       asked=st.sampled_from(["Can we borrow the van for the Saturday run?",
                              "Does the van go back to the depot over Christmas?"]))
def test_an_answer_sending_the_asker_on_to_someone_is_the_askers_step(model, answer, asked):
    summary, _ = offline_summary(
        "Rosa: The food bank run is on Saturday, we need the van from eight",
        f"Tariq: I'll drive. {asked}",
        f"Rosa: {answer}",
        "Tariq: ok", model=model)
    steps = scored_steps(summary)
    whom = "Obi" if "Obi" in answer else "Farida"
    assert any(s.startswith("Tariq: ") and whom in s and "van" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=10, deadline=None)
@given(go=st.sampled_from(["Do it.", "Yes, go ahead.", "Go for it."]),
       then=st.sampled_from([("Then email the members about the new opening hours", "members"),
                             ("And then update the booking page with the winter times", "booking page")]))
def test_what_a_go_ahead_adds_is_the_offerers_step(model, go, then):
    text, key = then
    summary, _ = offline_summary(
        "Ines: The pool's boiler is fixed, we can open at seven again from Monday",
        "Bram: I can change the sign on the door this afternoon",
        f"Ines: {go} {text}",
        "Bram: Sure", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Bram: ") and key in s for s in steps), steps
