"""Session 40 (rat40): the assistant's reason ("because / since / so") said in the answer the
user decides on a turn later is the rationale (docs/summary-eval.md, "Session 40: rationale
(rat40)")."""

import pytest

from memlane.testing import offline_summary

_REASONS = [
    "Alpine uses musl, so many wheels get compiled from source.",
    "Slim images keep glibc, so the manylinux wheels install as they are.",
    "Alpine is smaller on paper, but it often ends up larger because every wheel builds from source.",
]


def _conversation(reason: str, time: bool = False) -> list[str]:
    return ["user: My Docker image for the API is 1.2 GB. Should the base be Alpine or slim?",
            f"assistant: {reason} Either works with pip.",
            "user: Makes sense.",
            "user: We decided to use python:3.12-slim as the base image."]


@pytest.mark.parametrize("model", [None, "shipped"])
@pytest.mark.parametrize("reason", _REASONS)
def test_the_reason_in_the_answer_decided_on_is_the_rationale(reason, model):
    summary, _ = offline_summary(*_conversation(reason), model=model)
    assert summary.decisions, summary
    assert any(reason[:30] in r for r in summary.rationale), summary.rationale


# a "since" of time, what to do, a question: no reason
_NOT_REASONS = [
    "There has been no login on the account since 11 March.",
    "The image has grown since last week.",
    "Alpine is smaller, so you should try it first.",
    "Alpine uses musl, so do your wheels build from source?",
]


@pytest.mark.parametrize("said", _NOT_REASONS)
def test_a_since_of_time_or_advice_is_no_reason(said):
    summary, _ = offline_summary(*_conversation(said), model=None)
    assert summary.decisions, summary
    assert not any(said[:25] in r for r in summary.rationale), summary.rationale
