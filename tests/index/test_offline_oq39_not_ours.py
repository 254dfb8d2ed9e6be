"""Session 39: among people, a question whose answer hands it to someone else's say in the forms
"not a call for the three of us", "not deciding that in here" and "he decides that, not us" stays
open, both ways the offline backend runs (``cues._NOT_OURS``, read by ``_Reader.not_ours`` after
``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_HANDED = ["not a call for the three of us. I'll raise it at the trustees' meeting in March",
           "Not deciding that in here. I'll take it to Dana tomorrow.",
           "I'll loop in Farid today, he decides that, not us"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=15, deadline=None)
@given(handed=st.sampled_from(_HANDED))
def test_a_question_handed_to_someone_elses_say_stays_open(model, handed):
    summary, _ = offline_summary("Ifan: The hall roof repair came in at £4,800, more than we budgeted.",
                                 "Carys: Should we raise the hire fee for the autumn bookings?",
                                 f"Ifan: {handed}", "Carys: ok", model=model)
    assert any("hire fee" in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_question_settled_by_the_answer_leaves_none(model):
    summary, _ = offline_summary("Ifan: The hall roof repair came in at £4,800, more than we budgeted.",
                                 "Carys: Should we raise the hire fee for the autumn bookings?",
                                 "Ifan: Yes, up by £5 an hour from September.", "Carys: ok", model=model)
    assert not any("hire fee" in q.lower() for q in summary.open_questions), summary.open_questions
