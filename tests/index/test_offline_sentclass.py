"""The learned sentence classifier: features, the weights file, and how its verdicts join
the cue patterns' (conversations written for these tests)."""

import json

import pytest

from memlane.bench.summaries.run import Conversation, load_set, messages_of
from memlane.bench.summaries.train import labelled_rows
from memlane.index import sentclass
from memlane.index.offline import OfflineIntelligence
from memlane.types import Message



def _messages(*turns: str) -> list[Message]:
    """``"Speaker: text"`` turns as the summaries bench stores a labelled conversation."""
    return messages_of(Conversation("s", "", tuple(_split(t) for t in turns), {}))


def _split(turn: str) -> tuple[str, str]:
    who, _, text = turn.partition(": ")
    return who, text


def _model(weights: dict[str, list[float]], thresholds: dict[str, float]) -> sentclass.SentenceModel:
    """A model that knows only the named features given (rows in LABELS order)."""
    rows: dict[int, list[float]] = {}
    for name, row in weights.items():
        (idx,) = sentclass.hashed([name])
        rows[idx] = row
    return sentclass.SentenceModel([2.0, 0, 0, 0, 0], rows, {"thresholds": thresholds})


CONVERSATION = (
    "Ana: The staging database is at 90% disk again.",
    "Ben: Move the audit rows older than a year to cold storage.",
    "Ana: Yep.",
    "Ben: Thanks!",
)


def test_features_read_the_turn_its_neighbours_and_the_cue_patterns():
    turns = [sentclass_turn(t) for t in CONVERSATION]
    names = sentclass.features(turns, 1, 0, {}, True, {})
    assert "role=u" in names and "team=True" in names
    assert "imp:u" in names  # "Move …" opens with an imperative verb
    assert "n:courtesy" in names  # the next speaker only says "Yep."
    assert "u=move" in names and "b=audit rows" in names
    question = sentclass.features([sentclass_turn("user: Should we shard now?"),
                                   sentclass_turn("assistant: Not yet, I don't know.")], 0, 0, {}, False, {})
    assert "q:u" in question and "n:nonanswer" in question and "c=proposal:u" in question


def sentclass_turn(turn: str):
    from memlane.index.cues import _Turn
    from memlane.index.offline import _sentences

    who, _, text = turn.partition(": ")
    return _Turn(who, "assistant" if who == "assistant" else "user", _sentences(text))


UNREAD = (
    "Ana: The staging database is at 90% disk again.",
    "Ben: Audit rows older than a year to cold storage.",
    "Ana: Yep.",
    "Ben: Thanks!",
)
"""A choice the patterns leave ("Yep." after terms with no verb is no agreement they know; a
directive there they read since session 56, `_Reader.directed`)."""


def test_a_confident_verdict_adds_what_the_patterns_missed_and_small_talk_never_lands():
    plain = OfflineIntelligence(None).summarize("s", _messages(*UNREAD))[0]
    assert plain.decisions == ()
    # every sentence after a short reply from the other speaker is a decision, for this model
    model = _model({"n:courtesy": [0, 9.0, 0, 0, 0], "courtesy": [9.0, 0, 0, 0, 0]},
                   {"decisions": 0.8})
    summary = OfflineIntelligence(model).summarize("s", _messages(*UNREAD))[0]
    assert summary.decisions == ("Audit rows older than a year to cold storage.",)
    assert not any(x.rstrip(".!") in ("Yep", "Thanks") for x in (*summary.decisions,
                                                                   *summary.action_items))
    unsure = _model({"n:courtesy": [0, 9.0, 0, 0, 0]}, {"decisions": 1.01})
    assert OfflineIntelligence(unsure).summarize("s", _messages(*UNREAD))[0].decisions == ()


def test_a_next_step_verdict_names_its_owner():
    model = _model({"b=sort out": [0, 0, 0, 9.0, 0]}, {"next_steps": 0.8})
    msgs = _messages("Lea: The invoice template still shows the old address.",
                     "Lea: Marco, sort out the footer before Friday.", "Ana: Sure.")
    # (Marco does not speak here: a directive addressed to a participant is a step the
    # patterns read since session 11, and this test is about the model's verdict)
    plain = OfflineIntelligence(None).summarize("s", msgs)[0]
    summary = OfflineIntelligence(model).summarize("s", msgs)[0]
    assert not any("footer" in x for x in plain.action_items)
    assert "Marco: Sort out the footer before Friday." in summary.action_items


def test_the_weights_file_is_checked_when_loaded(tmp_path):
    model = _model({"q:u": [0, 0, 1.5, 0, 0]}, {"open_questions": 0.5})
    back = sentclass.SentenceModel.from_json(model.to_json())
    names = ["q:u", "role=u"]
    assert back.probabilities(names) == pytest.approx(model.probabilities(names), abs=1e-4)
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps({"labels": ["none", "yes"], "dim": 8, "bias": [], "weights": {}}))
    with pytest.raises(ValueError, match=r"w.json: weights for other labels"):
        sentclass.load_model(bad)


def test_dev_labels_reach_the_sentence_a_person_summarised():
    db = [c for c in load_set("dev") if c.id == "db-choice"]
    xs, ys, groups = labelled_rows(db)
    assert set(groups) == {"db-choice"} and len(xs) == len(ys)
    assert "decisions" in ys and "next_steps" in ys
    agreed_on = [x for x, y in zip(xs, ys, strict=True) if y == "decisions"]
    assert any("n:agree" in x for x in agreed_on)  # the proposal that "Agreed." answered


def test_training_writes_weights_that_load_and_cross_validation_scores_unseen_folds(tmp_path):
    pytest.importorskip("sklearn")
    from memlane.bench.summaries.train import cross_validate, fit, folds, write

    dev = load_set("dev")[:12]
    assert [c.id for c in folds(dev, 3)[0]] == [dev[0].id, dev[3].id, dev[6].id, dev[9].id]
    model = fit(dev)
    assert model.meta["sentences"] > 40 and model.meta["labels"]["decisions"] > 0
    back = sentclass.load_model(write(model, tmp_path / "w.json"))
    assert len(back.weights) == len(model.weights) > 100
    report = cross_validate(dev, 3)
    assert report.conversations == 12
    assert report.fields["decisions"].expected == sum(len(c.expected["decisions"]) for c in dev)
