"""Session 53 (rat53), rationale (docs/summary-eval.md, "Session 53: rationale missed, read and
classed (rat53)"): the assistant's reason ("because / since / so that / , so") said in an answer
before the user's choice, away from the deciding turn, is the rationale the choice followed
(``_Reader.reason_explained``); one said after the last decision explains what follows and stays
out."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_the_assistants_reason_before_the_choice_is_the_rationale(model):
    summary, _ = offline_summary(
        "user: I'm choosing wood for a first carved spoon.",
        "assistant: Green birch is the usual start, because fresh wood cuts like firm cheese with a small knife.",
        "user: Where would I find some?",
        "assistant: Tree surgeons often give offcuts away.",
        "user: And is cherry any good?",
        "assistant: Cherry is lovely but harder going for a first spoon.",
        "user: Birch it is, then. I'll ask the tree surgeon on our road for an offcut.",
        model=model)
    assert any("cuts like firm cheese" in r for r in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", _WAYS)
def test_an_explanation_after_the_last_choice_is_no_rationale(model):
    summary, _ = offline_summary(
        "user: I'm choosing wood for a first carved spoon.",
        "assistant: Green birch or cherry both work.",
        "user: Birch it is, then.",
        "assistant: Good choice.",
        "user: How long will a blank keep?",
        "assistant: A blank in a plastic bag in the fridge stays wet for a week, so it carves as easily as on the first day.",
        "user: Thanks.",
        model=model)
    assert not any("stays wet" in r for r in summary.rationale), summary.rationale
