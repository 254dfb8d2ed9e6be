"""Session 52 (ns52): among people, a request "can you …?" that no reader placed (its name with no
comma, or no name) and that the next speaker takes up ("will do when i get home", "yeah, I'll have
them in by Wednesday") is that speaker's next step in the request's words, both ways the offline
backend runs; not one whose "it" says nothing more (``_Reader.request_taken_up``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _steps(model, *turns):
    summary, _ = offline_summary(*turns, model=model)
    return list(summary.next_steps) + list(summary.action_items)


@pytest.mark.parametrize("model", WAYS)
def test_a_request_taken_up_is_the_answerer_s_step(model):
    steps = _steps(model, "Freya: The green velvet sofa is on sale this week.", "Idris: fine, the green one.",
                   "Freya: they do it in green, i checked. I'll order it tonight. can you measure the hallway door "
                   "frame? last time the sofa didn't fit through", "Idris: will do when i get home")
    assert "Idris: Measure the hallway door frame." in steps, steps


@pytest.mark.parametrize("model", WAYS)
def test_a_request_named_without_a_comma(model):
    steps = _steps(model, "Nadia: go on then, region split, and Front does the tagging. Priyanka can you set the "
                   "assignment rules up? you're the one who actually knows Front",
                   "Priyanka: yeah, I'll have them in by Wednesday", "Owen: what about the backlog though")
    assert "Priyanka: Set the assignment rules up." in steps, steps


@pytest.mark.parametrize("model", WAYS)
def test_it_with_nothing_more_is_no_step(model):
    steps = _steps(model, "Nadia: go on then, we hire the scoring box. Priyanka can you pick it up Friday? it's "
                   "on your way home", "Priyanka: yeah, I'll check they're open late", "Owen: what about the cost")
    assert not any(s.startswith("Priyanka: Pick it up") for s in steps), steps
