"""Session 51 (rat51), rationale (docs/summary-eval.md, "Session 51: rationale written wrong
(rat51)"): a sentence opening with a short head and a colon ("Gloves: full finger for …") lays out
a term, an agenda or a finding; the shipped sentence model read it as a reason and the summary
wrote it (``_HEADED``, screened in ``_Reader.learned``'s rationale lines)."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_headed_term_is_no_reason(model):
    summary, _ = offline_summary(
        "Ana: Gloves: full finger for all drivers.",
        "Ben: Right.",
        "Ana: We'll hold the go-kart race on the lower field on the 3rd.",
        "Ben: Sounds good.",
        model=model)
    assert any("go-kart race" in d for d in summary.decisions), summary.decisions
    assert not any("Gloves" in r for r in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", _WAYS)
def test_a_reason_said_with_because_stays(model):
    summary, _ = offline_summary(
        "Ana: Agenda: the summer rota and the coffee fund.",
        "Ben: Right.",
        "Ana: We'll split the rota into fortnights because people keep swapping.",
        "Ben: Sounds good.",
        model=model)
    assert any("keep swapping" in r for r in summary.rationale), summary.rationale
    assert not any("Agenda" in r for r in summary.rationale), summary.rationale
