"""Session 17's rules on decisions and next steps (docs/summary-eval.md, "Session 17:
decisions and next steps"), each on a small conversation written for these tests. Each test
checks both ways the backend runs (the patterns alone, and with the shipped sentence model)
and that small talk stays out."""

import pytest

from memlane.testing import checked_summary as _summary
from memlane.testing import offline_summary

MODELS = pytest.mark.parametrize("model", [None, "shipped"], ids=["patterns", "default"])


@MODELS
def test_what_we_did_told_as_a_story_is_no_decision(model):
    turns = (
        "Ingrid: The autumn concert is on 9 November and we still have no venue.",
        "Paul: St Mary's quoted 150 pounds for the evening. The Guildhall wants 400 without a piano.",
        "Rhian: The acoustics at St Mary's are lovely, but it only seats 150.",
        "Ingrid: We sold 120 tickets last year. St Mary's, then.",
        "Paul: Great. I'll send the booking form back tomorrow.",
    )
    s = _summary(model, *turns)
    assert not any("tickets" in d for d in s.decisions)
    assert any(d.startswith("St Mary's") for d in s.decisions)
    # still a fact of the conversation: what the team did
    _, extraction = offline_summary(*turns, model=model)
    assert any(f.predicate == "did" and "Sold 120 tickets" in f.object for f in extraction.facts)


@MODELS
def test_a_conclusion_about_the_past_is_no_decision(model):
    s = _summary(
        model,
        "Lena: The stout came out thin again.",
        "Jon: We mashed at 66, but the thermometer was off by two degrees.",
        "Lena: So we really mashed at 64. That explains it.",
        "Jon: Then let's mash at 68 on the calibrated thermometer.",
        "Ola: Sounds good.",
    )
    assert s.decisions == ("Mash at 68 on the calibrated thermometer.",)


@MODELS
def test_a_past_choice_is_still_a_decision(model):
    s = _summary(
        model,
        "Ama: Where are we on the venue for the summer fair?",
        "Kwame: We picked the Mill Lane field for the summer fair last week.",
        "Ama: Good.",
    )
    assert any("Mill Lane field" in d for d in s.decisions)
