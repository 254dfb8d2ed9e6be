"""Session 42: a third person said inside a sentence to be doing a task or that they will
("…, Ravi is doing the flights.", "…, Priya's sending the deposit on Friday.") is their next
step, written with them as owner and the verb in its base form; not a person's coming along,
not a pronoun object ("…, Excel will pick it up"), both ways the offline backend runs
(``_Reader.someone_doing``, ``cues._SOMEONE_DOING``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_named_person_doing_a_task_among_people_is_their_step(model):
    steps = _steps(model, "Ann: Right, the Lisbon trip in May.", "Tom: Hotels are sorted, Ravi is doing the flights.",
                   "Ann: great")
    assert any(s.startswith("Ravi: Do ") and "flights" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_named_person_sending_something_told_to_the_assistant_is_their_step(model):
    steps = _steps(model, "user: We're planning the Lisbon trip in May, four of us.",
                   "assistant: Sounds fun. Have you booked anything yet?",
                   "user: The hotel's booked and Priya's sending the deposit on Friday.", "assistant: Great.")
    assert "Priya: Send the deposit on Friday." in steps, steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["Tom: Hotels are sorted, Ravi is coming too.",
                                  "Tom: Hotels are sorted, Excel will pick it up from the shared sheet."])
def test_no_task_or_a_pronoun_object_is_no_step(model, said):
    assert _steps(model, "Ann: Right, the Lisbon trip in May.", said, "Ann: great") == []
