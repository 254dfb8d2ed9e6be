"""Session 36's decision classes, from heldout31's misses, both ways the offline backend runs
(docs/summary-eval.md, "Session 36: heldout31's decisions classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import sentclass
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

_WEIGHED = [("yeah losing the users is worse than an old pin.", "losing"),
            ("true, a slow build beats a broken one.", "slow build"),
            ("right, an old compiler floor matters less than fresh data.", "compiler floor")]
_ACK = ["ok,", "fine,", "alright,", "ok then,"]
_SETTLED = [("bump the parser to 3.2 and release it as 2.1.0", "release it"),
            ("ship the fix in the next patch release", "patch release"),
            ("drop the old parser from the default build", "old parser"),
            ("hold the rollout until the new mirrors are up", "rollout")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(weighed=st.sampled_from(_WEIGHED), ack=st.sampled_from(_ACK), settled=st.sampled_from(_SETTLED))
def test_an_acknowledged_directive_after_a_weighing_is_the_decision(model, weighed, ack, settled):
    text, key = settled
    said, why = weighed
    summary, _ = offline_summary(
        "user: our library pins an old parser and a user wants the new one. what should I do?",
        "assistant: The new one needs a newer compiler. The alternative is to stay pinned, but that blocks them.",
        f"user: {said} {ack} {text}",
        "assistant: Sounds right.", model=model)
    assert any(key in d for d in summary.decisions), summary.decisions
    assert not any(key in r for r in summary.rationale), summary.rationale
    # the weighing is the reason, not the decision
    assert not any(why in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_without_an_acknowledgement_the_first_statement_stays_the_decision(model):
    # "Sounds right." to a statement and a plain second sentence: the first statement, as before
    summary, _ = offline_summary(
        "user: our library pins an old parser and a user wants the new one. what should I do?",
        "assistant: The new one needs a newer compiler. The alternative is to stay pinned.",
        "user: we move to the new parser in the spring release. the old one has no maintainer now.",
        "assistant: Sounds right.", model=model)
    assert not any("maintainer" in d for d in summary.decisions), summary.decisions


def _always_decides() -> sentclass.SentenceModel:
    """A real model whose every verdict is "decisions" with a probability near 1, so the
    screen alone decides what is written (as session 35's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index("decisions")] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {"decisions": 0.5}})


_EXPLAINS = ["Error E-204 with a duplicate key means two rows in that table share an id.",
             "The cabins that fill first on your route are Tarn Hut and the pair above the pass.",
             "In Ireland you'd start with a learner permit, which lets you drive with a full licence holder.",
             "The second heading, or an anchor at the old split point, still carries the old key."]


@settings(max_examples=20, deadline=None)
@given(explains=st.sampled_from(_EXPLAINS))
def test_the_assistant_explaining_is_no_decision_of_the_model(explains):
    summary, _ = offline_summary("user: my upload keeps bouncing and the checker gives three errors. why?",
                                 f"assistant: {explains}", "user: ok, that makes sense.",
                                 model=_always_decides())
    assert not any(explains[:25].lower() in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("done", [("I've refunded the duplicate charge to your card.", "duplicate charge"),
                                  ("I have moved your delivery to Friday the 9th.", "friday the 9th")])
def test_the_assistant_reporting_what_it_does_stays_the_models(done):
    said, key = done
    summary, _ = offline_summary("user: my order came with a broken kettle and I was charged twice. help?",
                                 "assistant: There are two things to sort out here.", "user: can you sort both?",
                                 f"assistant: {said}", "user: thanks.", model=_always_decides())
    assert any(key in d.lower() for d in summary.decisions), summary.decisions
