"""Session 40 (dec40b): a terse "<X> it is" written as the thing chosen (docs/summary-eval.md,
"Session 40: short choices (dec40b)")."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said,chosen,key", [
    ("Then single tickets it is.", "Tom: We have always sold a single-ticket entry on the door, five pounds a head.", "door"),
    ("Yeah, polling it is.", "Tom: Better to poll the upload status every minute until done, with a timeout.", "upload"),
    ("ok. 14th it is.", "Tom: I'd go for 14 March, the hall is free all evening.", "march"),
])
def test_it_is_is_written_as_the_thing_chosen(said, chosen, key, model):
    summary, _ = offline_summary(
        "Priya: We need to sort the carol walk before the newsletter goes out.",
        chosen,
        "Ann: The church choir did it on foot last year and nobody minded the cold.",
        f"Priya: {said}",
        model=model)
    assert any(key in d.lower() for d in summary.decisions), summary.decisions
    assert not any(d.lower().startswith(said.lower().split(". ")[-1][:6]) for d in summary.decisions), \
        summary.decisions
    assert not any(d.lower().startswith(("i'd", "we could")) for d in summary.decisions), summary.decisions
    taken = chosen.split(": ", 1)[1].lower()
    assert not any(x.lower().rstrip(".").endswith(taken.rstrip(".")[-20:])
                   for x in (*summary.rationale, *summary.next_steps, *summary.open_questions)), summary


@pytest.mark.parametrize("model", _WAYS)
def test_it_is_naming_nothing_said_before_stays(model):
    summary, _ = offline_summary(
        "Priya: We need to sort the carol walk before the newsletter goes out.",
        "Tom: The hall is free all evening.",
        "Priya: Lanterns it is.",
        model=model)
    assert not any("hall" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model,proposed,said,key", [
    # the sentence model places this proposal as a decision itself: patterns alone here
    (None, "Ann: Can we just move the quiz back to the church hall for now?",
     "Priya: Yes, let's do that now and book the function room properly after.", "church hall"),
    *((m, "Ann: A safer fix is to lock the side gate at dusk: chain it and put the padlock key in the office.",
       "Priya: ok let's do that from the first of March.", "side gate") for m in _WAYS),
])
def test_do_that_is_written_as_what_was_proposed(model, proposed, said, key):
    summary, _ = offline_summary(
        "Priya: The quiz night keeps losing people because the function room is freezing.",
        proposed,
        said,
        model=model)
    assert any(key in d.lower() for d in summary.decisions), summary.decisions
    assert not any(d.lower().startswith(("do that", "let's do that", "yes, let's")) for d in summary.decisions), \
        summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_do_that_with_nothing_proposed_before_is_not_rewritten(model):
    summary, _ = offline_summary(
        "Priya: The quiz night keeps losing people because the function room is freezing.",
        "Ann: The heating engineer came on Tuesday and said the boiler is fine.",
        "Priya: ok let's do that from the first of March.",
        model=model)
    assert not any("boiler" in d.lower() or "engineer" in d.lower() for d in summary.decisions), summary.decisions
