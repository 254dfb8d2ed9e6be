"""Session 28's open-question class, from heldout24's misses: a participant's question whose
answer says they would want more to go on first ("I'd want to know more first", "I'd want the
cohort numbers by signup month before saying") is left open, as an answer handing it on was
(``cues._UNSURE_ANSWER``, read by ``left_open``); both ways the offline backend runs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_QUESTIONS = ["do we halt the Android rollout at 20%?", "so it's activation, not price?",
              "should we move the fun run to September?", "is the crash limited to Samsung phones?"]
_WANTS = ["I'd want to know more first", "I'd want the cohort numbers by signup month before saying",
          "hmm, I'd want to check the hospice's calendar first", "I'd want to see the crash logs before deciding"]


def _open(summary):
    return [q.lower() for q in summary.open_questions]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(question=st.sampled_from(_QUESTIONS), want=st.sampled_from(_WANTS),
       lead=st.sampled_from(["", "ok. ", "right, "]))
def test_a_question_answered_with_wanting_more_first_is_left_open(model, question, want, lead):
    summary, _ = offline_summary(
        "Priyanka: crash-free users dropped from 99.6 to 97.1 since yesterday's release",
        f"Priyanka: {lead}{question}",
        f"Femi: {want}",
        "Priyanka: let's look again at 3pm with more data",
        model=model)
    key = question.split()[-1].rstrip("?%")
    assert any(key.lower() in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_a_question_answered_outright_is_not_left_open(model):
    summary, _ = offline_summary(
        "Priyanka: crash-free users dropped from 99.6 to 97.1 since yesterday's release",
        "Priyanka: do we halt the Android rollout at 20%?",
        "Femi: yes, halt it now, I'd want it fixed first",
        model=model)
    assert not any("rollout" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout24_churn_review_leaves_activation_or_price_open(model):
    conv = next(c for c in load_set("heldout24") if c.id == "h24-customer-churn-review")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any("activation" in q and "price" in q for q in _open(summary)), _open(summary)
