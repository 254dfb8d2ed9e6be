"""Session 38: among people, a question the next turn leaves unsettled in its first words stays
open, both ways the offline backend runs (``cues._NOT_DECIDED``, ``_TALK_AT``, ``_NOT_CHECKED``,
read by ``_Reader.still_open`` after ``read()``): "Not decided.", "Let's talk about that at
Monday's committee", "I think so, but I haven't checked"."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("Which caterer are we using for the buffet?", "caterer"),
          ("Do we print the programmes in colour or black and white?", "programmes"),
          ("And the raffle, is it one pound a strip again?", "raffle"),
          ("What about the stallholders' parking? Can the school field take the overflow?", "parking")]
_UNSETTLED = ["Not decided.", "Not decided yet. The cheaper one is further away though.",
              "Let's talk about that at Monday's committee.", "ok, let's discuss it at the next meeting",
              "I think so, but I haven't checked.", "Probably. We haven't confirmed anything with them yet"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), answer=st.sampled_from(_UNSETTLED))
def test_a_question_the_next_turn_leaves_unsettled_stays_open(model, asked, answer):
    question, key = asked
    summary, _ = offline_summary("Anwen: Fete planning. The field is booked for 14 June.",
                                 f"Gwil: Good. {question}", f"Anwen: {answer}",
                                 "Gwil: I'll draft the poster tonight.", model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_what_about_and_its_question_stay_one_item(model):
    """The topic question and the whole one after it, both left open, are one item."""
    summary, _ = offline_summary("Anwen: Fete planning. The field is booked for 14 June.",
                                 "Gwil: What about the stallholders' parking? Can the school field take the overflow?",
                                 "Anwen: It's big enough I think, but I haven't checked with the head.",
                                 "Gwil: I'll draft the poster tonight.", model=model)
    found = [q for q in summary.open_questions if "parking" in q.lower()]
    assert len(found) == 1 and "overflow" in found[0].lower(), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["The church hall, it's booked.", "Black and white, it's cheaper.",
                                    "Let's go with Jones's, they did it last year."])
def test_a_question_the_next_turn_settles_is_not_left_open(model, answer):
    summary, _ = offline_summary("Anwen: Fete planning. The field is booked for 14 June.",
                                 "Gwil: Good. Which caterer are we using for the buffet?", f"Anwen: {answer}",
                                 "Gwil: I'll draft the poster tonight.", model=model)
    assert not any("caterer" in q.lower() for q in summary.open_questions), summary.open_questions
