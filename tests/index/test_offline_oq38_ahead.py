"""Session 38: a statement that a choice is ahead ("We have to decide which van we hire") or needs
no deciding yet ("There's no need to decide anything now.") is no open question, both ways the
offline backend runs (``cues._AHEAD``, read by ``_Reader.not_ahead`` after ``screen()``); "I
still need to decide whether…" is one."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_AHEAD = ["We have to decide which van we hire for the move.", "have to decide by monday between the two vans",
          "You don't have to decide about the van tonight.", "There's no need to decide on a van yet."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=20, deadline=None)
@given(ahead=st.sampled_from(_AHEAD))
def test_a_choice_said_to_be_ahead_is_no_open_question(model, ahead):
    summary, _ = offline_summary(f"Elin: Moving day is the 3rd, 40 boxes and the sofa. {ahead}",
                                 "Dafydd: Option one, the Luton from Hirecraft at £95 a day. Option two, the "
                                 "Transit at £70.", "Elin: The sofa won't fit in the Transit.",
                                 "Dafydd: I'll ask my cousin too, he has a trailer.", "Elin: Right, the Luton then.",
                                 "Dafydd: I'll book it tonight.", model=model)
    assert not any("decide" in q.lower() for q in summary.open_questions), summary.open_questions
    assert not any("decide" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_still_needing_to_decide_whether_stays_open(model):
    summary, _ = offline_summary("Elin: Moving day is the 3rd. I still need to decide whether we hire a van at all.",
                                 "Dafydd: My cousin might lend us his trailer.", "Elin: ok", model=model)
    assert any("van" in q.lower() for q in summary.open_questions), summary.open_questions
