"""Session 34's open-question class, from heldout29's misses, both ways the offline backend runs:
a participant's question that another answers without settling it, and that a later turn puts
off by naming the matter ("What happens to the 500 bad ones?" — "Clays pulp them unless we want
them." — "Let's not decide that now."; "lets park that till the marquee is confirmed") stays
open (``cues._PUT_OFF_LATER``, read by ``_Reader.put_off_later``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("What happens to the 200 damaged banners?", "banners"),
          ("Should we start charging the late fee people voted on?", "late fee"),
          ("Do we move the quiz night to the upstairs room?", "quiz night")]
_ANSWER = ["The printer recycles them unless we want them.",
           "The vote was only 9 people. Half the members weren't there.",
           "I'd need to check with the landlord, and the booking isn't confirmed yet."]
_PUT_OFF = ["Let's not decide that now.", "lets park that till the booking is confirmed",
            "Let's not do that on a chat message. Put it on the agenda for the AGM.",
            "ok, let's leave it for the committee", "Right. Let's shelve that one"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answer=st.sampled_from(_ANSWER), off=st.sampled_from(_PUT_OFF),
       between=st.booleans())
def test_a_question_put_off_after_an_answer_that_does_not_settle_it_stays_open(model, asked, answer, off,
                                                                              between):
    question, key = asked
    turns = ["Maya: The hall order goes in on Friday and we're at £600.",
             f"Tom: {question}", f"Priya: {answer}"]
    if between:
        turns.append("Tom: hmm, fair enough.")
    summary, _ = offline_summary(*turns, f"Maya: {off}", "Tom: fine", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("off", ["Let's not decide anything until we have the timetable in writing.",
                                 "Let's order the chairs then."])
def test_a_put_off_of_the_whole_matter_or_none_leaves_no_question(model, off):
    """Only a put-off naming the matter ("that", "this", "it") reaches back to the question."""
    summary, _ = offline_summary(
        "Maya: The hall order goes in on Friday and we're at £600.",
        "Tom: What happens to the 200 damaged banners?",
        "Priya: The printer recycles them unless we want them.",
        f"Maya: {off}", "Tom: fine", model=model)
    assert not any("banners" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_question_asked_between_stops_the_put_off_reaching_back(model):
    summary, _ = offline_summary(
        "Maya: The hall order goes in on Friday and we're at £600.",
        "Tom: What happens to the 200 damaged banners?",
        "Priya: The printer recycles them unless we want them.",
        "Tom: And who books the caretaker for the evening?",
        "Maya: Let's not decide that now.", model=model)
    assert not any("banners" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "key"), [
    ("h29-poetry-collection-misprint", "500 bad ones"),
    ("h29-ramadan-iftar-community-meal", "sisters in the main hall"),
    ("h29-co-op-grocery-bulk-order", "handling fee"),
])
def test_heldout29_questions_put_off_later_stay_open(model, conv_id, key):
    conv = next(c for c in load_set("heldout29") if c.id == conv_id)
    questions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].open_questions
    assert any(key in q for q in questions), questions


_UNMARKED = [("and the sponsorship from BrewDog, did the money ever arrive", "brewdog"),
             ("is the hall booking confirmed for the ceilidh", "hall booking"),
             ("and has the invoice from the caterers been paid", "caterers"),
             ("should we renew the storage unit for another year", "storage unit")]
_UNSURE = ["honestly I'm not sure.", "no idea, I haven't checked.", "I don't know, it's not on the statement."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_UNMARKED), unsure=st.sampled_from(_UNSURE))
def test_a_question_written_without_its_mark_and_not_answered_stays_open(model, asked, unsure):
    """A user's yes-no question without its question mark ("…, did the money ever arrive") is read
    as the question it is: left open by an answer that does not know (session 34)."""
    question, key = asked
    summary, _ = offline_summary(
        "Ellie: ok so handover. the society money is held by the SU, so you can't get a card",
        f"Farah: {question}", f"Ellie: {unsure} that's one for you to chase Josh sorry",
        "Josh: great lol", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["Do it the weekend after and I'm in!", "brilliant, did it, its at 1.4 now",
                                  "and can we use Splitwise for this instead of me doing maths",
                                  "can we not leave at 5 in the morning though"])
def test_a_directive_a_report_a_request_or_a_proposal_is_no_unmarked_question(model, said):
    summary, _ = offline_summary(
        "Sandra: the bill came in at £412 for the quarter",
        f"Callum: {said}", "Neil: honestly I'm not sure.", "Sandra: ok", model=model)
    assert not summary.open_questions, summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "key"), [
    ("h29-student-society-treasurer-handover", "BrewDog"),
    ("h29-kombucha-scoby-mould", "heat mat"),
])
def test_heldout29_questions_without_their_mark_stay_open(model, conv_id, key):
    conv = next(c for c in load_set("heldout29") if c.id == conv_id)
    questions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].open_questions
    assert any(key in q for q in questions), questions


_FRONTED = [("Where the rest of the money comes from", "rest of the money"),
            ("Who pays for the skip", "pays for the skip"),
            ("Whether the council will cover it", "council cover"),  # "Will the council cover it?" (oq53)
            ("How we get the piano up the stairs", "piano up the stairs")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_FRONTED), lead=st.sampled_from(["", "And ", "But "]),
       know=st.sampled_from(["I don't know.", "I honestly don't know.", "we still don't know"]))
def test_what_nobody_knows_said_before_i_dont_know_is_left_open(model, asked, lead, know):
    """"Where the rest of the money comes from, I don't know.": the question it leaves (session 34)."""
    what, key = asked
    summary, _ = offline_summary(
        "Margaret: The roofer's quote for the steel is £19,000 and the insurer caps it at £7,500.",
        f"Alan: {lead}{what[:1].lower() if lead else what[:1]}{what[1:]}, {know}",
        "Peter: I'll ring the archdeacon tomorrow.", model=model)
    assert any(key in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_heldout29_church_roof_leaves_the_money_open(model):
    conv = next(c for c in load_set("heldout29") if c.id == "h29-church-roof-lead-theft")
    questions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].open_questions
    assert "Where the rest of the money comes from?" in questions, questions
