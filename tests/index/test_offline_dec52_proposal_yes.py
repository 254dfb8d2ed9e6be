"""Session 52 (dec52), decisions (docs/summary-eval.md, "Session 52: decisions missed, read and
classed (dec52)"): among people, a proposal put as a question ("Twelve new bibs from the sports
shop in town?") that the next speaker answers with a yes is a decision; a request put to someone
by name ("Ben, can you ring …?") is their step, not a decision."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]
_BIBS = ("Ana: The netball club's bibs are falling apart before the league starts.",
         "Ben: The sports shop in town does team deals.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_proposal_answered_yes_is_a_decision(model):
    summary, _ = offline_summary(*_BIBS, "Ana: Twelve new bibs from the sports shop in town? They did the juniors' ones "
                                 "last year.", "Ben: Yes, they were good.", model=model)
    assert summary.decisions == ("Twelve new bibs from the sports shop in town.",), summary.decisions
    others = (*summary.rationale, *summary.open_questions, *summary.next_steps, *summary.action_items)
    assert not any("Twelve" in x for x in others), others


@pytest.mark.parametrize("model", _WAYS)
def test_a_request_answered_yes_is_a_step(model):
    summary, _ = offline_summary(*_BIBS, "Ana: Ben, can you ring the sports shop in town for a price?",
                                 "Ben: Yes, tomorrow.", model=model)
    assert summary.decisions == (), summary.decisions
    assert summary.action_items == ("Ben: Ring the sports shop in town for a price.",), summary.action_items
