"""Session 30's open-question classes, from heldout26's misses, both ways the offline backend
runs: a participant's question answered with a put-off in words ``cues._PUT_OFF`` did not read
("one thing at a time", "that's a bigger conversation", "not today", "let me think about that",
"not deciding that in here", "let's leave that for Monday") is left open; so is a suggestion
"it may (also) be worth …" that the next speaker puts off ("yeah, not today though", "yeah maybe.
let me see what my diary looks like first"), asked as "Is it worth …?"; and a question answered with
a short question back ("how much") whose answer is then put off ("let me think about that, it's a
lot")."""

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


_WORTH = [("It may also be worth an alert on clock offset so you hear about drift before users do.", "offset"),
          ("It might be worth booking your December slot soon, the Christmas weeks fill up.", "december"),
          ("It could be worth a second quote from an independent garage.", "quote")]
_LATER = ["yeah, not today though. I'll look at the config tomorrow", "yeah maybe. let me see my diary first",
          "maybe, I'll see", "hmm, let me think about that", "ok, not today"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(worth=st.sampled_from(_WORTH), later=st.sampled_from(_LATER),
       lead=st.sampled_from(["", "Sounds good. ", "That's it for now. "]))
def test_a_suggestion_worth_doing_put_off_is_left_open(model, worth, later, lead):
    text, key = worth
    summary, _ = offline_summary(
        "user: I was turned away today, the clocks were out and the booking failed",
        "assistant: That's normal after a change like this; it's fixed once the sync runs.",
        "user: ok it's back to normal now",
        f"assistant: {lead}{text}",
        f"user: {later}",
        model=model)
    assert any(key in q and q.startswith("is it worth") for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["yes, I'll set it up now", "good idea, done", "no, it's fine as it is"])
def test_a_suggestion_taken_up_or_turned_down_is_not_left_open(model, answer):
    summary, _ = offline_summary(
        "user: half our users got logged out overnight",
        "assistant: One server's clock had drifted. Start chronyd and enable it.",
        "user: ok it's back to normal now",
        "assistant: It may also be worth an alert on clock offset so you hear about drift before users do.",
        f"user: {answer}",
        model=model)
    assert not any("offset" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "words"), [("h26-jwt-clock-skew", "clock offset"),
                                                ("h26-blood-donation-deferral", "december slot")])
def test_heldout26_suggestions_put_off_are_open(model, conv_id, words):
    conv = next(c for c in load_set("heldout26") if c.id == conv_id)
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any(words in q for q in _open(summary)), _open(summary)


_BACK = [("how much", "£110 on top"), ("which one", "the one with the drone shots"), ("when by", "before the 21st")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(back=st.sampled_from(_BACK), later=st.sampled_from(["let me think about that, it's a lot",
                                                            "hmm, I'll have a think", "dunno, not today"]))
def test_a_question_asked_back_then_put_off_is_left_open(model, back, later):
    ask, answer = back
    summary, _ = offline_summary(
        "Siobhan: found two places for your jump, GoSkydive near Salisbury is £299",
        "Conor: Salisbury then, it's an hour from us",
        "Siobhan: I'll book it tonight. do you want the video package?",
        f"Conor: {ask}",
        f"Siobhan: {answer}",
        f"Conor: {later}",
        model=model)
    assert any("video package" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_a_question_asked_back_then_answered_is_not_left_open(model):
    summary, _ = offline_summary(
        "Siobhan: found two places for your jump, GoSkydive near Salisbury is £299",
        "Conor: Salisbury then, it's an hour from us",
        "Siobhan: I'll book it tonight. do you want the video package?",
        "Conor: how much",
        "Siobhan: £110 on top",
        "Conor: yes, go on, it's a one-off",
        model=model)
    assert not any("video package" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout26_skydive_leaves_the_video_package_open(model):
    conv = next(c for c in load_set("heldout26") if c.id == "h26-tandem-skydive-booking")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any("video package" in q for q in _open(summary)), _open(summary)
