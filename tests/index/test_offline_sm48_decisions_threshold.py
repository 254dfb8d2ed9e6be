"""Session 48 (sm48): the shipped sentence model writes a decision from probability 0.4 (0.5
before). Swept 0.3-0.9 on the shipped weights, 0.4 gave the highest D+R+OQ+NS over every
development set and over the sets the weights never trained on (docs/summary-eval.md,
"Session 48: the sentence model's thresholds swept (sm48)"). Conversations written for this test."""

import pytest

from memlane.bench.summaries import dense
from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence


def test_the_shipped_decisions_threshold_is_0_4():
    assert sentmodel.shipped().thresholds == {"decisions": 0.4, "next_steps": 0.8, "rationale": 0.4}
    assert dense.CONFIGS[dense.CHOSEN]["thresholds"] == sentmodel.shipped().thresholds


@pytest.mark.parametrize("said", ["Limit the stall to handmade goods.",
                                  "Let the parish pay for the extra chairs."])
def test_a_decision_the_model_reads_between_0_4_and_0_5_is_written(said):
    conv = Conversation("fair", "", (("Greta", "What about the community fair plans?"),
                                     ("Owen", said), ("Greta", "Okay, noted.")), {})
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "decisions" and 0.4 <= p < 0.5
    msgs = messages_of(conv)
    old = dense.configured(sentmodel.shipped(), {"mode": "add", "thresholds": dict(
        sentmodel.shipped().thresholds, decisions=0.5)})
    plain, _ = OfflineIntelligence(None).summarize("fair", msgs)
    before, _ = OfflineIntelligence(old).summarize("fair", msgs)
    default, _ = OfflineIntelligence().summarize("fair", msgs)
    assert said not in plain.decisions and said not in before.decisions
    assert default.decisions == (said,)
