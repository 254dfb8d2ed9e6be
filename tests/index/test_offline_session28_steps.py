"""Session 28's next-step class, from heldout24's wrong items: a commitment to nothing in
particular is no step: "I'll see." on its own ("I'll see. she said the eye test's valid for two
years anyway") and "I need to have a proper think about …" (``cues._NO_STEP``, which read "I'll
have a think" and "I'll see how …" since session 10); both ways the offline backend runs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_NOTHING = ["I'll see. {tail}", "ok, I'll see, {tail}", "hmm ok. I need to have a proper think about {what}.",
            "I'll have a good think about {what}.", "I should have a proper think about {what}. {tail}"]
_TAILS = ["she said the eye test's valid for two years anyway so no rush",
          "there's no hurry"]
_WHATS = ["where my salary's going", "the second pair of glasses", "the overpayments"]


def _steps(summary):
    return [s.lower() for s in (*summary.next_steps, *summary.action_items)]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(form=st.sampled_from(_NOTHING), tail=st.sampled_from(_TAILS), what=st.sampled_from(_WHATS))
def test_a_commitment_to_nothing_is_no_step(model, form, tail, what):
    summary, _ = offline_summary(
        "user: the optician says varifocals would help, and maybe a second pair for screen work",
        "assistant: Varifocals suit most people within a couple of weeks. A second pair of office lenses "
        "is worth it if you spend long hours at a screen.",
        "user: " + form.format(tail=tail, what=what),
        model=model)
    assert _steps(summary) == [], _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_seeing_someone_is_still_a_step(model):
    summary, _ = offline_summary(
        "user: my knee's been sore since the run on Sunday",
        "assistant: If it's still swollen after a few days, a physio can check it.",
        "user: ok. I'll see the physio on Friday.",
        model=model)
    assert any("physio" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout24_glasses_and_student_loan_write_no_empty_step(model):
    for cid, words in (("h24-varifocal-glasses", "i'll see"), ("h24-student-loan-repayment", "proper think")):
        conv = next(c for c in load_set("heldout24") if c.id == cid)
        summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
        assert not [s for s in _steps(summary) if words in s], _steps(summary)
