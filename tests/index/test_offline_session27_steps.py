"""Session 27's next-step class, from heldout23's wrong items: a customer's request to the agent
they rang ("so can you take it off?") is no step left when the agent's answer does it ("I've put a
£100 goodwill credit on your account", "done. there's now a £10 cap…"); both ways the offline
backend runs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.bench.summaries.score import strip_owner
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_REQUESTS = ["can you take the charge off?", "could you stick a spending cap on the account?",
             "can you move the appointment to Friday?", "can you send a new code to my phone?"]


def _steps(summary):
    return [strip_owner(s).lower() for s in (*summary.next_steps, *summary.action_items)]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(request=st.sampled_from(_REQUESTS),
       lead=st.sampled_from(["so ", "ok. ", ""]),
       done=st.sampled_from(["done. there's now a £10 cap on out-of-bundle charges",
                             "I've put a £100 goodwill credit on your account",
                             "done, you'll get a text in a minute"]))
def test_a_request_the_agent_does_is_no_step(model, request, lead, done):
    summary, _ = offline_summary(
        "Connor: my bill's £146.30 this month, it's normally £22",
        "Aisling: hi Connor, Aisling at Vireo here. I can see the roaming charges",
        f"Connor: {lead}{request}",
        f"Aisling: {done}",
        model=model)
    asked = request.split(" ", 2)[2].rstrip("?")
    assert not [s for s in _steps(summary) if asked.split()[0] in s and asked.split()[-1] in s], _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_a_request_the_agent_does_not_do_stays_their_step(model):
    summary, _ = offline_summary(
        "Connor: my bill's £146.30 this month, it's normally £22",
        "Aisling: hi Connor, Aisling at Vireo here. I can see the roaming charges",
        "Connor: can you stick a spending cap on so this can't happen again?",
        "Aisling: the system's down at the moment, sorry. nothing I can do today",
        model=model)
    assert any("spending cap" in s for s in _steps(summary)), _steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_heldout23_roaming_dispute_leaves_no_done_request_as_a_step(model):
    conv = next(c for c in load_set("heldout23") if c.id == "h23-roaming-bill-dispute")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert not [s for s in _steps(summary) if "take it off" in s or "spending cap" in s], _steps(summary)
