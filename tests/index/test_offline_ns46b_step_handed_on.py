"""Session 46 (ns46b): a commitment that hands a second task to someone named ("I'll book the
venue today, and Marek can print the posters this week") is two steps, the second that person's,
both ways the offline backend runs (``_Reader.step_handed_on``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_a_task_handed_on_by_name_is_that_persons_step(model):
    summary, _ = offline_summary(
        "user: Our quiz night needs a venue and some posters, and the school hall is free on the 14th.",
        "assistant: The hall is a good choice: it seats a hundred and has a projector for picture rounds.",
        "user: I'll book the school hall today, and Marek can print the posters for the quiz this week.",
        model=model)
    steps = summary.action_items + summary.next_steps
    assert "Marek: Print the posters for the quiz this week." in steps, steps
    assert any(s.startswith("user: I'll book the school hall today") and "Marek" not in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_the_same_task_handed_to_a_printer_stays_one_step(model):
    summary, _ = offline_summary(
        "Tom: The vending machine needs a new front panel with the health warning on it.",
        "Ben: Agreed, the old one has faded badly in the sun.",
        "Tom: I'll order a new panel for the machine, Printwise can print it in matt vinyl by Friday.",
        model=model)
    steps = summary.action_items + summary.next_steps
    assert not any(s.startswith("Printwise:") for s in steps), steps
