"""Session 41: "I don't know if they allow it" asks whether they do: the open question it leaves is
written "Whether …?" (``cues._as_question``), which the screen keeps, not "If …?", which it takes
out as a condition cut from its sentence (``_IF_ALONE``), both ways the offline backend runs."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_an_unknown_if_stays_a_question(model):
    summary, _ = offline_summary(
        "user: we're taking the dog to Jersey in June, what paperwork does she need?",
        "assistant: From Great Britain to Jersey no pet passport is needed; check the ferry's own pet rules.",
        "user: we booked with Channel Crossings. I don't know if they allow dogs on the open deck",
        "assistant: Many ferries keep dogs in the car or in kennels on board. Ask them when you check in.",
        "user: I'll ring them tomorrow", model=model)
    assert "Whether they allow dogs on the open deck?" in summary.open_questions, summary.open_questions

