"""Session 50 (oq50), open questions (docs/summary-eval.md, "Session 50: open questions counted
over every set (oq50)"): an open question is written without the speaker's intensifier ("even",
"really", "actually", "ever"), which says how they feel about the question, not what it asks:
"I don't know whether the scout hall even has a music licence." leaves "Whether the scout hall
has a music licence?". The adjective stays ("break even")."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPEN = ("Wren: For the barn dance in March we've got the band and the caller booked.",
         "Osei: Great, tickets at £8 like last year then.")


@pytest.mark.parametrize("model", _WAYS)
def test_an_intensifier_is_not_written(model):
    summary, _ = offline_summary(
        *_OPEN, "Wren: I don't know whether the scout hall even has a music licence.", model=model)
    assert any("music licence" in q for q in summary.open_questions), summary.open_questions
    assert not any(" even " in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_break_even_stays(model):
    summary, _ = offline_summary(
        *_OPEN, "Wren: I don't know whether we'd break even at £8 with the band's new fee.", model=model)
    assert any("break even" in q for q in summary.open_questions), summary.open_questions
