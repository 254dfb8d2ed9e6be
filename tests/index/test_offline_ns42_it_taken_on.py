"""Session 42: among people, "I'll <verb> it" right after another speaker said the thing is
needed ("we need the rota for the summer fortnight again") or to be done with that verb ("we
book the hall for the AGM") is the step written with that thing; with nothing said before it
the pronoun stays, both ways the offline backend runs (``_Reader.it_taken_on``,
``cues._IT_TAKEN_ON``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, said, taken):
    summary, _ = offline_summary("Lena: Next, the allotment society's summer.", "Omar: Plots are all let this year.",
                                 said, taken, "Lena: Lovely.", model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", [
    ("Omar: And we need the watering rota for the summer fortnight again, last year was chaos.",
     "Priya: I'll set it up.", "Priya: Set up the watering rota for the summer fortnight again"),
    ("Omar: Either way we book the village hall for the AGM soon, it fills up.",
     "Priya: Fine. I'll book it tomorrow and we split the cost.", "Priya: Book the village hall for the AGM soon tomorrow")])
def test_a_step_on_a_pronoun_names_the_thing_said_before(model, case):
    said, taken, step = case
    steps = _steps(model, said, taken)
    assert any(s.startswith(step) for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_with_nothing_named_before_the_step_keeps_its_pronoun(model):
    steps = _steps(model, "Omar: The shed roof leaked again in March.", "Priya: I'll sort it.")
    assert not any("roof" in s for s in steps), steps
