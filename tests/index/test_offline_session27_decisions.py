"""Session 27's decision classes, from heldout23's misses, on conversations written for these
tests and on shipped labelled ones, both ways the offline backend runs (patterns alone and with
the shipped model)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import LISTS, load_set, messages_of
from memlane.bench.summaries.score import dice, is_small_talk, strip_owner, tokens
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _clean(summary):
    items = [x for f in LISTS for x in getattr(summary, f)]
    assert not [x for x in items if is_small_talk(x)], items
    keys = [strip_owner(x).lower() for x in items]
    assert len(keys) == len(set(keys)), items


def _found(wanted, written):
    return any(dice(tokens(wanted), tokens(x)) >= 0.5 for x in written)


_DONE = [
    ("booked", "an engineer for Wednesday between 8 and 1", "Book an engineer for Wednesday between 8 and 1"),
    ("put", "a £100 goodwill credit on your account", "Put a £100 goodwill credit on the account"),
    ("extended", "the locker by 48 hours", "Extend the locker by 48 hours"),
    ("refunded", "the duplicate delivery charge", "Refund the duplicate delivery charge"),
    ("moved", "your appointment to Friday morning", "Move the appointment to Friday morning"),
    ("cancelled", "the second direct debit", "Cancel the second direct debit"),
]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(done=st.sampled_from(_DONE),
       names=st.sampled_from([("Agnieszka", "Darren"), ("Yemi", "Kasia"), ("Connor", "Aisling")]),
       lead=st.sampled_from(["", "right, ", "ok. ", "sorry about that. "]),
       tail=st.sampled_from(["", ". you'll get a text to confirm", ". anything else?"]))
def test_the_agent_a_person_rings_reports_what_they_did(model, done, names, lead, tail):
    """In a conversation of two people, the one who answers the one who opened it (the agent a
    customer rings) saying "I've <done> …" reports the outcome: a decision, as the
    assistant's "I've refunded the charge" is."""
    verb, what, wanted = done
    customer, agent = names
    summary, _ = offline_summary(
        f"{customer}: hi, I've a problem with my account, reference AC-20931",
        f"{agent}: hi {customer}, I can see it here. what would you like me to do?",
        f"{customer}: can you sort it out today please?",
        f"{agent}: {lead}I've {verb} {what}{tail}",
        model=model)
    assert _found(wanted, summary.decisions), summary.decisions
    _clean(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("turns", [
    # the one who opened it: their own news
    ("Agnieszka: I've booked an engineer for Wednesday between 8 and 1",
     "Darren: ok, good to know. anything else?"),
    # two friends chatting, who exclaim: what they have done is news (the LoCoMo dump)
    ("Caroline: Hey Mel! How's the garage going? Any news?",
     "Melanie: Hey Caroline! It's going great! I've booked an engineer for Wednesday between 8 and 1"),
    # three people: a team, whose "I've …" is a status
    ("Maya: where are we on the release?",
     "Tom: I've booked an engineer for Wednesday between 8 and 1",
     "Priya: and I've written the release notes"),
])
def test_no_agent_no_outcome(model, turns):
    summary, _ = offline_summary(*turns, model=model)
    assert not _found("Book an engineer for Wednesday between 8 and 1", summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout23_parcel_locker_writes_what_the_agent_did(model):
    conv = next(c for c in load_set("heldout23") if c.id == "h23-parcel-locker")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert _found("Extend the parcel's collection by 48 hours and send a new code to Yemi's phone",
                  summary.decisions) or _found("Extend it by 48 hours", summary.decisions), summary.decisions
    assert _found("Correct Yemi's email address to yemi.a@outlook.com", summary.decisions), summary.decisions
    _clean(summary)
