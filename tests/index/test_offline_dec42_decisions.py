"""Session 42 (dec42), decisions (docs/summary-eval.md, "Session 42: decisions (dec42)"): agreement
in other words ("I like that.", "I'd back that.", "All right.", "Then that's the offer.") decides
the proposal it answers; a choice that says what is chosen is written alone."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("agreement", ["I like that.", "I'd back that.", "Then that's the plan."])
def test_agreement_in_other_words_decides_the_proposal_before_it(model, agreement):
    summary, _ = offline_summary(
        "Ines: The allotment shed leaks again and the felt is ten years old.",
        "Bram: Patching it every spring costs us a weekend each time.",
        "Ines: Corrugated roof over the felt in May, fixed with the screws we have left.",
        f"Bram: {agreement} The timber merchant on Mill Lane delivers on Saturdays.",
        model=model)
    assert any("Corrugated roof over the felt" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_liked_remark_with_nothing_proposed_decides_nothing(model):
    # the turn agreed with holds a question: what it proposes is the question, not read here
    summary, _ = offline_summary(
        "Ines: The allotment shed leaks again and the felt is ten years old.",
        "Bram: Could we ask the committee for the roof money? Sheds near the gate all look shabby anyway.",
        "Ines: I like that.",
        model=model)
    assert not any("shabby" in d for d in summary.decisions), summary.decisions


_KIT = ("Ines: The club needs a new kit supplier before September.",
        "Bram: Does anyone make junior sizes?",
        "Ines: Joma do, down to age six, and Errea only from ten.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_saying_what_is_chosen_is_written_alone(model):
    summary, _ = offline_summary(*_KIT, "Bram: Joma then, with the club crest embroidered on the chest.", model=model)
    assert "Joma, with the club crest embroidered on the chest." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_among_options_keeps_them(model):
    summary, _ = offline_summary(
        "Ruth: Oak or walnut for the library shelves?",
        "Dev: Walnut is nearly twice the price.",
        "Ruth: Oak then, with the spring delivery from the Hexham yard.", model=model)
    assert any(d.startswith("Oak, with the spring delivery from the Hexham yard — Oak or walnut")
               for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_of_one_word_keeps_what_it_settles(model):
    summary, _ = offline_summary(*_KIT, "Bram: Joma then.", model=model)
    assert any(d.startswith("Joma — ") for d in summary.decisions), summary.decisions
