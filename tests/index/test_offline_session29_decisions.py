"""Session 29's decision class, from heldout25's misses, both ways the offline backend runs: an
interjection opening a turn ("ha.", "oh.", "hmm.") is small talk (``cues._COURTESY``), so an
agreement to the turn's proposal decides the proposal, not the interjection with the
conversation's opening for context ("Ha — tombola for the summer fete.")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_INTERJECTIONS = ["ha.", "haha.", "oh.", "ooh!", "ah,", "aha.", "hmm.", "hm.", "huh.", "wow.", "lol."]
_PROPOSALS = [("I was thinking we ask the shops on the high street for proper prizes this year.", "shops"),
              ("I was thinking we hire a minibus from Castle Coaches for the away game.", "minibus"),
              ("I was thinking we move the stand-up to 9:30 on Mondays.", "stand-up")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(interjection=st.sampled_from(_INTERJECTIONS), proposal=st.sampled_from(_PROPOSALS),
       agree=st.sampled_from(["yes, let's do that.", "agreed.", "sounds good."]))
def test_an_interjection_opening_the_proposal_is_not_what_was_decided(model, interjection, proposal, agree):
    text, key = proposal
    summary, _ = offline_summary(
        "Jean: the summer fete is on the 12th. last year we ran out of prizes by 2 o'clock",
        "Derek: and half the prizes were bath salts from people's cupboards",
        f"Jean: {interjection} {text} the Co-op gave a hamper in 2023",
        f"Derek: {agree} I'll do the Co-op, the garden centre and the butcher",
        model=model)
    decisions = [d.lower() for d in summary.decisions]
    assert any(key in d for d in decisions), decisions
    word = interjection.rstrip(".,!").lower()
    assert not any(d.split()[0].strip(",.!—") == word for d in decisions), decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_tombola_decides_to_ask_the_shops(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-village-fete-tombola")
    decisions = [d.lower() for d in OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions]
    assert any("shops" in d and "prizes" in d for d in decisions), decisions
    assert not any(d.startswith("ha") for d in decisions), decisions
