"""Session 52 (ns52): among people, a participant's own "I'll buy / switch / migrate / order / book …"
or "I'll take them to / off …" that a decision reader took is that speaker's next step, both ways the
offline backend runs; a choice said first in the sentence ("… it is, I'll order …") stays a decision
(``_Reader.my_task_decided``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _summary(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return summary, list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_my_buying_is_my_step(model):
    summary, steps = _summary(model, "Odile: The scout fun day needs prizes for the sack race.",
                              "Bram: The pound shop has medals, ten for three pounds.",
                              "Odile: Medals are fine. I'll buy the medals at the pound shop.", "Bram: Great.")
    assert any(s.startswith("Odile: ") and "buy the medals at the pound shop" in s.lower() for s in steps), steps
    assert not any("buy the medals" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_taking_them_somewhere_is_a_step(model):
    _, steps = _summary(model, "Femke: The twins' bikes are too small now.",
                        "Joost: They need fitting properly; I'll take them to the bike shop on Saturday.",
                        "Femke: Good.")
    assert any(s.startswith("Joost: ") and "take them to the bike shop" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_choice_said_first_stays_a_decision(model):
    summary, steps = _summary(model, "Ines: Which novel next month, the Ishiguro or the Tokarczuk?",
                              "Marek: The Tokarczuk it is, I'll order copies from the bookshop.", "Ines: Lovely.")
    assert not any("order copies from the bookshop" in s for s in steps), steps
