"""Session 29's open-question classes, from heldout25's misses, both ways the offline backend
runs: a participant's question answered with a bare "maybe" ("maybe. not a today thing",
"maybe, depends when it is") is left open (``cues._MAYBE_ALONE``, read by ``question``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_QUESTIONS = ["should we be looking at alternatives to Brightline?", "do you want me to come to the appointment?",
              "do we enter as a composite team with the Roadents again?", "shall we repaint the hallway too?"]
_MAYBES = ["maybe. not a today thing", "maybe, depends when it is", "Maybe!", "hmm, maybe",
           "perhaps, I'd rather not", "possibly. we'll talk"]


def _open(summary):
    return [q.lower() for q in summary.open_questions]


def _key(question):
    return next(w for w in ("alternatives", "appointment", "composite", "hallway") if w in question)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(question=st.sampled_from(_QUESTIONS), maybe=st.sampled_from(_MAYBES),
       lead=st.sampled_from(["", "ok. ", "will do. the contract's up in March anyway, "]))
def test_a_question_answered_with_a_bare_maybe_is_left_open(model, question, maybe, lead):
    summary, _ = offline_summary(
        "Nadia: the invoice bills us for 40 licences, we only ever had 25",
        "Gareth: they counted the trial accounts from the pilot",
        f"Gareth: {lead}{question}",
        f"Nadia: {maybe}",
        model=model)
    assert any(_key(question) in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["maybe we should, I'll get quotes from Zendara",
                                    "yes, I'll get two quotes", "no, they're fine"])
def test_a_question_answered_otherwise_is_not_left_open_by_the_maybe_rule(model, answer):
    summary, _ = offline_summary(
        "Nadia: the invoice bills us for 40 licences, we only ever had 25",
        "Gareth: they counted the trial accounts from the pilot",
        "Gareth: should we be looking at alternatives to Brightline?",
        f"Nadia: {answer}",
        model=model)
    assert not any("alternatives" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "words"), [("h25-vendor-invoice-dispute", "alternatives"),
                                                ("h25-mole-check-referral", "appointment"),
                                                ("h25-running-club-relay", "composite")])
def test_heldout25_questions_answered_maybe_are_open(model, conv_id, words):
    conv = next(c for c in load_set("heldout25") if c.id == conv_id)
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any(words in q for q in _open(summary)), _open(summary)


_NOT_YET = ["she hasn't said yet, probably the 11th or the 18th", "that's what I don't get",
            "they haven't replied yet", "we haven't decided yet, honestly", "he has not confirmed yet",
            "that's what I don't understand. I rang them and got cut off"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(answer=st.sampled_from(_NOT_YET),
       question=st.sampled_from(["is the December walk on the Monsal Trail?", "does it matter for the full pension then?",
                                 "will the club pay the entry fee?"]))
def test_a_question_answered_not_yet_said_or_not_understood_is_left_open(model, answer, question):
    summary, _ = offline_summary(
        "Margaret: Sheila is planning the December walk and the club's entry",
        f"Margaret: {question}",
        f"Clive: {answer}",
        "Margaret: ok, let me know",
        model=model)
    key = next(w for w in ("Monsal", "pension", "fee") if w in question).lower()
    assert any(key in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_pension_gap_leaves_whether_it_matters_open(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-ni-contributions-gap")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any("matter" in q and "pension" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(lean=st.sampled_from(["by role I think", "I reckon so", "role, I guess", "I'd say value", "I suppose"]),
       but=st.sampled_from(["but let's argue that one with Priya when she's back", "but that's one for the leads",
                            "but not today"]))
def test_a_question_answered_with_a_lean_and_a_but_is_left_open(model, lean, but):
    summary, _ = offline_summary(
        "Mireille: the web app and the iOS app now have four different greys each",
        "Oscar: what about dark mode? do we name tokens by role or by value?",
        f"Mireille: {lean}, {but}",
        "Oscar: ok",
        model=model)
    assert any("role" in q and "value" in q for q in _open(summary)), _open(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_design_tokens_leave_role_or_value_open(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-design-system-tokens")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any("role" in q and "value" in q for q in _open(summary)), _open(summary)
