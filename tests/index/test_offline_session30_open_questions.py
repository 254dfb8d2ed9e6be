"""Session 30's open-question classes, from heldout26's misses, both ways the offline backend
runs: a participant's question answered with a put-off in words ``cues._PUT_OFF`` did not read
("one thing at a time", "that's a bigger conversation", "not today", "let me think about that",
"not deciding that in here", "let's leave that for Monday") is left open."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_QUESTIONS = [("and the other 40-odd macros?", "macros"),
              ("should we be caching product pages for a day at all if prices change?", "caching"),
              ("do we have to tell the customers about the outage?", "customers")]
_PUT_OFFS = ["one thing at a time. I want to see if refunds move first",
             "that's a bigger conversation, surrogate keys, shorter TTLs, all that",
             "not today. the release is enough", "hmm, let me think about that",
             "not deciding that in here. I'll take it to Dana tomorrow",
             "let's leave that for Monday's ops review"]


def _open(summary):
    return [q.lower() for q in summary.open_questions]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(question=st.sampled_from(_QUESTIONS), put_off=st.sampled_from(_PUT_OFFS))
def test_a_question_answered_with_a_put_off_is_left_open(model, question, put_off):
    text, key = question
    summary, _ = offline_summary(
        "Aoife: CSAT on refund tickets has gone from 4.6 to 3.9 since the new macros went live",
        "Marcus: the refund macro opens with a paragraph of legal wording",
        f"Bea: {text}",
        f"Aoife: {put_off}",
        model=model)
    assert any(key in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["yes, all of them by Friday", "not the late delivery one, that's fine",
                                    "today, before lunch"])
def test_a_question_answered_is_not_left_open_by_the_put_off_rule(model, answer):
    summary, _ = offline_summary(
        "Aoife: CSAT on refund tickets has gone from 4.6 to 3.9 since the new macros went live",
        "Marcus: the refund macro opens with a paragraph of legal wording",
        "Bea: and the other 40-odd macros?",
        f"Aoife: {answer}",
        model=model)
    assert not any("macros" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "words"), [("h26-support-macro-rewrite", "macros"),
                                                ("h26-cdn-cache-purge", "caching")])
def test_heldout26_questions_put_off_are_open(model, conv_id, words):
    conv = next(c for c in load_set("heldout26") if c.id == conv_id)
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any(words in q for q in _open(summary)), _open(summary)
