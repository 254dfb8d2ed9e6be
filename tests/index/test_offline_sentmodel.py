"""The dense sentence model of session 9: its inputs, its weights file, numpy inference
against a computation written out by hand, and how its verdicts join the cue patterns'
(conversations written for these tests)."""

import math

import numpy as np
import pytest

from memlane.backends.embed.hashing import HashingEmbedder
from memlane.bench.summaries.run import LISTS, Conversation, load_set, messages_of
from memlane.bench.summaries.score import is_small_talk, strip_owner
from memlane.index import sentmodel
from memlane.index.cues import _Turn
from memlane.index.offline import OfflineIntelligence, _sentences
from memlane.index.sentclass import LABELS
from memlane.types import Message

DIM = 16
EMB = HashingEmbedder(dim=DIM)

CONVERSATION = (
    "Ana: The staging database is at 90% disk again.",
    "Ben: Move the audit rows older than a year to cold storage.",
    "Ana: Yep.",
    "Ben: Thanks!",
    "Ana: Who owns the storage budget this quarter?",
)


def _messages(*turns: str) -> list[Message]:
    """``"Speaker: text"`` turns as the summaries bench stores a labelled conversation."""
    return messages_of(Conversation("s", "", tuple(_split(t) for t in turns), {}))


def _split(turn: str) -> tuple[str, str]:
    who, _, text = turn.partition(": ")
    return who, text


def _turns(*turns: str) -> list[_Turn]:
    out = []
    for turn in turns:
        who, _, text = turn.partition(": ")
        out.append(_Turn(who, "assistant" if who == "assistant" else "user", _sentences(text)))
    return out


def _model(vocab: list[str], rng_seed: int = 1, hidden: int = 0,
           meta: dict | None = None) -> sentmodel.DenseSentenceModel:
    rng = np.random.default_rng(rng_seed)
    n = 3 * DIM + len(vocab)
    arrays = {"mean": rng.normal(0, 0.1, n), "scale": rng.uniform(0.5, 2.0, n)}
    if hidden:
        arrays.update(w1=rng.normal(0, 1, (n, hidden)), b1=rng.normal(0, 1, hidden),
                      w2=rng.normal(0, 1, (hidden, len(LABELS))), b2=rng.normal(0, 1, len(LABELS)))
    else:
        arrays.update(w2=rng.normal(0, 1, (n, len(LABELS))), b2=rng.normal(0, 1, len(LABELS)))
    return sentmodel.DenseSentenceModel(vocab, arrays, {"dim": DIM, **(meta or {})}, EMB)


def _biased(label: str, feature: str, meta: dict) -> sentmodel.DenseSentenceModel:
    """A linear model that names ``label`` for every sentence with the structural feature
    ``feature`` and none for the rest."""
    n = 3 * DIM + 1
    w2 = np.zeros((n, len(LABELS)))
    w2[3 * DIM, LABELS.index(label)] = 20.0
    b2 = np.zeros(len(LABELS))
    b2[0] = 5.0
    return sentmodel.DenseSentenceModel([feature], {"mean": np.zeros(n), "scale": np.ones(n),
                                                    "w2": w2, "b2": b2}, {"dim": DIM, **meta}, EMB)


def test_inputs_are_the_sentence_and_its_neighbouring_turns_vectors_and_structure():
    turns = _turns(*CONVERSATION)
    where, block, names = sentmodel.sentence_inputs(turns, {}, EMB)
    assert where == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert block.shape == (5, 3 * DIM)
    row = where.index((1, 0))
    own, before, after = np.split(block[row], 3)
    assert np.allclose(own, EMB.embed_batch([turns[1].sentences[0]])[0])
    assert np.allclose(before, EMB.embed_batch([CONVERSATION[0].partition(": ")[2]])[0])
    assert np.allclose(after, EMB.embed_batch(["Yep."])[0])
    assert not block[0, DIM : 2 * DIM].any()  # nothing before the first turn
    assert "imp:u" in names[row] and "n:ack" in names[row] and "team=True" in names[row]
    assert "end=?:u" in names[where.index((4, 0))]
    assert not any(n.startswith(("u=", "b=")) for n in names[row])  # no word identities


def test_long_turns_and_long_sentences_are_left_to_the_patterns():
    long_turn = "user: " + " ".join(f"Point {i} is here." for i in range(sentmodel.MAX_SENTENCES + 1))
    long_sentence = "user: " + "word " * 60 + "end. Short one."
    turns = _turns(long_turn, long_sentence, "assistant: One. Two. Three.")
    assert sentmodel.candidates(turns) == [(1, 1), (2, 0), (2, 1)]


@pytest.mark.parametrize("hidden", [0, 5])
def test_numpy_inference_equals_the_computation_written_out(tmp_path, hidden):
    turns = _turns(*CONVERSATION)
    vocab = ["role=u", "imp:u", "n:ack", "end=?:u", "len=3"]
    model = _model(vocab, hidden=hidden)
    back = sentmodel.load_dense(model.save(tmp_path / "m.npz"), EMB)
    assert back.vocab == vocab and back.meta["dim"] == DIM
    verdicts = back.classify(turns, {})
    where, block, names = sentmodel.sentence_inputs(turns, {}, EMB)
    a = {k: v.astype(float).tolist() for k, v in model.arrays.items()}
    for (ti, si), row, row_names in zip(where, block.tolist(), names, strict=True):
        x = row + [1.0 if v in row_names else 0.0 for v in vocab]
        z = [(xi - m) / s for xi, m, s in zip(x, a["mean"], a["scale"], strict=True)]
        if hidden:
            z = [max(0.0, a["b1"][j] + sum(zi * a["w1"][i][j] for i, zi in enumerate(z)))
                 for j in range(hidden)]
        logits = [a["b2"][k] + sum(zi * a["w2"][i][k] for i, zi in enumerate(z))
                  for k in range(len(LABELS))]
        top = max(logits)
        e = [math.exp(v - top) for v in logits]
        p = [v / sum(e) for v in e]
        k = max(range(len(p)), key=p.__getitem__)
        label, prob, none = verdicts[(ti, si)]
        assert label == LABELS[k]
        assert prob == pytest.approx(p[k], abs=1e-5) and none == pytest.approx(p[0], abs=1e-5)


