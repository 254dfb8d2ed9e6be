"""Session 34's decision class, from heldout29's misses, both ways the offline backend runs: a
participant's decision followed in the same turn by a second directive opening with "and",
"also" or "plus" ("Let's do the mapping properly. And leave the global boosts alone.") is a
second decision, without its conjunction."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_FIRST = ["Let's move it to monthly.", "Let's do the mapping properly.", "Let's go with the Leeds venue."]
_SECOND = [("leave the global boosts alone", "global boosts"), ("keep the print run for the members", "print run"),
           ("send the old banners back to the printer", "old banners")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(first=st.sampled_from(_FIRST), conj=st.sampled_from(["And", "Also", "Plus", "And,"]),
       second=st.sampled_from(_SECOND))
def test_a_second_directive_after_a_decision_is_a_decision(model, first, conj, second):
    text, key = second
    summary, _ = offline_summary(
        "Maya: The newsletter and the search both need a call today.",
        "Tom: I'd move it to monthly, or we keep it weekly.",
        f"Maya: {first} {conj} {text}.", "Tom: ok", model=model)
    written = [d for d in summary.decisions if key in d]
    assert written, summary.decisions
    assert not written[0].lower().startswith(("and", "also", "plus")), written


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("second", ["And what about the print run?", "And that was a long week.",
                                    "And great work on the layout!"])
def test_a_question_a_statement_or_a_remark_after_a_decision_is_none(model, second):
    summary, _ = offline_summary(
        "Maya: The newsletter needs a call today.",
        "Tom: I'd move it to monthly, or we keep it weekly.",
        f"Maya: Let's move it to monthly. {second}", "Tom: ok", model=model)
    assert not any(w in d.lower() for d in summary.decisions for w in ("print run", "long week", "layout")), \
        summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout29_search_tuning_leaves_the_global_boosts(model):
    conv = next(c for c in load_set("heldout29") if c.id == "h29-search-relevance-tuning")
    decisions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions
    assert "Leave the global boosts alone." in decisions, decisions


_NOW = [("Your plan is now the 200 GB plan, billed yearly at £24.99.", "200 GB plan"),
        ("Your booking is now for Saturday the 9th at 7pm.", "Saturday the 9th"),
        ("Your delivery address is now 14 Alder Close.", "14 Alder Close")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(now=st.sampled_from(_NOW), done=st.sampled_from(["Done.", "All done!", "OK, done."]))
def test_what_the_users_thing_is_now_after_a_bare_done_is_a_decision(model, now, done):
    """The assistant's "Done. Your plan is now …": what was done on the user's request (session 34)."""
    text, key = now
    summary, _ = offline_summary(
        "user: can you change it please, the account is r.okafor@fastmail.com",
        "assistant: I can see the account. Would you like the change now or at renewal?",
        "user: now please", f"assistant: {done} {text}", "user: great, thanks", model=model)
    assert any(key in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_what_the_users_thing_is_now_without_done_is_no_decision(model):
    summary, _ = offline_summary(
        "user: what plan am I on at the moment",
        "assistant: Your plan is now the 200 GB plan, billed yearly at £24.99.", "user: ok thanks", model=model)
    assert not any("200 GB" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout29_cloud_storage_downgrade_writes_the_new_plan(model):
    conv = next(c for c in load_set("heldout29") if c.id == "h29-cloud-storage-plan-downgrade")
    decisions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions
    assert any(d.startswith("Your plan is now Nimbus Drive 200 GB") for d in decisions), decisions
