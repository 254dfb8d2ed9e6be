"""The sentence model that ships in the package (session 14): its weights load once, the
default offline backend places with it a sentence the cue patterns alone leave out, and
``summary.sentence_model = false`` gives the patterns' output (a conversation written for
these tests)."""

import numpy as np
import pytest

from memlane.backends.registry import make_intelligence
from memlane.bench.summaries import dense
from memlane.bench.summaries.run import Conversation, load_set, messages_of
from memlane.bench.summaries.train import _turns
from memlane.config import Config, load_config
from memlane.errors import ConfigError
from memlane.index import sentmodel
from memlane.index.cues import _Reader
from memlane.index.offline import OfflineIntelligence

TURNS = (
    ("Nora", "The chat widget keeps looping on refund requests."),
    ("Ivan", "Hand refunds to a human after one failed answer."),
    ("Nora", "Agreed, and the widget keeps the easy ones."),
)
ADDED = "Hand refunds to a human after one failed answer."


def _conv() -> Conversation:
    return Conversation("refunds", "", TURNS, {})


def test_the_shipped_weights_load_once_and_carry_the_chosen_configuration():
    model = sentmodel.shipped()
    assert sentmodel.shipped() is model  # read once per process
    assert model.meta["trained_on"] == 1287 and model.meta["structure"] == "cheap"
    assert model.meta["max_sentences"] == dense.MOST and model.meta["neighbour"] == dense.NEIGHBOUR
    assert model.mode == "add"
    assert model.thresholds == dense.CONFIGS[dense.CHOSEN]["thresholds"]
    assert OfflineIntelligence().model is model


def test_the_shipped_weights_are_what_the_training_writes():
    """``memlane bench summaries --train`` on today's development sets and code gives the
    weights that ship (session 23): retrained after every change to their inputs."""
    pytest.importorskip("sklearn")
    import warnings

    convs = [conv for name in dense.SETS for conv in load_set(name)]
    data = dense.prepare(convs, cheap=dense.CHEAP, neighbour=dense.NEIGHBOUR, most=dense.MOST,
                         reach=dense.REACH)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trained = dense.configured(dense.fit(data, **dense.FIT), dense.CONFIGS[dense.CHOSEN])
    assert trained is not None
    model = sentmodel.shipped()
    assert trained.vocab == model.vocab
    assert trained.meta == model.meta
    assert sorted(trained.arrays) == sorted(model.arrays)
    for name, array in model.arrays.items():
        np.testing.assert_allclose(trained.arrays[name], array, rtol=0, atol=1e-3, err_msg=name)


RATIONALE = (
    ("Lena", "We're switching the newsletter to monthly."),
    ("Omar", "Good, the weekly one had a 4% open rate."),  # ("… anyway.": p 0.65 since session 35)
    ("Lena", "I'll tell the designers."),
)
REASON = "The weekly one had a 4% open rate."


def test_the_default_backend_writes_a_reason_the_model_reads_at_the_calibrated_threshold():
    """Session 23: the model adds a rationale from probability 0.4 (0.6 before); the reply
    giving the reason for the change is written, which the patterns alone and the model at
    the old threshold leave out."""
    conv = Conversation("newsletter", "", RATIONALE, {})
    turns = _turns(conv)
    label, p, _ = sentmodel.shipped().classify(turns, {})[(1, 0)]
    assert label == "rationale" and 0.4 <= p < 0.6
    msgs = messages_of(conv)
    plain, _ = OfflineIntelligence(None).summarize("newsletter", msgs)
    default, _ = OfflineIntelligence().summarize("newsletter", msgs)
    old = dense.configured(sentmodel.shipped(), {"mode": "add", "thresholds": dict(
        sentmodel.shipped().thresholds, rationale=0.6)})
    before, _ = OfflineIntelligence(old).summarize("newsletter", msgs)
    assert REASON not in plain.rationale and REASON not in before.rationale
    assert default.rationale == (REASON,)
    assert default.decisions == before.decisions and default.action_items == before.action_items


def test_the_default_backend_places_a_decision_the_patterns_alone_leave_out():
    msgs = messages_of(_conv())
    plain, _ = OfflineIntelligence(None).summarize("refunds", msgs)
    default, _ = OfflineIntelligence().summarize("refunds", msgs)
    assert ADDED not in plain.decisions
    assert ADDED in default.decisions
    assert "Agreed, and the widget keeps the easy ones." not in default.decisions


