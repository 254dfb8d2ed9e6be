"""Session 26's decision classes, from heldout22's misses, on conversations written for these
tests and on one shipped labelled conversation, both ways the offline backend runs (patterns
alone and with the shipped model)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import LISTS, load_set, messages_of
from memlane.bench.summaries.score import dice, is_small_talk, strip_owner, tokens
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _items(summary):
    return [x for f in LISTS for x in getattr(summary, f)]


def _clean(summary):
    items = _items(summary)
    assert not [x for x in items if is_small_talk(x)], items
    keys = [strip_owner(x).lower() for x in items]
    assert len(keys) == len(set(keys)), items


_OUTCOMES = [
    ("Hay Bridge or Glasbury for the weekly set this summer?", "Hay Bridge instead of Glasbury in the weekly set"),
    ("which trees for the pits, field maple or rowan?", "field maple for all 11 pits"),
    ("do we scan the old volumes on the V-cradle or on the Zeutschel?",
     "pre-1750 on the V-cradle, everything else on the Zeutschel"),
    ("how much notice do we give customers before the limits go live?",
     "two weeks notice by email, limits live on 1 December"),
]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=40, deadline=None)
@given(pair=st.sampled_from(_OUTCOMES),
       lead=st.sampled_from(["ok, ", "ok ", "fine, ", "right. ", "yes, ", "lovely, ", "Agreed, ", "alright "]),
       end=st.sampled_from(["", "."]))
def test_an_agreement_then_the_outcome_in_a_few_words_is_the_decision(model, pair, lead, end):
    """A participant answering another with an agreement word and then the outcome in a few words
    of things said before, with no subject or auxiliary of its own, settles it: the decision, in
    those words; no small talk, no sentence in two fields."""
    asked, outcome = pair
    summary = offline_summary(f"Olwen: {asked}", "Bryn: I've walked the route and priced both, either works.",
                              f"Olwen: {lead}{outcome}{end}", model=model)[0]
    assert any(dice(tokens(d), tokens(outcome)) >= 0.8 for d in summary.decisions), summary.decisions
    _clean(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", [
    "ok, the glossary is what matters for the weekly set",  # a clause of its own: a verb and subject
    "fine, we can look at Hay Bridge in the weekly set later",
    "ok, no Hay Bridge in the weekly set",  # a refusal
    "right, now the weekly set",  # a new matter
    "ok, by next week for the weekly set",  # when, not what
    "good luck with the weekly set",  # "good" no agreement
    "yes, Hay Bridge for the weekly set?",  # a question
    "ok, Bryn, Hay Bridge for the weekly set",  # to a person
    "ok, send the weekly set to Hay Bridge",  # a directive, read as one elsewhere
    "yeah, same here Bryn",  # the LoCoMo dump's remarks and exclamations
    "yeah, weekly sets are great for clearing the mind!",
    "yeah, walking the weekly set opens up a lot of routes",
    "yes, Hay Bridge first!",
])
def test_what_is_no_terse_outcome_is_not_written_as_one(model, said):
    summary = offline_summary("Olwen: Hay Bridge or Glasbury for the weekly set this summer?",
                              "Bryn: I've walked the route and priced both, either works.",
                              f"Olwen: {said}", model=model)[0]
    rest = said.split(maxsplit=1)[1].strip(" ,.?")
    assert not [d for d in summary.decisions if dice(tokens(d), tokens(rest)) >= 0.8], summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_an_agreement_to_the_assistant_is_left_to_the_other_rules(model):
    """With the assistant an "ok, …" acknowledges an answer; this class reads conversations among
    people only."""
    summary = offline_summary("user: Hay Bridge or Glasbury for the weekly set this summer?",
                              "assistant: Either works; Hay Bridge has parking.",
                              "user: ok, parking at Hay Bridge for the weekly set", model=model)[0]
    assert not [d for d in summary.decisions if "parking" in d.lower()], summary.decisions


def _shipped(set_name, conv_id, model):
    conv = next(c for c in load_set(set_name) if c.id == conv_id)
    return conv, OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]


@pytest.mark.parametrize("model", WAYS)
def test_heldout22_street_trees_agreed_species_is_a_decision(model):
    """heldout22's "lovely, field maple for all 11" (the street-tree sponsorship) is its labelled
    decision "Plant field maple in all 11 pits"."""
    conv, summary = _shipped("heldout22", "h22-street-trees-sponsorship", model)
    assert "Plant field maple in all 11 pits" in conv.expected["decisions"]
    assert any(dice(tokens(d), tokens("Plant field maple in all 11 pits")) >= 0.5 for d in summary.decisions), \
        summary.decisions
    _clean(summary)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(lead=st.sampled_from(["fine. ", "yes, ", "ok, ", "agreed, "]),
       task=st.sampled_from(["first draft to Katrin for review", "weekly set draft to Bryn", "the Hay Bridge route card"]),
       when=st.sampled_from(["by 31 jan", "by end of day", "by Friday", "by next week", "by the 14th"]))
def test_an_agreed_outcome_with_a_deadline_is_the_speakers_step(model, lead, task, when):
    """An agreement then the outcome in a few words with a deadline ("fine. first draft to Katrin
    for review by 31 jan") is a task: the speaker's next step, not a decision."""
    said = f"{task} {when}"
    summary = offline_summary("Olwen: Hay Bridge or Glasbury for the weekly set, and who drafts it?",
                              "Bryn: I've walked the route and priced both, either works.",
                              f"Olwen: {lead}{said}", model=model)[0]
    steps = [strip_owner(x) for x in (*summary.next_steps, *summary.action_items) if x.startswith("Olwen: ")]
    assert any(dice(tokens(x), tokens(said)) >= 0.8 for x in steps), summary
    assert not [d for d in summary.decisions if dice(tokens(d), tokens(said)) >= 0.8], summary.decisions
    _clean(summary)
