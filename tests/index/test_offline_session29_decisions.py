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


_PROPOSED = [("ok. also we should alert on evicted_keys > 0 for the session cache, nobody noticed for three days",
              "evicted_keys"),
             ("we should move the stand-up to 9:30 on Mondays, half the team is on the school run", "stand-up"),
             ("I think we should switch the backups to the custom format, the plain dumps keep failing", "backups")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(proposal=st.sampled_from(_PROPOSED),
       agree=st.sampled_from(["agreed", "Agreed", "sounds good", "makes sense", "ok, agreed", "fair enough"]),
       stop=st.sampled_from([",", ".", "!"]),
       ask=st.sampled_from(["can you add that in Grafana?", "could you set it up today?", "and can you tell the team?"]))
def test_an_agreement_going_on_to_a_request_decides_the_proposal(model, proposal, agree, stop, ask):
    text, key = proposal
    summary, _ = offline_summary(
        "Yusuf: redis-cache-02 is evicting keys again and the backups failed twice",
        f"Leah: {text}",
        f"Yusuf: {agree}{stop} {ask}",
        "Leah: yes, after lunch",
        model=model)
    decisions = [d.lower() for d in summary.decisions]
    assert any(key in d for d in decisions), decisions
    assert any(s.startswith("Leah:") for s in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", WAYS)
def test_a_plain_yes_going_on_to_a_request_decides_nothing_new(model):
    summary, _ = offline_summary(
        "Yusuf: redis-cache-02 is evicting keys again",
        "Leah: we could look at the eviction graphs later, nobody noticed for three days",
        "Yusuf: yes, can you add that in Grafana?",
        "Leah: yes, after lunch",
        model=model)
    assert not summary.decisions, summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_redis_decides_the_eviction_alert(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-redis-eviction-alerts")
    decisions = [d.lower() for d in OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions]
    assert any("evicted_keys" in d and "alert" in d for d in decisions), decisions
