"""Session 34's next-step class, from heldout29's misses, both ways the offline backend runs: among
people, a participant's "send me …" ("booking now, send me your passport numbers in dm", "I'll buy
them tonight and you all send me £28") is a step for the others with the speaker named, "Send Ana
your passport numbers in dm", wherever the sentence itself went (``cues._SEND_ME``, read by
``_Reader.sent_to_me``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_WHAT = [("your passport numbers in dm", "passport numbers"), ("£28 each for the tickets", "£28"),
         ("the signed consent forms", "consent forms"), ("the final guest list", "guest list")]
_LEAD = ["booking now, send me {w}", "ok I'll buy them tonight and you all send me {w}",
         "pls send me {w}", "Send me {w} by Friday.", "I'll sort the rest, you guys send me {w}"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(who=st.sampled_from(["Ana", "Jess", "Colin"]), what=st.sampled_from(_WHAT), lead=st.sampled_from(_LEAD))
def test_send_me_among_people_is_the_others_step_with_the_speaker_named(model, who, what, lead):
    text, key = what
    summary, _ = offline_summary(
        "Leo: ok so the Dublin trip is confirmed for March",
        f"{who}: {lead.format(w=text)}", "Leo: sending", model=model)
    steps = [s for s in summary.next_steps if s.startswith(f"Send {who} ") and key in s]
    assert steps, summary.next_steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["can you send me the final guest list?", "just send me it",
                                  "they never send me the receipts anyway"])
def test_a_question_a_pronoun_or_a_statement_is_no_send_step(model, said):
    summary, _ = offline_summary(
        "Leo: ok so the Dublin trip is confirmed for March", f"Ana: {said}", "Leo: sure", model=model)
    assert not any(s.startswith("Send Ana") for s in summary.next_steps), summary.next_steps


@pytest.mark.parametrize("model", WAYS)
def test_the_users_send_me_to_the_assistant_is_no_step_of_others(model):
    summary, _ = offline_summary(
        "user: my passport is expiring, what do I need to renew it",
        "assistant: You need the old passport, a new photo and the form.",
        "user: ok send me the form link", model=model)
    assert not any(s.startswith("Send user") for s in summary.next_steps), summary.next_steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("conv_id", "step"), [
    ("h29-speedcubing-competition-travel", "Send Ana your passport numbers in dm."),
    ("h29-comic-con-cosplay-group", "Send Jess £28."),
])
def test_heldout29_send_me_steps(model, conv_id, step):
    conv = next(c for c in load_set("heldout29") if c.id == conv_id)
    steps = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].next_steps
    assert step in steps, steps
