"""Session 56 (ns56): a step that opens on what will not be done before the speaker's commitment
("Let's not decide today, I'll ask …", "Not … but I'll …") is the commitment alone, both ways the
offline backend runs (``_Reader.refused_lead``); a doubt before it ("Not sure, I'll check …") stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_what_is_put_off_is_cut(model):
    steps = _steps(model, "Mo: The laptops for the repair café need insuring before Saturday.",
                   "Ade: Does the hall cover it?",
                   "Mo: Let's not panic, I'll ask the hall committee whether their policy covers us.")
    assert "Mo: I'll ask the hall committee whether their policy covers us." in steps, steps
    assert not any("panic" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_what_is_turned_down_is_cut(model):
    steps = _steps(model, "Marcus: Parents keep parking on the zigzags at the school gate.",
                   "Priya: Someone will get hurt.",
                   "Marcus: Not going to solve it in a group chat but I'll bring it up at the governors' "
                   "meeting on Thursday.")
    assert any(s.startswith("Marcus: I'll bring it up at the governors' meeting") for s in steps), steps
    assert not any("group chat" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_doubt_before_the_step_stays(model):
    steps = _steps(model, "Ron: Do we still need a permit holder for every night of the camp?",
                   "Jo: Not sure, I'll check with the district commissioner tomorrow.")
    assert any(s.startswith("Jo: Not sure, I'll check with the district commissioner") for s in steps), steps
