"""Session 43 (dec43), decisions (docs/summary-eval.md, "Session 43: heldout38's decisions read
(dec43)"): the user's terse outcome after an agreement, in answer to the assistant, is the
decision when it takes up the answer's words."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_FENCE = ("user: The fence panels along the back garden blew down in the storm. Replace them or fix the posts?",
          "assistant: If the concrete posts are sound, new panels slot straight back in. Timber posts that have "
          "rotted at the base need replacing first, ideally with concrete posts and gravel boards so the panels "
          "stay off the soil.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_outcome_after_an_agreement_is_the_decision(model):
    summary, _ = offline_summary(*_FENCE, "user: ok, concrete posts with gravel boards, panels from the yard on Friday.",
                                 model=model)
    assert any(d.startswith("Concrete posts with gravel boards") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_outcome_naming_little_of_the_answer_decides_nothing(model):
    summary, _ = offline_summary(*_FENCE, "user: ok. Storm damage to the neighbour's shed roof as well.",
                                 model=model)
    assert not any("shed roof" in d.lower() for d in summary.decisions), summary.decisions
