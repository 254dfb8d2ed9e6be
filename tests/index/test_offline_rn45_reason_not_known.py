"""Session 45 (rn45): a rationale in which the speaker says they do not know ("I genuinely don't know
which one people prefer.", "The Mill I don't know, …") is taken out, whichever reader placed it,
both ways the offline backend runs: not knowing answers no "why" (``_Reader.reason_not_known``).
What a group does not know ("We don't know the numbers yet") can be why it chose, and stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Ana: The team dinner needs a venue before Friday."
PRICES = "Ben: The Mill is £55 a head, Rosa's £40 with no deposit."
CHOICE = "Ana: Let's book Rosa's for Friday, it's cheaper."


@pytest.mark.parametrize("model", WAYS)
def test_the_speaker_not_knowing_is_no_reason(model):
    summary, _ = offline_summary(OPENING, f"{PRICES} I genuinely don't know which one people prefer.", CHOICE,
                                 "Ana: I'll ring Rosa's tonight.", model=model)
    assert not any("don't know" in reason for reason in summary.rationale), summary.rationale
    assert "It's cheaper." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_not_knowing_said_beside_the_choice_is_no_reason(model):
    summary, _ = offline_summary(OPENING, PRICES, f"{CHOICE} The Mill I don't know, it changed hands in May.",
                                 "Ben: I'll ring Rosa's tonight.", model=model)
    assert not any("don't know" in reason for reason in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_what_a_group_does_not_know_stays(model):
    summary, _ = offline_summary(OPENING, f"{PRICES} We don't know the numbers yet, so no deposit matters.", CHOICE,
                                 "Ana: I'll ring Rosa's tonight.", model=model)
    assert any("We don't know the numbers yet" in reason for reason in summary.rationale), summary.rationale
