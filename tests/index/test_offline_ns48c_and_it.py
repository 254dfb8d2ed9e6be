"""Session 48 (ns48c), next steps (docs/summary-eval.md, "Session 48: next steps and open
questions over heldout43 and heldout44 (ns48c)"): "I'll draft the poster with the print shop,
and send it round by Monday" is one step: the second half's "it" is the first half's work, so
the sentence is not cut at ", and" into a step that says nothing on its own ("Send it round by
Monday."). Two halves that each name their object are still two steps."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPEN = ("Rosa: The allotment open day is on the 9th and nobody outside the site knows about it.",
         "Imran: A poster in the library and the café would reach most of the village.",
         "Rosa: Poster it is, A3, with the map of the plots.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_second_half_on_it_stays_with_the_first(model):
    summary, _ = offline_summary(
        *_OPEN, "Imran: I'll draft the poster with the print shop, full colour, and send it round by Monday.",
        model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert not any(s.endswith("Send it round by Monday.") for s in steps), steps
    assert any("draft the poster" in s.lower() and "send it round" in s for s in steps), steps


@pytest.mark.parametrize("model", _WAYS)
def test_two_halves_that_name_their_objects_stay_two(model):
    summary, _ = offline_summary(
        *_OPEN, "Imran: I'll draft the poster with the print shop, and email the parish clerk about the noticeboard.",
        model=model)
    steps = (*summary.next_steps, *summary.action_items)
    assert any(s.startswith("Imran: Email the parish clerk") for s in steps), steps
