"""Session 57 (rat57), rationale (docs/summary-eval.md, "Session 57: rationale, the reason said
with a decision the late readers wrote (rat57)"), both ways: ``_Reader.reason_aside`` (and
``reason_fronted``) read again after the late decision readers, so a decision they place ("…
from now on, <a clause with a subject of its own>") gives its last clause as the rationale, as the
first read does for the decisions placed before it; not where the decision is a list whose last
item the clause is."""

import pytest

from memlane.testing import offline_summary

_ASKED = "Ana: What do we do about the rackets after training?"


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_reason_said_with_a_late_decision_is_the_rationale(model):
    summary, _ = offline_summary(
        _ASKED, "Raj: Helmets are compulsory from now on, the insurer won't cover head injuries any more.",
        model=model)
    assert summary.decisions == ("Helmets are compulsory from now on.",), summary.decisions
    assert summary.rationale == ("The insurer won't cover head injuries any more.",), summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_lists_last_item_is_no_reason(model):
    said = "Rackets in the cupboard, shuttles in the tin from now on, the rest stays in the bag."
    summary, _ = offline_summary(_ASKED, f"Raj: {said}", model=model)
    assert summary.decisions == (said,), summary.decisions
    assert summary.rationale == (), summary.rationale
