"""Session 47's open-question rule (docs/summary-eval.md, "Session 47: heldout42's open questions,
references and entities read (oqr47)"): a question closing a sentence after a statement is the
question alone, on conversations written for these tests, with the patterns alone and with the
shipped sentence model."""

import pytest

from memlane.testing import offline_summary

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_question_after_a_statement_and_a_semicolon_is_the_question_alone(model):
    summary, _ = offline_summary(
        "Ffion: The bake sale is on Saturday in the church hall.",
        "Gareth: I'll bring the trestle tables from the scout hut.",
        "Ffion: The cakes are sorted, but we still need paper plates for the stall; who's buying those?",
        model=model,
    )
    assert "Who's buying those?" in summary.open_questions, summary.open_questions
    assert not any("cakes are sorted" in q for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_a_question_after_a_statement_and_a_comma_is_the_question_alone(model):
    summary, _ = offline_summary(
        "user: The heating app says the thermostat is back online after the router swap.",
        "assistant: Good, it reconnects on its own once the network name matches.",
        "user: The boiler has been fine all week, should I switch on the holiday schedule for August?",
        model=model,
    )
    assert "Should I switch on the holiday schedule for August?" in summary.open_questions, summary.open_questions


@pytest.mark.parametrize("model", MODELS)
def test_a_question_whose_pronoun_stands_for_the_statement_keeps_it(model):
    summary, _ = offline_summary(
        "user: My dad is applying for a disabled parking permit from the council.",
        "assistant: Councils usually ask for proof of a qualifying benefit or a mobility assessment.",
        "user: He gets the higher rate of mobility support, does that make it automatic?",
        model=model,
    )
    whole = "He gets the higher rate of mobility support, does that make it automatic?"
    assert whole in summary.open_questions, summary.open_questions
