"""Session 57 (oq57), open questions (docs/summary-eval.md, "Session 57: open questions, the fronted
whether-clause (oq57)"): a whether-clause a participant fronts before a comma leaves the question open,
whatever is said after it ("…, nobody can say.", "…, someone should ask the firm.", "…, I'll check …");
a step said after it stays a step; "whether … or not" (what holds either way) and a clause going on in a
participle ("…, controlling for …") leave none."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_OPENING = "Ffion: The allotment open day is on the 14th of June, same field as last year."
_CLOSING = "Ffion: Let's put the plant stall by the gate."


def _summary(line, model):
    summary, _ = offline_summary(_OPENING, line, _CLOSING, model=model)
    return summary


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_nobody_can_answer_is_an_open_question(model):
    summary = _summary("Gareth: Whether the old water butts last another winter, nobody can say.", model)
    assert any("water butts last another winter" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_someone_should_ask_about_is_an_open_question(model):
    summary = _summary(
        "Gareth: Whether the marquee hire covers the trestle tables or we bring our own, someone should ask "
        "the hire firm.", model)
    assert any("marquee hire covers the trestle tables" in q for q in summary.open_questions), \
        summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_before_a_step_is_an_open_question_beside_the_step(model):
    summary = _summary("Gareth: Whether chutney jars sell better than jam, I'll check what the other stalls charged.",
                       model)
    assert any("chutney jars sell better" in q for q in summary.open_questions), summary.open_questions
    assert any("other stalls charged" in x for x in summary.next_steps + summary.action_items), summary


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_or_not_is_no_open_question(model):
    summary = _summary("Gareth: Whether the water board switches the standpipe on or not, we have the rain butts.",
                       model)
    assert not any("standpipe" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
def test_a_fronted_whether_going_on_in_a_participle_is_no_open_question(model):
    summary = _summary(
        "Gareth: whether plot size predicts the yield of the beans, allowing for the soil and the rain", model)
    assert not any("plot size" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("line, words", [
    ("Gareth: How many jars the stall can sell before lunch, I can't guess.", "How many jars the stall can sell"),
    ("Gareth: How we get the marquee up on the slope without the tractor, nobody's worked out.",
     "marquee up on the slope without the tractor"),
])
def test_a_fronted_question_nobody_can_guess_or_has_worked_out_is_an_open_question(model, line, words):
    summary = _summary(line, model)
    assert any(words in q for q in summary.open_questions), summary.open_questions
