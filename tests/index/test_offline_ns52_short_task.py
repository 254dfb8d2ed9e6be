"""Session 52 (ns52): among people, a participant's "I'll do the <thing>" of one content word, which
no reader placed ("I'll do the flyer."), is that speaker's next step, both ways the offline backend
runs; not a question, nor "I'll do it" (``_Reader.my_short_task``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_i_will_do_the_thing(model):
    steps = _steps(model, "Olwen: The council will plant the new trees in March.",
                   "Bryn: I'll set up the sponsorship page tonight.", "Marged: I'll do the posters.",
                   "Olwen: Lovely.")
    assert any(s.startswith("Marged: ") and "do the posters" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_question_is_no_step(model):
    steps = _steps(model, "Olwen: The council will plant the new trees in March.",
                   "Marged: I'll do the posters, or is Bryn doing them?", "Olwen: Bryn is.")
    assert not any("do the posters" in s for s in steps), steps
