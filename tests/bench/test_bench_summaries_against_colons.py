"""Session 33 (rev33): `bench summaries --against` with steps whose text holds a colon.

The scoring cuts a leading ``Owner:`` off a backend's step (``strip_owner``: up to 40
characters before a colon and a space). Session 32's ``labelled_output`` wrote a labelled
step of no owner as its text, so a step "Call Dana about the venue deposit: asap" was
compared as "asap" against the reference's whole text: a labelling scored against itself
missed it (next steps F1 0.000), and A against B was not B against A. The texts here are
made of a few words, some ending in a colon."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FIELDS, Conversation, score_labelling
from memlane.bench.summaries.score import tokens
from memlane.serve.cli import cli

_WORDS = ("ship budget deploy cache the to asap Dana: venue: deposit:").split()
_text = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join).filter(
    lambda t: bool(tokens(t)))  # an item of stopwords alone matches nothing, itself neither
_step = st.one_of(_text, st.fixed_dictionaries(
    {"text": _text, "owner": st.sampled_from(["Ana", "Bo"])}))
_expected = st.fixed_dictionaries({
    "decisions": st.lists(_text, max_size=2), "next_steps": st.lists(_step, max_size=4),
    "topics": st.lists(_text, max_size=1)})

COLON = "Call Dana about the venue deposit: asap"


def _labelling(expected: list[dict[str, Any]]) -> list[Conversation]:
    return [Conversation(f"c{i}", "", (("Ana", "We talked."),), e)
            for i, e in enumerate(expected)]


@settings(max_examples=300, deadline=None)
@example([{"next_steps": [COLON]}])
@example([{"next_steps": ["budget deploy: asap", {"text": "ship: the cache", "owner": "Bo"}]}])
@given(st.lists(_expected, min_size=1, max_size=3))
def test_a_labelling_against_itself_scores_one_in_every_field(expected):
    labels = _labelling(expected)
    [report] = score_labelling([("a", labels)], labels, label="a")
    for name in FIELDS:
        f = report.fields[name]
        assert (f.tp, f.predicted) == (f.expected, f.expected), (name, f.misses)
        if f.owners_expected:
            assert f.owners_right == f.owners_expected, (name, f.misses)


@settings(max_examples=300, deadline=None)
@example(([{"next_steps": [COLON]}], [{"next_steps": ["Call Dana about the venue deposit asap"]}]))
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(st.lists(_expected, min_size=n, max_size=n),
                                                     st.lists(_expected, min_size=n, max_size=n))))
def test_swapping_the_labellings_keeps_f1_with_colons_in_the_steps(pair):
    a, b = map(_labelling, pair)
    [ab] = score_labelling([("a", a)], b, label="b")
    [ba] = score_labelling([("b", b)], a, label="a")
    for name in FIELDS:
        x, y = ab.fields[name], ba.fields[name]
        assert (x.tp, x.predicted, x.expected) == (y.tp, y.expected, y.predicted), name
        assert x.f1 == pytest.approx(y.f1), name


def test_the_cli_scores_a_step_with_a_colon_against_itself_as_one(tmp_path: Path) -> None:
    labels = tmp_path / "a.json"
    labels.write_text(json.dumps([{"id": "c1", "turns": ["Ana: we should pay the deposit",
                                                          "Ben: ok"],
                                   "expected": {"next_steps": [COLON]}}]), "utf-8")
    result = CliRunner().invoke(cli, ["bench", "summaries", "--labels", str(labels), "--against",
                                      str(labels), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.output)
    assert report["fields"]["next_steps"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 1,
                                              "predicted": 1, "expected": 1}
