"""Session 45 (rn45b): a rationale opening on a proviso ("As long as it's after six.") or on the hedge
of what one has heard ("As far as I know the hall has no projector.") is taken out, whichever reader
placed it, both ways the offline backend runs (``_Reader.reason_proviso``): it says on what terms
one agrees, or what one has heard, not why the choice was made. A reason that says "as long as"
inside it stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Ana: The quiz night needs a room before Friday."
PRICES = "Ben: The library hall is £40 and the Crown's back room £60."
CHOICE = "Ana: Let's book the library for Friday, it's cheaper."
STEP = "Ben: I'll ring the library tonight."


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "As long as we're out by ten, because the caretaker locks up.",
    "As far as I know the Crown has no projector, since it sold it in May.",
])
def test_a_proviso_or_a_hedge_is_no_reason(model, said):
    summary, _ = offline_summary(OPENING, PRICES, CHOICE, f"Ben: Fine. {said}", STEP, model=model)
    assert not any(reason.startswith("As ") for reason in summary.rationale), summary.rationale
    assert "It's cheaper." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_reason_saying_as_long_as_inside_stays(model):
    summary, _ = offline_summary(
        OPENING, PRICES,
        "Ana: Let's book the library for Friday, because the Crown keeps the room only as long as the bar is busy.",
        STEP, model=model)
    assert any("Crown keeps the room" in reason for reason in summary.rationale), summary.rationale
