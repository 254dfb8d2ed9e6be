"""Session 31's open-question class, from heldout27's misses, both ways the offline backend runs:
the assistant's suggestion of what the user may be able to do ("you might be able to claim
Carer's Allowance, depending on your hours") that the user puts off ("I'll look into that another
time", "I'll have a think") is left open, "Could you claim Carer's Allowance?", without its
condition (``cues._ABLE``, read by ``_Reader.worth_put_off`` as session 30's "it may be worth …")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ABLE = [("claim Carer's Allowance", "carer's allowance"), ("get a council tax discount", "council tax"),
         ("transfer part of your personal allowance", "personal allowance")]
_PUT_OFF = ["I work full-time so I doubt it. I'll look into that another time",
            "I'll have a think about that one", "maybe. I'll look at it one of these days"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(able=st.sampled_from(_ABLE), lead=st.sampled_from(["", "Also, ", "And if she's awarded it, "]),
       cond=st.sampled_from(["", ", depending on your hours and earnings", ", if you apply before April"]),
       off=st.sampled_from(_PUT_OFF))
def test_a_suggestion_of_what_one_may_be_able_to_do_put_off_stays_open(model, able, lead, cond, off):
    what, key = able
    summary, _ = offline_summary(
        "user: my mum's 84 and she's been falling. a friend said she might get Attendance Allowance",
        "assistant: It's for people over State Pension age who need help with personal care.",
        "user: ok. I'll start a diary of her bad days this week",
        f"assistant: {lead}you might be able to {what}{cond}.",
        f"user: {off}",
        model=model)
    asked = [q for q in summary.open_questions if key in q.lower()]
    assert asked, summary.open_questions
    assert not any(w in q for q in asked for w in ("depending", "April")), asked


@pytest.mark.parametrize("model", WAYS)
def test_a_suggestion_taken_up_is_not_left_open(model):
    summary, _ = offline_summary(
        "user: my mum's 84 and she's been falling. a friend said she might get Attendance Allowance",
        "assistant: It's for people over State Pension age who need help with personal care.",
        "assistant: Also, you might be able to claim Carer's Allowance, depending on your hours.",
        "user: great, I'll apply for it tonight",
        model=model)
    assert not any("carer" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_heldout27_attendance_allowance_leaves_carers_allowance_open(model):
    conv = next(c for c in load_set("heldout27") if c.id == "h27-attendance-allowance-claim")
    questions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].open_questions
    assert any("carer's allowance" in q.lower() for q in questions), questions
