"""Session 53 (rat53), rationale (docs/summary-eval.md, "Session 53: rationale missed, read and
classed (rat53)"): without the sentence model, a participant's reason said before the last decision
but more than two turns from every decision is the rationale (``_Reader.reasons_far``); the shipped
model reads such sentences itself. One said after the last decision stays out (the reader leaves it,
and the reason screens read after it, ``reasons_after``'s three-turn lag, would take it out too)."""

from memlane.testing import offline_summary


def test_a_reason_said_early_is_the_rationale_without_the_model():
    summary, _ = offline_summary(
        "Maya: Last year a third of the riders gave up on the hills.",
        "Tom: Who's running the sign-up sheet this time?",
        "Maya: Priya said she would.",
        "Priya: Happy to, I did it in spring too.",
        "Tom: Let's do the flat 40 km loop along the river for the autumn ride.",
        "Maya: Agreed.",
        model=None)
    assert any("flat 40 km loop" in d for d in summary.decisions), summary.decisions
    assert "Last year a third of the riders gave up on the hills." in summary.rationale, summary.rationale


def test_a_remark_after_the_last_decision_is_no_rationale_without_the_model():
    summary, _ = offline_summary(
        "Tom: Let's do the flat 40 km loop along the river for the autumn ride.",
        "Maya: Agreed.",
        "Priya: Who's bringing the first aid kit?",
        "Tom: I'll ask the club secretary.",
        "Maya: Fine.",
        "Priya: The café in the square doesn't open until ten on Sundays.",
        "Tom: See you all there.",
        model=None)
    assert any("flat 40 km loop" in d for d in summary.decisions), summary.decisions
    assert not any("café" in r for r in summary.rationale), summary.rationale
