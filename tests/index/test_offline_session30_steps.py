"""Session 30's next-step classes, from heldout26's misses, both ways the offline backend runs: a
commitment going on ", and let's …" or ", and we'll …" to a second step ("I'll write it up on the
PAY-HANDOVER page by end of January, and let's do two pairing sessions before I go") is two steps,
as ", and I'll …" was (``cues._COMMA_AND``); "I'll take it to Dana tomorrow" hands the matter on: the
speaker's step, no decision (``cues._TAKE``). "I'll ask her on Monday" names the person it reaches
when she was named before a possessive of consent ("that needs Farah's ok") or after "get hold of"
("can someone get hold of Marco?" — "I'll text him") (``cues._PERSON``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_FIRST = [("I'll write it up on the PAY-HANDOVER page in Confluence by end of January", "confluence"),
          ("I'll book the village hall for the 14th", "village hall"),
          ("I'll send the draft to Hugo in Legal tomorrow", "hugo")]
_SECOND = [("let's do two pairing sessions before I go", "pairing sessions"),
           ("we'll run the dry run on Thursday morning", "dry run"),
           ("let's review the checklist together on Monday", "checklist")]


def _steps(summary):
    return [s.lower() for s in (*summary.next_steps, *summary.action_items)]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(first=st.sampled_from(_FIRST), second=st.sampled_from(_SECOND), lead=st.sampled_from(["", "ha, fair. "]))
def test_a_step_going_on_to_a_second_after_and_lets_is_two_steps(model, first, second, lead):
    (one, k1), (two, k2) = first, second
    summary, _ = offline_summary(
        "Rafael: Gemma's leave starts 9 February, so we need cover for the payroll integration",
        "Dev: I can take the code. I want a proper handover doc though",
        f"Gemma: {lead}{one}, and {two}",
        "Rafael: perfect, thanks both",
        model=model)
    steps = _steps(summary)
    assert any(k1 in s and k2 not in s for s in steps), steps
    assert any(k2 in s and k1 not in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_heldout26_handover_writes_the_pairing_sessions_apart(model):
    conv = next(c for c in load_set("heldout26") if c.id == "h26-parental-leave-cover")
    steps = _steps(OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0])
    assert any("pairing sessions" in s and "confluence" not in s for s in steps), steps


_HANDED = [("Dana tomorrow, she's the DPO", "dana"), ("Helen for the overspend approval", "helen"),
           ("the trustees on Tuesday", "trustees")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(to=st.sampled_from(_HANDED), what=st.sampled_from(["it", "that", "this"]),
       lead=st.sampled_from(["", "not deciding that in here. ", "ok. "]))
def test_taking_a_matter_to_someone_is_a_step_not_a_decision(model, to, what, lead):
    text, key = to
    summary, _ = offline_summary(
        "Yusuf: HackerOne report 2184407, any logged-in user can read any invoice",
        "Clara: do we have to tell customers? it's been live since May",
        f"Yusuf: {lead}I'll take {what} to {text}",
        "Ben: I'll pull the access logs for that endpoint back to May",
        model=model)
    assert not any(key in d.lower() for d in summary.decisions), summary.decisions
    assert any(key in s and s.startswith("yusuf:") for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_taking_an_option_is_still_a_decision(model):
    summary, _ = offline_summary(
        "Chloe: the 3x3 shell scheme is £6,800, the 6x3 corner is £13,900",
        "Petra: the budget's £10k for the whole thing",
        "Chloe: ok, we'll take the 3x3 shell scheme again",
        "Arjun: fine by me",
        model=model)
    assert any("3x3" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_heldout26_bug_bounty_takes_the_question_to_dana_as_a_step(model):
    conv = next(c for c in load_set("heldout26") if c.id == "h26-bug-bounty-payout")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert not any("dana" in d.lower() for d in summary.decisions), summary.decisions
    assert any("dana" in s for s in _steps(summary)), _steps(summary)


_NAMES = ["Farah", "Marco", "Aisling", "Tomasz"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(_NAMES), consent=st.sampled_from(["ok", "approval", "sign-off", "go-ahead"]),
       verb=st.sampled_from(["ask", "message", "ping"]), pronoun=st.sampled_from(["her", "him"]))
def test_a_step_reaching_someone_named_before_a_consent_names_them(model, name, consent, verb, pronoun):
    summary, _ = offline_summary(
        "Jon: our main.js went from 480 KB to 1.9 MB after last sprint",
        "Lee: a performance budget in webpack.config.js would fail the build above a size we choose",
        f"Jon: good idea but that needs {name}'s {consent}, they own the build config. I'll {verb} {pronoun} on Monday",
        model=model)
    assert any(f"{verb} {name.lower()}" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(_NAMES), verb=st.sampled_from(["text", "ring", "call"]),
       ask=st.sampled_from(["can someone get hold of {n}?", "has anyone heard from {n}?"]))
def test_a_step_reaching_someone_asked_after_names_them(model, name, verb, ask):
    summary, _ = offline_summary(
        "Hana: half the product pages still show the old price",
        "Josh: I could purge Fastly too but I don't have the API token",
        f"Hana: brilliant. {ask.format(n=name)}",
        f"Wen: I'll {verb} him, he said he'd keep an eye on his phone",
        model=model)
    assert any(f"{verb} {name.lower()}" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "words"), [("h26-webpack-bundle-size", "ask farah"),
                                                ("h26-cdn-cache-purge", "text marco")])
def test_heldout26_steps_name_whom_they_reach(model, conv_id, words):
    conv = next(c for c in load_set("heldout26") if c.id == conv_id)
    steps = _steps(OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0])
    assert any(words in s for s in steps), steps
