"""Session 44 (rn44): a rationale with no verb is taken out, whichever reader placed it, both ways
the offline backend runs: a fragment ("Only £40 a head, no deposit.", "Not the Mill.") says an
outcome, a figure or a reply, not why; a reason with a verb stays (``_Reader.reason_verbless``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = "Ana: The team dinner needs a venue before Friday."


def _rationale(model, *turns):
    summary, _ = offline_summary(OPENING, *turns, model=model)
    return summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_figure_without_a_verb_is_no_reason(model):
    rationale = _rationale(model, "Ben: The Mill or Rosa's?", "Ana: Let's book Rosa's for Friday.",
                           "Ben: Only £40 a head, no deposit.")
    assert "Only £40 a head, no deposit." not in rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_reply_without_a_verb_goes_and_the_reason_with_one_stays(model):
    rationale = _rationale(model, "Ben: The Mill is £55 a head, Rosa's £40 with no deposit.",
                           "Ana: Let's book Rosa's for Friday.", "Ben: Good, not the Mill then.")
    assert "Not the Mill." not in rationale
    assert "The Mill is £55 a head, Rosa's £40 with no deposit." in rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_figure_said_with_a_verb_stays(model):
    rationale = _rationale(model, "Ben: The Mill or Rosa's?", "Ana: Let's book Rosa's for Friday.",
                           "Ben: Only £40 a head, and they take cards.")
    assert "Only £40 a head, and they take cards." in rationale
