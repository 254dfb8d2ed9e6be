"""Session 40 (dec40): decision rules narrowed and added (docs/summary-eval.md,
"Session 40: decisions (dec40)")."""

import pytest

from memlane.index.cues import _Reader
from memlane.testing import offline_summary

_WAYS = ["shipped", None]

# a reminder, a need or a to-do: no second decision beside one
_TO_DO = ["Don't forget, we're out of socks for my nephew.",
          "remember to bring the extension lead for the urn.",
          "we need to get more bin bags from the cash and carry.",
          "I have to call the caretaker about the boiler on Monday.",
          "also we still need to buy paper cups for the teas.",
          "you have to pick up the spare keys from the office.",
          "do not forget the float for the cake stall.",
          "need to grab the raffle tickets from the printers."]
# a second choice: still one
_CHOICE = ["no more raffles until the licence is renewed.",
           "keep the old trestle tables out of the main room.",
           "the cake stall goes to the side door.",
           "we sell the old canoe trailer to the rowing club."]


@pytest.mark.parametrize("text,to_do", [(t, True) for t in _TO_DO] + [(t, False) for t in _CHOICE])
def test_a_to_do_is_told_from_a_choice(text, to_do):
    assert _Reader.a_to_do(text) is to_do


def _hall(said: str) -> list[str]:
    return ["Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
            "Tom: The treasurer says the accounts can take both if we are careful.",
            "Priya: Let's move the jumble sale to the church hall.",
            f"Tom: {said}"]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", _TO_DO[:4])
def test_a_to_do_with_and_beside_a_decision_is_no_decision(said, model):
    summary, _ = offline_summary(*_hall(f"And {said[:1].lower()}{said[1:]}"), model=model)
    key = max(said.rstrip(".").split(), key=len).lower()
    assert not any(key in d.lower() for d in summary.decisions), summary.decisions
    assert any("jumble sale" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", ["remember to bring the extension lead for the urn",
                                  "we need to get more bin bags from the cash and carry"])
def test_a_to_do_after_a_comma_and_is_no_second_decision(said, model):
    summary, _ = offline_summary(
        "Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
        "Tom: The treasurer says the accounts can take both if we are careful.",
        f"Priya: Let's move the jumble sale to the church hall, and {said}.",
        model=model)
    key = max(said.split(), key=len).lower()
    assert not any(key in d.lower() and "jumble" not in d.lower() for d in summary.decisions), \
        summary.decisions


# a figure of a thing quoted (a price, a date, a count): a description, no decision
_QUOTED = ["A new ball valve is about £25.", "Place cards are £2.20 each.",
           "The order deadline for the waistcoats is 3 May.", "The minibus hire comes to 340 for the weekend."]
# a choice that names a figure: still one
_CHOSEN = ["We keep tickets at £6 for the autumn season.", "Let's cap the jumble sale at 40 tables.",
           "Tickets stay at £6 for the autumn season."]


@pytest.mark.parametrize("text,quoted", [(t, True) for t in _QUOTED] + [(t, False) for t in _CHOSEN])
def test_a_quoted_figure_is_told_from_a_choice(text, quoted):
    assert (_Reader._A_FIGURE_QUOTED.match(text) is not None) is quoted


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("said", _QUOTED)
def test_a_quoted_figure_is_no_decision(said, model):
    summary, _ = offline_summary(
        "Priya: The committee has to settle the spring plans tonight, the hall is booked till nine.",
        "Tom: What did the suppliers say?",
        f"Priya: {said}",
        "Tom: Fine, let's move the jumble sale to the church hall.",
        model=model)
    key = said.rstrip(".")
    assert not any(key in d for d in summary.decisions), summary.decisions
    assert any("jumble sale" in d for d in summary.decisions), summary.decisions
