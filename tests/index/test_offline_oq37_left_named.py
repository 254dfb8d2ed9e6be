"""Session 37: among people, a question whose matter a turn or two on is left for now by name
("Who's the independent chair?" — "Not sorted. Maybe Rashid, …" — "Let's leave the chair for now
and see what Rashid says") stays open, both ways the offline backend runs
(``cues._LEAVE_NAMED``, read by ``_Reader.left_named``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Who's doing the raffle prizes this year?", "raffle prizes", "raffle prizes"),
          ("Where do we put the marquee, by the way?", "marquee", "marquee"),
          ("Which caterer are we using for the buffet?", "buffet", "caterer")]
_ANSWERED = ["Nobody yet. Maybe Sian, but she's away till May.", "Hm. The field's soggy by the gate.",
             "Depends on the quotes, two are still out."]
_LEAVE = ["Let's leave the {what} for now and see what the committee says.",
          "ok, let's park the {what} until the quotes are in.",
          "Right, let's leave the {what} for the moment. Anwen, can you send the poster round?"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answered=st.sampled_from(_ANSWERED), leave=st.sampled_from(_LEAVE))
def test_a_question_whose_matter_is_left_for_now_by_name_stays_open(model, asked, answered, leave):
    question, key, what = asked
    summary, _ = offline_summary("Anwen: Fete planning. The field is booked for 14 June.",
                                 f"Gwil: {question}", f"Anwen: {answered}",
                                 f"Gwil: {leave.format(what=what)}", "Anwen: fine", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_leaving_another_matter_leaves_the_answered_question(model):
    """The put-off names something the question did not ask about."""
    summary, _ = offline_summary("Anwen: Fete planning. The field is booked for 14 June.",
                                 "Gwil: Where do we put the marquee, by the way?",
                                 "Anwen: By the gate, it's flat there.",
                                 "Gwil: Let's leave the raffle for now.", "Anwen: fine", model=model)
    assert not any("marquee" in q.lower() for q in summary.open_questions), summary.open_questions
