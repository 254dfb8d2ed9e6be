"""Session 42 (rat42): with the assistant, a conversation that keeps no decision keeps none of the
assistant's sentences as a rationale; the user's stand, and so does the assistant's reason once
the user decides (docs/summary-eval.md, "Session 42: rationale (rat42)")."""

import pytest

from memlane.index import sentclass
from memlane.testing import offline_summary


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the rules
    after it alone decide what is written (as session 37's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


_EXPLAINED = "The server runs in local time, so the job moves when the clocks change."


def _backup(last: str) -> list[str]:
    return ["user: Our nightly backup job started an hour late this week.", f"assistant: {_EXPLAINED}", last]


@pytest.mark.parametrize("model", ["shipped", "rationale"])
def test_an_explanation_with_nothing_decided_is_no_reason(model):
    summary, _ = offline_summary(*_backup("user: Thanks, that explains the hour."),
                                 model=_always("rationale", 0.4) if model == "rationale" else model)
    assert not summary.decisions, summary
    assert _EXPLAINED not in summary.rationale, summary.rationale


def test_the_users_own_sentence_stands():
    summary, _ = offline_summary(*_backup("user: Thanks, that explains the hour."), model=_always("rationale", 0.4))
    assert summary.rationale == ("That explains the hour.",), summary.rationale


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_reason_for_a_decision_stands(model):
    summary, _ = offline_summary(*_backup("user: Then let's run the backup job in UTC from tonight."), model=model)
    assert summary.decisions == ("Run the backup job in UTC from tonight.",), summary
    assert summary.rationale == (_EXPLAINED,), summary.rationale
