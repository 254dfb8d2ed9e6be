"""Session 29's next-step class, from heldout25's misses, both ways the offline backend runs: a
commitment whose object is a list ("I'll do the Co-op, the garden centre and the butcher") keeps
the whole list; the comma before "the …" is not a remark cut off the step
(``cues._LIST_END``, read by ``_without_aside``). A remark after the comma still is."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ITEMS = ["the Co-op", "the garden centre", "the butcher", "the bakery on Mill Lane", "the café",
          "the hairdresser", "the pub", "the two florists"]


def _steps(summary):
    return [*summary.next_steps, *summary.action_items]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(items=st.lists(st.sampled_from(_ITEMS), min_size=3, max_size=4, unique=True),
       verb=st.sampled_from(["do", "ring", "ask", "visit", "email"]),
       joiner=st.sampled_from(["and", "or"]))
def test_a_step_on_a_list_keeps_every_item(model, items, verb, joiner):
    listed = ", ".join(items[:-1]) + f" {joiner} " + items[-1]
    summary, _ = offline_summary(
        "Jean: we need proper prizes for the tombola at the fete on Saturday",
        f"Derek: I'll {verb} {listed}",
        "Jean: great, thanks",
        model=model)
    steps = _steps(summary)
    assert any(items[-1] in s and items[0] in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("line", ["I'll relabel them by hand this morning, the label printer works again",
                                  "I'll call Coldline first thing tomorrow, the line and the router are both down"])
def test_a_remark_after_the_comma_is_still_cut(model, line):
    summary, _ = offline_summary(
        "Jean: the shop's labels and the phones are a mess this week",
        f"Derek: {line}",
        "Jean: great, thanks",
        model=model)
    steps = _steps(summary)
    assert steps and not any("again" in s or "down" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_tombola_step_names_all_three_shops(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-village-fete-tombola")
    steps = _steps(OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0])
    assert any("garden centre" in s and "butcher" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(request=st.sampled_from(["can you tell Amaka in marketing?", "could you email the partners about the new links?",
                                "can you book the meeting room for Friday?"]),
       yes=st.sampled_from(["yes.", "yeah.", "sure.", "ok.", "will do."]),
       then=st.sampled_from(["and the unknown IPs?", "what about the old links?", "who tells finance?"]))
def test_a_request_answered_yes_then_a_question_is_the_answerers_step(model, request, yes, then):
    summary, _ = offline_summary(
        "Ines: the bucket was public and the partner links used it",
        f"Rory: that's fine. we'll move them to presigned URLs. {request}",
        f"Ines: {yes} {then}",
        model=model)
    key = next(w for w in ("Amaka", "partners", "meeting room") if w in request)
    assert any(s.startswith("Ines:") and key in s for s in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", WAYS)
def test_a_request_answered_with_a_question_alone_is_still_no_step(model):
    summary, _ = offline_summary(
        "Ines: the bucket was public and the partner links used it",
        "Rory: that's fine. we'll move them to presigned URLs. can you tell Amaka in marketing?",
        "Ines: why me? and the unknown IPs?",
        model=model)
    assert not any("Amaka" in s for s in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", WAYS)
def test_heldout25_s3_bucket_gives_ines_the_step_to_tell_amaka(model):
    conv = next(c for c in load_set("heldout25") if c.id == "h25-s3-bucket-public-access")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert any("Amaka" in s and s.startswith("Ines:") for s in summary.action_items), summary.action_items
