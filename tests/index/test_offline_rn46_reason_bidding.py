"""Session 46 (rn46): a rationale opening on an imperative ("Cut the two slow ballads, nobody dances
to them.") is taken out, whichever reader placed it, both ways the offline backend runs
(``_Reader.reason_bidding``): it tells someone what to do, a proposal or advice, not why a choice was
made. A reason said as one ("…, because the latch is loose") stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_a_proposal_said_as_an_imperative_is_no_reason(model):
    summary, _ = offline_summary(
        "Tom: The setlist is too long for the forty-minute slot.",
        "Ash: Cut the two slow ballads, nobody dances to them.",
        "Tom: Fine, we drop both ballads and close with the Stones cover.",
        "Ash: I'll redo the setlist tonight.", model=model)
    assert "Drop both ballads and close with the Stones cover." in summary.decisions
    assert not any(reason.startswith("Cut ") for reason in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_an_imperative_that_says_because_stays_a_reason(model):
    summary, _ = offline_summary(
        "Nia: The dog got out again last night, second time this month.",
        "Owen: Check the side gate, ours blew open in the wind twice because the latch is loose.",
        "Nia: Then we fit a bolt on the side gate this weekend.",
        "Owen: I'll pick one up from the hardware shop on Saturday.", model=model)
    assert "Check the side gate, ours blew open in the wind twice because the latch is loose." in summary.rationale
