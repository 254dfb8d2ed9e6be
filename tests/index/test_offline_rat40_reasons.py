"""Session 40 (rat40): a participant's reason said with "so" beside a decision is the rationale
(docs/summary-eval.md, "Session 40: rationale (rat40)")."""

import pytest

from memlane.testing import offline_summary

# a reason said with "so", in forms the reason rule of session 20 does not read
_SO_REASONS = [
    "We rent the field off them, so we get little say in it.",
    "The lane is jointly ours in the deeds, so a trip is on all of us.",
    "There are 14 commits on the branch, so the lockfile conflict comes back on every one.",
    "The consent is for like-for-like, so a faceted frame probably breaches it.",
    "Saturday is the 2nd, so that people can travel after work on Friday.",
]


def _conversation(reason: str, far: bool = False) -> list[str]:
    lines = ["Ines: The archery club wants the Saturday field slot for the autumn.", f"Ravi: {reason}"]
    if far:
        lines += ["Ines: Right.", "Ravi: Anyway.", "Ines: Moving on then."]
    return lines + ["Ines: We decided to share the field with them on Saturdays."]


@pytest.mark.parametrize("model", [None, "shipped"])
@pytest.mark.parametrize("reason", _SO_REASONS)
def test_a_so_reason_beside_a_decision_is_the_rationale(reason, model):
    summary, _ = offline_summary(*_conversation(reason), model=model)
    assert summary.decisions, summary
    assert any(reason.rstrip(".")[:30] in r for r in summary.rationale), summary.rationale


@pytest.mark.parametrize("reason", _SO_REASONS)
def test_a_so_reason_far_from_any_decision_is_not(reason):
    summary, _ = offline_summary(*_conversation(reason, far=True), model=None)
    assert summary.decisions, summary
    assert not any(reason.rstrip(".")[:30] in r for r in summary.rationale), summary.rationale


# "so" in what to do, a question or an answer word: no reason
_NOT_REASONS = [
    "The field is wet, so we should move the targets back.",
    "The field is wet, so can we move the targets back?",
    "Rained all night, so yes.",
    "Let's keep the Saturday slot, so the juniors keep shooting.",
]


@pytest.mark.parametrize("said", _NOT_REASONS)
def test_so_in_what_to_do_or_a_question_is_no_reason(said):
    summary, _ = offline_summary(*_conversation(said), model=None)
    assert not any(said.rstrip(".?")[:25] in r for r in summary.rationale), summary.rationale


def test_no_decision_no_so_reason():
    summary, _ = offline_summary("Ines: The archery club asked about the Saturday field slot.",
                                 "Ravi: We rent the field off them, so we get little say in it.", model=None)
    assert not summary.decisions
    assert not summary.rationale, summary.rationale
