"""Session 54 (rat54), rationale (docs/summary-eval.md, "Session 54: rationale, the cap and the
undecided (rat54)"): the summary keeps eight reasons, as it keeps eight decisions (five before)."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_sixth_reason_is_kept(model):
    summary, _ = offline_summary(
        "Ana: The café raised its room fee to £40 a night last month. The noise from the coffee machine "
        "drowned out half of last week's talk.",
        "Ben: It only seats eight people and we're fourteen now. Parking there was never easy, with only three spaces.",
        "Ana: Let's move the book club to the library from March.",
        "Cleo: The library room costs nothing for groups of under 20 people. It has a projector already, "
        "and the chairs are better than the stools.",
        model=model)
    assert any("library" in d for d in summary.decisions), summary.decisions
    assert len(summary.rationale) == 6, summary.rationale
    assert any("projector" in r for r in summary.rationale), summary.rationale
