"""Session 43: among people, a step named without a volunteer that goes on to say why after a
comma ("Someone needs to …, it was chaos last year") is the step before the comma, both ways the
offline backend runs; a task whose object is a pronoun stays unwritten
(``_Reader.someone_needs_then_why``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, said):
    summary, _ = offline_summary("Gwen: The street party is on the 21st, the road closure is approved.",
                                 "Rob: Great, and the bunting is in my loft.", said, "Rob: Good.", model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", [
    ("Gwen: Someone needs to borrow trestle tables from the church hall, it was chaos last year.",
     "Borrow trestle tables from the church hall."),
    ("Gwen: And someone has to ring the council about parking suspensions, they didn't put signs up in 2023.",
     "Ring the council about parking suspensions.")])
def test_the_step_before_its_why_is_written(model, case):
    said, step = case
    assert step in _steps(model, said)


@pytest.mark.parametrize("model", WAYS)
def test_a_task_on_a_pronoun_stays_unwritten(model):
    steps = _steps(model, "Gwen: And the pizza vans, someone needs to book them for the whole afternoon, "
                          "they were gone by noon last time.")
    assert not any("book them" in s.lower() for s in steps), steps