def test_a_weights_file_for_other_labels_or_inputs_is_refused(tmp_path):
    model = _model(["role=u"])
    path = model.save(tmp_path / "m.npz")
    with np.load(path) as data:
        arrays = dict(data)
    arrays["labels"] = np.array(["none", "other"])
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays)
    with pytest.raises(ValueError, match="other labels"):
        sentmodel.load_dense(bad, EMB)
    with pytest.raises(ValueError, match="columns"):
        sentmodel.DenseSentenceModel(["a", "b"], model.arrays, {"dim": DIM}, EMB)


def _fields(summary) -> dict[str, list[str]]:
    return {name: list(getattr(summary, name)) for name in LISTS}


@pytest.mark.parametrize("mode", ["add", "fill", "alone"])
def test_model_verdicts_never_place_small_talk_or_one_sentence_in_two_fields(mode):
    # a model that calls every sentence of a participant a decision, whatever it says
    model = _biased("decisions", "role=u", {"mode": mode, "thresholds": {"decisions": 0.5}})
    summary, _ = OfflineIntelligence(model).summarize("s", _messages(*CONVERSATION))
    fields = _fields(summary)
    placed = [strip_owner(x).lower() for items in fields.values() for x in items]
    assert len(placed) == len(set(placed))  # no sentence in two fields
    assert not any(is_small_talk(x) for x in placed)  # "Yep.", "Thanks!" are never placed
    assert any("staging database" in d for d in summary.decisions)  # what the model added
    if mode == "alone":
        assert summary.open_questions == ()  # the patterns placed nothing


def test_fill_mode_adds_only_to_a_field_the_patterns_left_empty():
    msgs = _messages("Maya: We need a database for the billing service.",
                     "Tom: Let's use PostgreSQL for the billing service.",
                     "Maya: Agreed.",
                     "Tom: And we move the ledger to it next month.")
    plain, _ = OfflineIntelligence(None).summarize("s", msgs)
    assert plain.decisions  # the patterns found "Use PostgreSQL…"
    meta = {"mode": "fill", "thresholds": {"decisions": 0.5}}
    filled, _ = OfflineIntelligence(_biased("decisions", "role=u", meta)).summarize("s", msgs)
    assert filled.decisions == plain.decisions
    added, _ = OfflineIntelligence(_biased("decisions", "role=u", dict(meta, mode="add"))
                                   ).summarize("s", msgs)
    assert len(added.decisions) > len(plain.decisions)


def test_training_and_cross_validation_never_summarize_a_conversation_with_its_own_model():
    pytest.importorskip("sklearn")
    from memlane.bench.summaries import dense

    convs = load_set("dev")[:10] + load_set("heldout4")[:5]
    data = dense.prepare(convs, EMB)
    assert sum(len(d.labels) for d in data) == sum(d.block.shape[0] for d in data)
    assert {"decisions", "next_steps"} <= {v for d in data for v in d.labels}
    model = dense.fit(data, c=0.1)
    assert model.meta["sentences"] == sum(len(d.labels) for d in data)
    assert model.arrays["w2"].shape == (3 * DIM + len(model.vocab), len(LABELS))
    parts = {"a": {c.id for c in convs[:10]}, "b": {c.id for c in convs[10:]}}
    configs = {k: dense.CONFIGS[k] for k in ("patterns alone", "+ model fills empty fields at 0.6")}
    out = dense.cross_validate(data, parts, 3, configs, EMB, c=0.1)
    assert out["patterns alone"]["a"].conversations == 10
    assert out["patterns alone"]["b"].conversations == 5
    expected = sum(len(c.expected["decisions"]) for c in convs[10:])
    assert out["+ model fills empty fields at 0.6"]["b"].fields["decisions"].expected == expected
    # the patterns alone, cross-validated or not, score the same
    from memlane.bench.summaries.run import evaluate

    plain = evaluate(OfflineIntelligence(None).summarize, convs[:10], backend="", set_name="")
    assert out["patterns alone"]["a"].fields["decisions"].tp == plain.fields["decisions"].tp


def test_a_terse_decision_left_without_the_opening_leaves_as_small_talk():
    from memlane.bench.summaries.run import messages_of

    conv = next(c for c in load_set("train") if c.id == "t4-magazine-cover")
    msgs = messages_of(conv)
    plain, _ = OfflineIntelligence(None).summarize(conv.id, msgs)
    assert any(d.startswith("Same — ") for d in plain.decisions)  # the patterns' terse "Same."
    # a model placing the opening sentence: the summary no longer appends it to "Same."
    model = _biased("decisions", "t0=True", {"mode": "add", "thresholds": {"decisions": 0.5}})
    summary, _ = OfflineIntelligence(model).summarize(conv.id, msgs)
    assert summary.decisions and not any(is_small_talk(strip_owner(x))
                                         for items in _fields(summary).values() for x in items)
