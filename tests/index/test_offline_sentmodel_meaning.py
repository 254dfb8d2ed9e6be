"""``summary.sentence_vectors = "meaning"`` (session 31): the offline backend's sentence model
reads the meaning tier's transformer vectors (all-MiniLM-L6-v2 int8, the ``meaning`` extra)
beside the static ones, with the weights that ship beside the default's; the default is unchanged, the setting
without the extra is refused by its key."""

import pickle
import sys

import pytest

from memlane.backends.registry import make_intelligence
from memlane.bench.summaries import dense
from memlane.bench.summaries.run import load_set, messages_of
from memlane.config import Config, load_config
from memlane.errors import ConfigError
from memlane.index import sentmodel
from memlane.index.offline import SHIPPED_MEANING_MODEL, OfflineIntelligence

MEANING = {"MEMLANE_SUMMARY_SENTENCE_VECTORS": "meaning"}
REASON = "People always round up"


def _tombola():
    """heldout25's village fete tombola (10 turns), one of whose labelled reasons REASON says (the
    duvet tog choice of the same set until session 35: the default's weights have trained on
    heldout25 since, and write its reason too; the meaning weights still train on the 867)."""
    conv = next(c for c in load_set("heldout25") if c.id == "h25-village-fete-tombola")
    return conv, messages_of(conv)


def test_the_meaning_weights_ship_with_the_chosen_configuration_and_the_default_does_not_read_them():
    pytest.importorskip("onnxruntime")
    model = sentmodel.shipped("meaning")
    assert sentmodel.shipped("meaning") is model  # read once per process
    assert model.meta["vectors"] == "both" and model.meta["dim"] == 256 + 384
    assert model.meta["trained_on"] == 867 and model.meta["C"] == 0.001  # not retrained in session 35
    assert model.thresholds == dense.CONFIGS[dense.MEANING_CHOSEN]["thresholds"]
    assert "vectors" not in sentmodel.shipped().meta
    assert OfflineIntelligence().model is sentmodel.shipped()
    assert make_intelligence(Config()).model is sentmodel.shipped()  # type: ignore[attr-defined]


def test_the_meaning_setting_writes_a_labelled_reason_the_default_leaves_out():
    pytest.importorskip("onnxruntime")
    conv, msgs = _tombola()
    assert "People always round up anyway" in conv.expected["rationale"]
    on = make_intelligence(load_config(environ=MEANING))
    summary, extraction = on.summarize(conv.id, msgs)
    direct, direct_x = OfflineIntelligence(sentmodel.shipped("meaning")).summarize(conv.id, msgs)
    assert summary == direct and extraction == direct_x
    assert REASON in summary.rationale
    default, _ = make_intelligence(Config()).summarize(conv.id, msgs)
    assert REASON not in default.rationale and REASON not in default.decisions


def test_the_meaning_model_goes_to_the_workers_processes_by_its_name():
    pytest.importorskip("onnxruntime")
    backend = OfflineIntelligence(SHIPPED_MEANING_MODEL)
    assert backend.model is sentmodel.shipped("meaning")
    assert backend.__reduce__()[1] == (SHIPPED_MEANING_MODEL,)
    assert pickle.loads(pickle.dumps(backend)).model is sentmodel.shipped("meaning")
    assert pickle.loads(pickle.dumps(OfflineIntelligence())).model is sentmodel.shipped()


def test_the_meaning_setting_without_the_extra_is_refused_by_its_key(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # not importable: the extra is missing
    config = load_config(environ=MEANING)  # the value is valid; the backend needs the extra
    with pytest.raises(ConfigError, match=r"memory\.summary\.sentence_vectors.*meaning extra"):
        make_intelligence(config)
    assert make_intelligence(Config()).summarize("pip", _tombola()[1])  # the default runs
    off = load_config(environ={**MEANING, "MEMLANE_SUMMARY_SENTENCE_MODEL": "false"})
    assert make_intelligence(off).model is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["fast", "Meaning", "", "both"])
def test_a_sentence_vectors_value_that_is_not_a_choice_is_refused_by_name(value):
    with pytest.raises(ConfigError, match=r"memory\.summary\.sentence_vectors: must be static or "
                                          r"meaning"):
        load_config(environ={"MEMLANE_SUMMARY_SENTENCE_VECTORS": value})


def test_a_meaning_model_read_from_a_file_pickles_after_use_and_places_the_same():
    """``--model FILE`` with ``--speed --jobs N`` sends the model itself to the processes: the
    ONNX session it has loaded stays behind and each process loads its own."""
    pytest.importorskip("onnxruntime")
    from importlib import resources

    conv, msgs = _tombola()
    with resources.as_file(resources.files("memlane.index") / sentmodel.SHIPPED_MEANING) as path:
        model = sentmodel.load_dense(path)
    before, _ = OfflineIntelligence(model).summarize(conv.id, msgs)  # loads the embedder
    copy = pickle.loads(pickle.dumps(OfflineIntelligence(model)))
    after, _ = copy.summarize(conv.id, msgs)
    assert after == before and REASON in after.rationale
