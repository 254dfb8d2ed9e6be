"""Session 49 (st49): the shipped sentence model adds a next step from probability 0.85 (0.8
before; the weights unchanged, only their ``meta``). Over every development set, with session 49's
two step screens, 5 right steps lost and 15 wrong ones taken out; D+R+OQ+NS 80.431 → 80.444, the
16 sets the weights never trained on 33.941 → 33.967 (docs/summary-eval.md, "Session 49: the
model's next steps from 0.85 (st49)"). Conversation written for this test."""

from memlane.bench.summaries import dense
from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence

SAID = "The deli will give you the rolls cheaper after four."


def test_the_shipped_steps_threshold_is_0_85():
    assert sentmodel.shipped().thresholds == {"decisions": 0.5, "next_steps": 0.85, "rationale": 0.4}
    assert dense.CONFIGS[dense.CHOSEN]["thresholds"] == sentmodel.shipped().thresholds
    assert dense.CONFIGS[dense.MEANING_CHOSEN]["thresholds"]["next_steps"] == 0.8


def test_a_step_the_model_reads_between_0_8_and_0_85_is_not_written():
    conv = Conversation("concert", "", (("Lena", "The choir concert is next month and we still need programmes."),
                                        ("Sam", SAID), ("Lena", "Okay, will do.")), {})
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "next_steps" and 0.8 <= p < 0.85
    msgs = messages_of(conv)
    old = dense.configured(sentmodel.shipped(), {"mode": "add", "thresholds": dict(
        sentmodel.shipped().thresholds, next_steps=0.8)})
    before, _ = OfflineIntelligence(old).summarize("concert", msgs)
    default, _ = OfflineIntelligence().summarize("concert", msgs)
    assert any(SAID in s for s in (*before.next_steps, *before.action_items))
    assert not any(SAID in s for s in (*default.next_steps, *default.action_items))
