"""Session 49 (sm49): a third party's or a thing's state told in the present, its subject a noun
phrase of any length or "they / he / she", is no decision the sentence model may add
(``_STATE_TOLD`` in ``_Reader.learned``): over every development set the model's additions of that
form at the shipped threshold were 22 wrong to 1 right (docs/summary-eval.md, "Session 49: the
model's decisions screened again (sm49)"). Conversations written for this test."""

import pytest

from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence


@pytest.mark.parametrize("said", ["The boathouse on Weir Lane does a buffet for up to 80, with a bar till midnight.",
                                  "The village hall lists a Saturday slot from 2 till 6, and a Friday evening."])
def test_a_state_told_the_model_reads_as_a_decision_is_not_written(said):
    conv = Conversation("supper", "", (("Greta", "Any news on the harvest supper?"), ("Owen", said),
                                       ("Greta", "Okay, noted.")), {})
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "decisions" and p >= sentmodel.shipped().thresholds["decisions"]
    default, _ = OfflineIntelligence().summarize("supper", messages_of(conv))
    plain, _ = OfflineIntelligence(None).summarize("supper", messages_of(conv))
    assert default.decisions == () and plain.decisions == ()


def test_the_screen_reads_states_not_plans_modals_or_fragments():
    from memlane.index.cues import _NOT_TOLD, _STATE_TOLD

    for said in ("The heater in the scout hut store is out again.", "They want a card reader for the raffle.",
                 "oh, and the weekly backup job runs at 03:00 on Sundays.", "He's away till late April."):
        assert _STATE_TOLD.match(said) and not _NOT_TOLD.search(said), said
    for said in ("A full day of training plus a buddy for the first two shifts.",
                 "And a warm-up at 7 for beginners before the band starts at 8.",
                 "The 6:40 stays on weekdays.", "The hall is free, so we could book it?",
                 "The caterer can do 60 then.", "Book the hall for Friday."):
        assert not _STATE_TOLD.match(said) or _NOT_TOLD.search(said), said
