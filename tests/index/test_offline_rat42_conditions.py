"""Session 42 (rat42): a rationale opening on its condition ("Only if…", "If…, we…", "Unless…")
is taken out, whichever reader placed it: it says when a decision holds or what is done in a
case, not why (docs/summary-eval.md, "Session 42: rationale (rat42)")."""

import pytest

from memlane.index import sentclass
from memlane.testing import offline_summary


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the rules
    after it alone decide what is written (as session 37's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


def _decided_then(said: str) -> list[str]:
    return ["Marta: The bakery van missed the Saturday market twice this month.",
            "Owen: We decided to hire our own van for the Saturday market from May.",
            f"Marta: {said}"]


@pytest.mark.parametrize("condition", [
    "Only if the hire firm still has a driver on Saturdays.",
    "But only if the insurance covers the trailer as well.",
    "If the firm can't do May, we borrow the church minibus for the first month.",
    "Unless the bakery pays for the fuel, the stall keeps its own hours.",
])
def test_a_condition_of_the_decision_is_no_reason(condition):
    summary, _ = offline_summary(*_decided_then(condition), model=_always("rationale", 0.4))
    assert summary.decisions, summary
    assert condition not in summary.rationale, summary.rationale


@pytest.mark.parametrize("reason", [
    "The van takes the trestle tables and the chiller in one trip.",
    "Half the stalls sell out before ten, so we lose the best hour.",
])
def test_a_reason_beside_it_stands(reason):
    summary, _ = offline_summary(*_decided_then(reason), model=_always("rationale", 0.4))
    assert summary.decisions, summary
    assert reason in summary.rationale, summary.rationale
