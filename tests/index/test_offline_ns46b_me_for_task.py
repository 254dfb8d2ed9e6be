"""Session 46 (ns46b): among people, "Me" answering "who's doing X?" takes the task on: the
answerer's step, said in the question, both ways the offline backend runs (``_Reader.me_for_task``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_me_answering_who_is_doing_a_task_is_the_answerers_step(model):
    summary, _ = offline_summary(
        "Carys: The allotment committee meets on the 9th and the minutes from last time are still missing.",
        "Dafydd: We agreed the new water butts and the compost rota, that much I remember.",
        "Carys: Who's bringing the water butts back from the depot on Friday?",
        "Dafydd: Me, with the trailer.",
        model=model)
    assert "Dafydd: Bring the water butts back from the depot on Friday." in summary.action_items, summary.action_items


@pytest.mark.parametrize("model", WAYS)
def test_who_is_doing_it_names_no_task(model):
    summary, _ = offline_summary(
        "Carys: The new shed arrives flat-packed next week and the old one is full of rusty tools.",
        "Dafydd: The base is already laid by the gate, so it can go straight on there.",
        "Carys: Who's putting it up by the gate on Saturday?",
        "Dafydd: Me and my brother, if it has been delivered by then.",
        model=model)
    assert not any(s.startswith("Dafydd: Put") for s in summary.action_items), summary.action_items
