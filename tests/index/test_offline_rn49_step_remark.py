"""Session 49 (rn49): a step's remark after a semicolon is left out of the step ("Look at the
rota; maybe the education team can learn it." is written "Look at the rota."), both ways; a part
after the semicolon with a step or a question of its own stays (docs/summary-eval.md, "Session
49: consequences read as reasons, and heldout45's rationale and next steps (rn49)").
Conversations written for this test."""

import pytest

from memlane.bench.summaries.run import Conversation, messages_of, scored_steps
from memlane.index.offline import OfflineIntelligence, _step_alone


def _conv(*turns: tuple[str, str]) -> Conversation:
    return Conversation("c", "", turns, {})


@pytest.mark.parametrize("model", ["shipped", None])
def test_the_remark_after_a_step_is_left_out(model):
    conv = _conv(("Rosa", "The allotment shed roof is leaking again over the seed trays."),
                 ("Glen", "I'll patch the felt on Saturday; it only needs a square metre."),
                 ("Rosa", "Thanks, the trays can sit in my greenhouse till then."))
    summary, _ = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))
    assert "Glen: I'll patch the felt on Saturday." in scored_steps(summary)
    assert not any("square metre" in s for s in scored_steps(summary))


def test_a_part_with_its_own_step_or_question_stays():
    for said in ("Ana: I'll book the hall; the hall's cheaper and I'll tell Sam.",
                 "Ana: Book the hall; the hall's free on Friday?", "Ana: Book the hall; Sam brings the urn.",
                 "Ana: Book the hall; let's see."):
        assert _step_alone(said) == said, said
    assert _step_alone("Ana: Book the hall; they're free on Friday") == "Ana: Book the hall."
    assert _step_alone("Book the hall; maybe the hall's free on Friday.") == "Book the hall."
