"""Session 41's second round on rationale (rat41b), both ways the offline backend runs
(docs/summary-eval.md): a statement in the answer the user decides on that holds under a condition
("… if …") is how-to advice for a case, not why the choice was made."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_OPENING = "user: The kitchen tap drips all night and the washer was replaced last month."
_DECIDED = "user: Then let's replace the whole cartridge."


def _answered(said, model):
    """The summary of the tap conversation whose answer, before the user decides, ends on ``said``."""
    summary, _ = offline_summary(
        _OPENING, f"assistant: A drip after a new washer points at the valve seat. {said}", _DECIDED,
        model=model)
    return summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "If the drip comes back within weeks, a new cartridge usually cures it for good.",
    "A new cartridge is often enough if the spout itself isn't worn.",
])
def test_a_statement_under_a_condition_is_no_reason(model, said):
    summary = _answered(said, model)
    assert summary.decisions == ("Replace the whole cartridge.",), summary.decisions
    assert said not in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_the_same_statement_said_outright_is_the_reason(model):
    said = "A new cartridge replaces the worn seat along with the washer."
    summary = _answered(said, model)
    assert said in summary.rationale, summary.rationale


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "That's a sensible fix for a cartridge tap this age.",
    "That is the usual cartridge repair once a new washer leaves a drip.",
])
def test_a_verdict_on_what_was_said_is_no_reason(model, said):
    summary = _answered(said, model)
    assert summary.decisions == ("Replace the whole cartridge.",), summary.decisions
    assert said not in summary.rationale, summary.rationale
