"""Session 30's decision classes, from heldout26's misses, both ways the offline backend runs: what
the assistant reports having done is the outcome of the exchange (``cues._DONE``) when it names a
time written with a colon ("I've booked you in for tomorrow at 10:30": the colon ended the match
as a list's would, and nothing was decided) or a past participle not in -ed ("I've frozen the
card so nothing more can be taken": only "-ed" and a few were read). "I'll try" with no object ("I'll try, but not before Q2 planning")
promises an effort and decides nothing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(hour=st.integers(7, 18), minute=st.sampled_from(["00", "15", "30", "45"]),
       done=st.sampled_from([("booked you in at the Arndale branch for tomorrow at {t}", "booked"),
                             ("moved your appointment to Friday at {t}", "moved"),
                             ("rescheduled the engineer's visit to {t} on Monday", "rescheduled")]),
       lead=st.sampled_from(["", "Done, ", "OK, "]))
def test_an_outcome_naming_a_time_with_a_colon_is_decided(model, hour, minute, done, lead):
    text, verb = done
    summary, _ = offline_summary(
        "user: my screen is cracked, can I get it repaired this week?",
        "assistant: You can walk into a partner shop, usually same day, or mail it in, which takes a week.",
        "user: same day please, I can't be without a phone",
        f"assistant: {lead}I've {text.format(t=f'{hour}:{minute}')} and the excess is charged at the counter.",
        model=model)
    decisions = [d.lower() for d in summary.decisions]
    assert any(f"{hour}:{minute}" in d for d in decisions), decisions


@pytest.mark.parametrize("model", WAYS)
def test_a_list_after_a_colon_is_still_no_outcome(model):
    summary, _ = offline_summary(
        "user: what should I pack for the hospital?",
        "assistant: I've added these to your list: a dressing gown, slippers and a phone charger.",
        model=model)
    assert not summary.decisions, summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout26_screen_repair_books_the_repair(model):
    conv = next(c for c in load_set("heldout26") if c.id == "h26-phone-screen-repair")
    decisions = [d.lower() for d in OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions]
    assert any("10:30" in d and "book" in d for d in decisions), decisions


_IRREGULAR = [("frozen the card", "frozen"), ("withdrawn the claim", "withdrawn"),
              ("cut the plan to the basic tier", "cut"),
              ("sold the voucher back to the shop", "sold"), ("held the parcel at the depot", "held")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(done=st.sampled_from(_IRREGULAR), lead=st.sampled_from(["", "Right. ", "Thanks. "]),
       tail=st.sampled_from(["", " so nothing more can go wrong", ", reference FR-58821"]))
def test_an_outcome_with_a_participle_not_in_ed_is_decided(model, done, lead, tail):
    text, verb = done
    summary, _ = offline_summary(
        "user: someone spent the whole balance of my gift card and I never used it",
        "assistant: I can see an online order on 4 November. Does that ring a bell?",
        "user: no! is someone using my card?",
        f"assistant: {lead}It looks like someone else used the number. I've {text}{tail}.",
        model=model)
    decisions = [d.lower() for d in summary.decisions]
    assert any(text.split()[1] in d for d in decisions), decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout26_gift_card_freezes_the_card(model):
    conv = next(c for c in load_set("heldout26") if c.id == "h26-gift-card-balance")
    decisions = [d.lower() for d in OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions]
    assert any("frozen the card" in d or "freeze the card" in d for d in decisions), decisions


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(rest=st.sampled_from([", but not before Q2 planning, and they want an answer Friday", ".",
                             ", no promises", "!"]))
def test_an_effort_promised_with_no_object_decides_nothing(model, rest):
    summary, _ = offline_summary(
        "Chloe: the organisers want an answer by Friday. the corner stand is £13,900",
        "Arjun: can we ask finance for more budget? 14 leads turned into 3 deals last year",
        f"Petra: I'll try{rest}",
        "Arjun: I'll dig out the lead numbers for Petra's case",
        model=model)
    assert not any(d.lower().startswith("try") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_trying_something_named_is_still_a_decision(model):
    summary, _ = offline_summary(
        "Lou: the usual place is fully booked on Friday",
        "Jess: there's the new Lebanese place on Mill Road",
        "Lou: ok, we'll try the Lebanese place on Mill Road",
        "Jess: great",
        model=model)
    assert any("lebanese" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_trying_a_quoted_title_is_still_a_decision(model):
    summary, _ = offline_summary(
        "user: I want a thriller series for the holidays, something dark",
        "assistant: \"Sharp Objects\" and \"Mare of Easttown\" are both short and gripping.",
        "user: I'll try \"Sharp Objects\" first",
        model=model)
    assert any("sharp objects" in d.lower() for d in summary.decisions), summary.decisions
