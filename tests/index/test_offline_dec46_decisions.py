"""Session 46 (dec46), decisions (docs/summary-eval.md, "Session 46: heldout41's missed decisions
read (dec46)"): a statement echoed in a few of its words and then "yes" ("Two nets, yes.") is
the decision, in the words of the statement; an echo that holds a subject or a verb, or a
statement that was a question, is not read so."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_POND = ("Gwen: The pond liner tore again over the winter, the frost lifts the edge every year.",
         "Huw: This year a rubber liner, two millimetres thick, with an underlay of old carpet.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_statement_echoed_then_yes_is_the_decision(model):
    summary, _ = offline_summary(*_POND, "Gwen: Rubber liner, yes. I'll measure the pond tonight.", model=model)
    assert any("rubber liner, two millimetres thick" in d for d in summary.decisions), summary.decisions
    assert not any("rubber liner, two millimetres" in r for r in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", _WAYS)
def test_an_echo_with_a_verb_is_not_read_as_taking_it_up(model):
    summary, _ = offline_summary(*_POND, "Gwen: The underlay is thick, yes. I'll measure the pond tonight.",
                                 model=model)
    assert not any("two millimetres" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_echoed_then_yes_is_left_to_the_question_readers(model):
    summary, _ = offline_summary("Gwen: The pond liner tore again over the winter.",
                                 "Huw: Did the frost lift the edge of the liner again?",
                                 "Gwen: The edge, yes. It always goes at the corner by the shed.", model=model)
    assert not any("frost lift the edge" in d for d in summary.decisions), summary.decisions
