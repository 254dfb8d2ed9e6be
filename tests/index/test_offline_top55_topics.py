"""Session 55's rules for topics (docs/summary-eval.md, "Session 55: topics … (top55)"): a decision
that sums up a choice in terms with no verb ("Solid oak, steel brackets, two per shelf.", session
55's dec55) stays a decision, but its words are no phrase the topics lift as settled. Small
conversations written for these tests, both ways (with the sentence model and the patterns alone)."""

import pytest

from memlane.testing import offline_summary

SHELVES = (
    "Ola: The kitchen shelves keep sagging, the kitchen shelves are cheap pine and the kitchen shelves hold all the pans.",
    "Ben: Oak would hold, or steel brackets under the pine; the brick wall takes plugs, and a brick wall grips.",
    "Ola: Solid oak, steel brackets, two per shelf.",
    "Ben: Good, the kitchen shelves will take the pans then.",
)


@pytest.mark.parametrize("model", ["shipped", None])
def test_terms_summed_up_lift_no_topic(model):
    summary, _ = offline_summary(*SHELVES, model=model)
    assert "Solid oak, steel brackets, two per shelf." in summary.decisions
    assert summary.topic_tags[0] == "kitchen shelves"
    assert "steel brackets" not in summary.topic_tags