def test_summary_sentence_model_off_gives_the_patterns_output():
    msgs = messages_of(_conv())
    plain, plain_x = OfflineIntelligence(None).summarize("refunds", msgs)
    off = make_intelligence(load_config(environ={"MEMLANE_SUMMARY_SENTENCE_MODEL": "false"}))
    summary, extraction = off.summarize("refunds", msgs)
    assert summary == plain and extraction == plain_x
    on, _ = make_intelligence(Config()).summarize("refunds", msgs)
    assert ADDED in on.decisions and on != plain


def test_a_sentence_model_setting_that_is_no_boolean_is_refused_by_name():
    with pytest.raises(ConfigError, match=r"summary\.sentence_model"):
        load_config(environ={"MEMLANE_SUMMARY_SENTENCE_MODEL": "maybe"})
    with pytest.raises(ConfigError, match=r"summary\.sentence_models: .* did you mean sentence_model\?"):
        Config().replace(summary={"sentence_models": False})


def test_the_model_reads_only_the_sentences_whose_verdict_can_be_used():
    model = sentmodel.shipped()
    turns = _turns(_conv())
    every = model.classify(turns, {})
    kept = model.classify(turns, {}, lambda where: where != (1, 0))
    assert (1, 0) in every and (1, 0) not in kept
    assert kept == {w: v for w, v in every.items() if w != (1, 0)}  # the others unchanged


def test_cross_validation_folds_spread_every_set_over_the_folds():
    sizes = {"pool": 127, "train": 320, "heldout5": 24, "heldout10": 36}
    owner = [name for name, n in sizes.items() for _ in range(n)]
    folds = dense.folds(len(owner), 5)
    assert sorted(i for fold in folds for i in fold) == list(range(len(owner)))
    for name, n in sizes.items():
        shares = [sum(owner[i] == name for i in fold) for fold in folds]
        assert sum(shares) == n and max(shares) - min(shares) <= 1


SITUATION = ("My one worry is the commute: I work at a clinic near the station and take the "
             "green tram line every day.")
SETTLING = (
    ("Dana", "Hi! I moved to Cork last month, still settling in."),
    ("assistant", "Welcome to Cork! How are you finding the city so far?"),
    ("Dana", "It's great. " + SITUATION),
    ("assistant", "The ferry is quick in the mornings, so that trip should be fine. "
                  "Would you like tips for the area?"),
    ("Dana", "Maybe later."),
)


def test_the_model_writes_no_decision_that_states_the_speakers_situation():
    conv = Conversation("settling", "", SETTLING, {})
    turns = _turns(conv)
    where = next((ti, si) for ti, t in enumerate(turns) for si, s in enumerate(t.sentences)
                 if s == SITUATION)
    model = sentmodel.shipped()
    label, p, _ = model.classify(turns, {})[where]
    assert label == "decisions"  # the model reads it as one
    # at a threshold it reaches, the model would write it down were it not a situation
    eager = dense.configured(model, {"mode": "add", "thresholds": {"decisions": p - 0.01}})
    summary, _ = OfflineIntelligence(eager).summarize("settling", messages_of(conv))
    assert not any("I work at" in d for d in summary.decisions)
    reader = _Reader(turns)
    assert reader.placeable(SITUATION) and not reader.decidable(SITUATION)
    assert reader.decidable("Hand refunds to a human after one failed answer.")


def test_the_neighbour_non_answer_features_mark_a_question_left_open():
    conv = Conversation("venue", "", (
        ("Maya", "Which venue do we book for the launch?"),
        ("Tom", "Not sure yet, it depends on the guest count."),
        ("Maya", "Fine, the caterer is booked anyway."),
    ), {})
    turns = _turns(conv)
    plain = sentmodel.cheap_features(turns, 0, 0, True)
    reached = sentmodel.cheap_features(turns, 0, 0, True, reach=3)
    assert "n:nonanswer" not in plain and "n:nonanswer:u:q" not in plain
    assert "n:nonanswer" in reached and "n:nonanswer:u:q" in reached
    assert set(plain) <= set(reached)  # the cheap features stay as they were
    answered = sentmodel.cheap_features(turns, 2, 0, True, reach=3)
    assert "p:nonanswer" in answered and not any(n.startswith("n:nonanswer") for n in answered)
