"""Session 56 (ns56): how to keep a thing named before ("Keep it out of frost …", "Keep that number
handy") is care or manner, no next step, both ways the offline backend runs (``_Reader._KEEP_IT``,
read in ``no_act``); keeping a thing the step names ("Keep the damaged kettle in its box …") stays."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_keeping_it_so_is_no_step(model):
    steps = _steps(model, "user: I've cast a concrete planter from a rhubarb leaf mould. How do I finish it?",
                   "assistant: Peel the leaf off once it has set, then brush out the veins with a stiff brush. "
                   "Keep it out of frost for a month while it cures properly.")
    assert not any("frost" in s.lower() for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_keeping_a_named_thing_stays(model):
    steps = _steps(model, "user: The courier left a damaged kettle and the shop is sending a new one. "
                   "What do I do with the old one?",
                   "assistant: Keep the damaged kettle in its box until the courier collects it. "
                   "Keep it away from the sink so the box stays dry.")
    assert any("damaged kettle" in s.lower() for s in steps), steps
    assert not any("sink" in s.lower() for s in steps), steps
