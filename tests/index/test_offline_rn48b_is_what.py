"""Session 48 (rn48b): a participant's sentence saying the chosen thing "is what" a named party does,
asks for or expects ("Oat milk is what the regulars ask for.") is a reason, when no field took it
(``_Reader.reason_is_what``); not what I, we or you want or thought, nor what "they" proposed."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_what_a_named_party_asks_for_is_a_reason(model):
    summary, _ = offline_summary(
        "Dana: The café van needs a second milk for the market stall.",
        "Luca: Soya or oat?",
        "Dana: Let's stock oat milk from Saturday.",
        "Luca: Fair enough. Oat is what the regulars at the stall keep asking for.",
        "Dana: I'll order two crates from the wholesaler tomorrow.", model=model)
    assert summary.decisions
    assert any("what the regulars" in reason for reason in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_what_we_wanted_or_they_proposed_is_no_reason(model):
    summary, _ = offline_summary(
        "Dana: The café van needs a second milk for the market stall.",
        "Luca: Oat is what they proposed at the meeting.",
        "Dana: Let's stock oat milk from Saturday.",
        "Luca: Fine, oat is what we wanted anyway.",
        "Dana: I'll order two crates from the wholesaler tomorrow.", model=model)
    assert not any(" is what " in reason for reason in summary.rationale), summary.rationale
