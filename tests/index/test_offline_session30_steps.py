"""Session 30's next-step classes, from heldout26's misses, both ways the offline backend runs: a
commitment going on ", and let's …" or ", and we'll …" to a second step ("I'll write it up on the
PAY-HANDOVER page by end of January, and let's do two pairing sessions before I go") is two steps,
as ", and I'll …" was (``cues._COMMA_AND``)."""

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
