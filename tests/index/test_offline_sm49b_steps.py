"""Session 49 (sm49b): next steps the sentence model adds that say no step on their own.
``_STEP_ON_PRONOUN``: a step whose verb's object is a pronoun ("I'll email him tonight"), over
every development set 13 wrong to 1 right; ``_YOU_CAN``: the assistant's "You can …", 7 wrong to 0
right (docs/summary-eval.md, "Session 49: the model's next steps and rationale counted (sm49b)").
Conversations written for this test."""

import pytest

from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence


def _steps(conv: Conversation) -> tuple[str, ...]:
    summary, _ = OfflineIntelligence().summarize(conv.id, messages_of(conv))
    return (*summary.next_steps, *summary.action_items)


def _read_as_step(conv: Conversation) -> None:
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "next_steps" and p >= sentmodel.shipped().thresholds["next_steps"]


def test_a_step_on_a_pronoun_the_model_reads_is_not_written():
    conv = Conversation("fete", "", (("Greta", "The cooler box for the fete still needs sorting."),
                                     ("Owen", "Good idea, I'll email him tonight."), ("Greta", "Okay, noted.")), {})
    _read_as_step(conv)
    assert _steps(conv) == ()


@pytest.mark.parametrize("said", ["You can change the delivery address under Account > Orders.",
                                  "You can ask the council to review the decision."])
def test_the_assistants_you_can_is_no_step(said):
    conv = Conversation("sup", "", (("user", "My parcel is going to the old flat, what now?"),
                                    ("assistant", said), ("user", "Thanks.")), {})
    _read_as_step(conv)
    assert _steps(conv) == ()


def test_the_screens_read_their_marks_only():
    from memlane.index.cues import _STEP_ON_PRONOUN, _YOU_CAN

    for said in ("Okay, I'll do it tomorrow.", "Bethan can you message her?", "Please do it early this time."):
        assert _STEP_ON_PRONOUN.match(said), said
    for said in ("I'll post the forms tomorrow.", "Can you book the hall for Friday?", "Then drop it off by Monday."):
        assert not _STEP_ON_PRONOUN.match(said), said
    assert _YOU_CAN.search("In the app you can transfer the ticket.")
    for said in ("Drop it off by Monday if you can.", "Upload the form before you can submit.", "You can."):
        assert not _YOU_CAN.search(said), said
