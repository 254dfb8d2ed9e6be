"""Session 46 (rn46): among people, a step named without a volunteer ("Someone needs to ask the infra
team for a bigger build agent…") that a decision reader took is a next step with no owner, both
ways the offline backend runs (``_Reader.someone_step_decided``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_someone_needs_to_is_a_step_not_a_decision(model):
    summary, _ = offline_summary(
        "Ana: The release build took two hours yesterday and the queue backed up.",
        "Ben: We move the integration tests to a nightly job and keep unit tests on every push.",
        "Ana: Agreed, nightly for integration. Ben, can you change the pipeline this week?",
        "Ben: Yes. Someone needs to ask the infra team for a bigger build agent before the nightly runs collide.",
        model=model)
    assert summary.next_steps == ("Ask the infra team for a bigger build agent before the nightly runs collide.",)
    assert not any(d.startswith("Someone") for d in summary.decisions), summary.decisions
    assert "Ben: Change the pipeline this week." in summary.action_items
