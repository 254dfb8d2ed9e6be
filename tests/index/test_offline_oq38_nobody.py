"""Session 38: a question its asker follows with "Nobody's checked", and "we still haven't sorted
who's driving", are open questions, both ways the offline backend runs (``cues._NOBODY_CHECKED``,
``_NOT_SORTED``, read by ``_Reader.still_open`` after ``read()``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Which of the other printers are out of toner?", "printers"),
          ("Does the spare laptop still boot?", "laptop"),
          ("How many chairs are left in the store room?", "chairs")]
_NOBODY = ["Nobody's checked", "Nobody has looked yet.", "And no one's actually counted."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=25, deadline=None)
@given(asked=st.sampled_from(_ASKED), nobody=st.sampled_from(_NOBODY))
def test_a_question_its_asker_says_nobody_has_checked_stays_open(model, asked, nobody):
    question, key = asked
    summary, _ = offline_summary("Rhiannon: The open day is on Saturday, the hall is booked.",
                                 f"Ifan: ok. {question} {nobody}",
                                 "Rhiannon: I'll put the signs up on Friday.", "Ifan: great", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


_NOT_SORTED = [("Also we still haven't sorted who's driving to the coast.", "driving"),
               ("We haven't sorted where the stalls go on the green yet.", "stalls"),
               ("I still haven't sorted which caterer does the buffet.", "caterer")]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", _NOT_SORTED)
def test_not_sorted_who_is_the_question_it_leaves(model, said):
    sentence, key = said
    summary, _ = offline_summary("Rhiannon: The open day is on Saturday, the hall is booked.",
                                 f"Ifan: Good. {sentence}",
                                 "Rhiannon: I'll put the signs up on Friday.", "Ifan: great", model=model)
    found = [q for q in summary.open_questions if key in q.lower()]
    assert found and found[0].endswith("?") and not found[0].lower().startswith("whether who"), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_a_question_answered_before_nobody_is_not_left_open(model):
    """"Nobody's checked" not right after the question says nothing of it."""
    summary, _ = offline_summary("Rhiannon: The open day is on Saturday, the hall is booked.",
                                 "Ifan: Does the spare laptop still boot?", "Rhiannon: Yes, I used it this morning.",
                                 "Ifan: Good. The projector bulb is old, nobody's checked it.", model=model)
    assert not any("laptop" in q.lower() for q in summary.open_questions), summary.open_questions
