"""Session 24: an agreement lead-in of more than one word ("Fine by me, …", "OK with us. …",
"Sounds good to me, …") is cut whole from the item written, not its first word alone (it was
written "By me, nobody came to the last three." as a rationale). Every conversation is
written for these tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.cues import clean
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_AGREEING = ["ok", "okay", "fine", "good", "great", "perfect", "alright", "sounds good", "sure"]
_TO_WHOM = ["by me", "with me", "to me", "for me", "by us", "with us", "to us", "for us"]
_REST = ("nobody came to the last three", "the van is free on saturday", "the hall costs less",
         "fixed days never worked with my shifts", "demon copperhead can wait for february",
         "we keep the rota as it is", "it is half the price of the other one")
_FRAGMENTS = tuple(f"{w} {p}".split(maxsplit=1)[1] for w in ("x",) for p in _TO_WHOM)


@settings(max_examples=300, deadline=None)
@given(word=st.sampled_from(_AGREEING), whom=st.sampled_from(_TO_WHOM),
       case=st.sampled_from([str.lower, str.capitalize, str.upper]),
       sep=st.sampled_from([", ", ". ", "! ", ": ", " "]), rest=st.sampled_from(_REST),
       end=st.sampled_from(["", ".", "!"]))
def test_an_agreement_lead_in_of_any_length_is_cut_whole(word, whom, case, sep, rest, end):
    """Whatever the agreement word, the person it is said for, the case and the mark after
    it, what is left is the sentence after the lead-in, never a "By me, …" fragment."""
    got = clean(f"{case(word + ' ' + whom)}{sep}{rest}{end}")
    assert got == rest[:1].upper() + rest[1:] + end
    assert not got.lower().startswith(tuple(p + " " for p in _TO_WHOM) + tuple(p + "," for p in _TO_WHOM))


@pytest.mark.parametrize("word", _AGREEING)
def test_a_one_word_lead_in_is_cut_as_before(word):
    assert clean(f"{word.capitalize()}, nobody came to the last three.") == "Nobody came to the last three."


@pytest.mark.parametrize("model", WAYS)
def test_the_rationale_after_fine_by_me_is_written_without_the_lead_in(model):
    summary = offline_summary(
        "Ines: The library asked whether we keep the Tuesday drop-in or move it to Thursdays.",
        "Paul: The Thursday room is bigger and has a projector; I'd go for Thursdays.",
        "Ines: Fine by me, nobody came to the last three Tuesday sessions anyway.",
        "Paul: Ship it. I'll tell the library today.",
        model=model)[0]
    items = [*summary.decisions, *summary.rationale, *summary.open_questions, *summary.next_steps,
             *summary.action_items]
    assert not any(x.lower().startswith(("by me", "with me")) for x in items), summary
    assert any(x.startswith("Nobody came to the last three Tuesday sessions") for x in summary.rationale), summary
