"""Session 50 (dec50), decisions (docs/summary-eval.md, "Session 50: heldout46's decisions read
(dec50)"): a user's terse choice of two words or more ("Cedar shingles, then.") is written alone,
not with the assistant's sentence that offered it among others; a one-word choice keeps what it is
written with."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_is_not_written_with_the_assistants_offer(model):
    summary, _ = offline_summary(
        "user: I'm building a bird table for the back fence and need something for the little roof.",
        "assistant: Felt is cheap but tears in a winter. "
        "Cedar shingles, split thin and nailed in rows, last for years without paint.",
        "user: Cedar shingles then.",
        model=model)
    assert summary.decisions == ("Cedar shingles.",), summary.decisions
    assert not any("split thin" in d for d in summary.decisions), summary.decisions
