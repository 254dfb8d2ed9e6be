"""Session 44 (rn44): a decision that goes on after a comma in a clause with a subject of its own
says its reason there ("Let's go with UV, the barley straw did nothing last year."): the clause is
the rationale and the decision what comes before it, both ways the offline backend runs. Not
a clause that only names what was meant, not the main clause after a condition, not the clause
of a step (``_Reader.reason_aside``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
OPENING = ("Maya: The bake sale needs a drink on the table.", "Tom: Lemonade or tea?")


def _summary(model, said):
    summary, _ = offline_summary(*OPENING, said, "Tom: Fine.", model=model)
    return summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("case", [
    ("Maya: We'll keep the lemonade in the big jugs, the tea urn broke at the fete last summer.",
     "The tea urn broke at the fete last summer."),
    ("Maya: We'll keep the lemonade in the big jugs, the kids on the tombola stall loved it last year.",
     "The kids on the tombola stall loved it last year.")])
def test_the_clause_after_the_decision_is_its_reason(model, case):
    said, reason = case
    summary = _summary(model, said)
    assert reason in summary.rationale
    assert "Keep the lemonade in the big jugs." in summary.decisions


@pytest.mark.parametrize("model", WAYS)
def test_a_clause_naming_what_was_meant_is_no_reason(model):
    summary = _summary(model, "Maya: We'll keep the lemonade in the big jugs, the green jug from the church hall.")
    assert not summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_after_a_condition_the_last_clause_is_no_reason(model):
    summary = _summary(model, "Maya: If the urn is mended by Friday we'll keep the lemonade in the big jugs, "
                              "the tea urn broke at the fete last summer.")
    assert not summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_the_clause_of_a_step_is_no_reason(model):
    summary = _summary(model, "Maya: Lemonade, we'll see. I'll ask Fergus about the big jugs, he runs the church kitchen rota.")
    assert not summary.rationale
