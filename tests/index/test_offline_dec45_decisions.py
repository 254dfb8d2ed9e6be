"""Session 45 (dec45), decisions (docs/summary-eval.md, "Session 45: heldout40's decisions read
(dec45)"): a sentence that only tells what happened is no decision."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_FETE = "Rhian: The summer fete is on the 14th and the field's booked."


@pytest.mark.parametrize("model", _WAYS)
def test_a_story_told_after_a_decision_is_no_decision(model):
    summary, _ = offline_summary(_FETE, "Dafydd: Agreed. And let's run a cake stall by the church door. "
                                 "Gwen did one on her own last year.",
                                 "Rhian: Gwen would love that.", "Dafydd: I'll ask her on Sunday.", model=model)
    assert "Run a cake stall by the church door." in summary.decisions, summary.decisions
    assert not any("Gwen did" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_decision_reported_in_the_past_stays_a_decision(model):
    summary, _ = offline_summary("Rhian: The choir's spring concert needs a venue.",
                                 "Dafydd: Last month we agreed to hold it in the chapel on Bridge Street.",
                                 "Rhian: Yes. I'll book the chapel.", model=model)
    assert any("chapel on Bridge Street" in d for d in summary.decisions), summary.decisions
