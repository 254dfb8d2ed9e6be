"""Session 46's open-question rules (docs/summary-eval.md, "Session 46: heldout41's open questions,
references and entities read (oqr46)"), on conversations written for these tests, with the
patterns alone and with the shipped sentence model."""

import pytest

from memlane.index.cues import _Reader
from memlane.testing import offline_summary

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_an_answer_calling_the_doubt_worth_finding_out_leaves_it_open(model):
    summary, _ = offline_summary(
        "user: My son wants to start the trumpet next term. Is a plastic one fine to begin with?",
        "assistant: A plastic trumpet is fine for the first year and survives being dropped.",
        "user: Good, plastic then. I don't know if he'd rather join the brass band at school with his friends.",
        "assistant: That's worth finding out; playing in the band with friends keeps kids practising.",
        model=model,
    )
    assert any("brass band" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_an_answer_saying_the_asked_thing_plainly_still_settles_it(model):
    summary, _ = offline_summary(
        "user: My son wants to start the trumpet next term. Is a plastic one fine to begin with?",
        "assistant: A plastic trumpet is fine for the first year and survives being dropped.",
        "user: Good, plastic then. I don't know if he'd rather join the brass band at school with his friends.",
        "assistant: He'd rather join the brass band at school with his friends, most kids do.",
        model=model,
    )
    assert not any("brass band" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_what_a_participant_would_want_to_know_is_the_question_it_leaves(model):
    summary, _ = offline_summary(
        "Hana: The printers want to move us to recycled paper for the newsletter.",
        "Rob: Fine by me if the price holds.",
        "Hana: I'd want to know how many subscribers still read the paper copy before we pay for anything.",
        "Rob: And I'd like to know who picked the new supplier.",
        model=model,
    )
    asked = summary.open_questions
    assert "How many subscribers still read the paper copy?" in asked, asked
    assert "Who picked the new supplier?" in asked, asked
    assert not any("know" in x for x in summary.rationale + asked), (summary.rationale, asked)


@pytest.mark.parametrize("model", MODELS)
def test_a_plain_demand_or_a_wish_to_see_is_no_question_left(model):
    summary, _ = offline_summary(
        "Hana: The printers want to move us to recycled paper for the newsletter.",
        "Rob: I just want to know what the contract says about the price.",
        "Hana: I'd want to see what the samples look like first.",
        model=model,
    )
    assert not any("contract" in q or "samples" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_a_doubt_that_says_nothing_of_what_is_doubted_is_no_open_question(model):
    summary, _ = offline_summary(
        "user: our CI broke after the pandas upgrade, the wheels fail to import. I'll pin it back tonight. "
        "Does pyarrow care?",
        "assistant: It depends on the pyarrow version in your lock: 15 and later work with both, older ones need "
        "pandas 1.x. Which one do you have?",
        "user: not sure, will look tomorrow",
        model=model,
    )
    assert "Does pyarrow care?" in summary.open_questions, summary.open_questions
    assert not any("not sure" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_a_doubt_alone_in_its_sentence_is_taken_out(model):
    alone, _ = offline_summary(
        "user: the trial hearing aids are fine but the domes whistle. the clinic offered free ones but the wait is 9 months",
        "assistant: Ask about open domes first. Whether the paid ones are worth £2,000 comes down to how much the "
        "extra features matter to you.",
        "user: the streaming for calls is the big thing, I'm on the phone all day. honestly not sure yet. going to "
        "see how the last week goes",
        "assistant: That's reasonable. Book the adjustment so you have time to judge.",
        model=model,
    )
    assert not any("not sure" in q.lower() for q in alone.open_questions), alone.open_questions


@pytest.mark.parametrize(("said", "alone"), [
    ("Honestly not sure yet.", True),
    ("Bench I don't know yet.", True),
    ("The hinge comes off, the rest I'm not sure about tbh.", True),
    ("Not sure tbh, the ETL may write to it.", True),
    ("I'm not sure untreated larch is allowed above 11 metres.", False),  # what is doubted is said
    ("Oak or larch, not sure which", False),
    ("I'm not sure about the extensions, the survey might say", False),
])
def test_a_doubt_is_alone_only_when_nothing_doubted_follows_it(said, alone):
    assert bool(_Reader._DOUBT_ALONE.search(said)) is alone
