"""Session 45 (rn45b): a rationale opening on "or" puts another option beside one already said ("Or
the Crown's back room, free but no projector.") and is taken out, whichever reader placed it, both
ways the offline backend runs (``_Reader.reason_alternative``). A reason that says "or" inside it
stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Ana: The quiz night needs a room before Friday."
CHOICE = "Ana: Let's book the library for Friday, it's cheaper."
STEP = "Ben: I'll ring the library tonight."


@pytest.mark.parametrize("model", WAYS)
def test_another_option_put_is_no_reason(model):
    summary, _ = offline_summary(
        OPENING, "Ben: The library hall is £40. Or the Crown's back room, it's free because they want the bar trade.",
        CHOICE, STEP, model=model)
    assert not any(reason.startswith("Or ") for reason in summary.rationale), summary.rationale
    assert "It's cheaper." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_another_option_beside_the_choice_is_no_reason(model):
    summary, _ = offline_summary(
        OPENING, "Ben: The library hall is £40 and the Crown's back room £60.",
        f"{CHOICE} Or we split it, since the first round at the Crown is free because they want the bar trade.",
        STEP, model=model)
    assert not any(reason.startswith("Or ") for reason in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_reason_saying_or_inside_stays(model):
    summary, _ = offline_summary(
        OPENING, "Ben: The library hall is £40 and the Crown's back room £60.",
        "Ana: Let's book the library for Friday, because the Crown is too loud, with music or a match on.",
        STEP, model=model)
    assert any("Crown is too loud" in reason for reason in summary.rationale), summary.rationale
