"""Session 46 (dec46), decisions (docs/summary-eval.md, "Session 46: heldout41's missed decisions
read (dec46)"): a statement echoed in a few of its words and then "yes" ("Two nets, yes.") is
the decision, in the words of the statement; an echo that holds a subject or a verb, or a
statement that was a question, is not read so. Among people, an agreement then a directive in
words of its own ("Fine, take the pitch by the tea urn.") is the decision; a go-ahead on a
pronoun, an adjective that would agree, or the user's directive to the assistant is not."""

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


_STALL = ("Ffion: The craft fair wants our stall booking by Friday. Last year we had the corner pitch by the door.",
          "Rhys: The corner pitch was draughty, people didn't stop. The pitch by the tea urn is free this year.")


@pytest.mark.parametrize("model", _WAYS)
def test_an_agreement_then_a_directive_in_its_own_words_is_the_decision(model):
    summary, _ = offline_summary(*_STALL, "Ffion: Fine, take the pitch by the tea urn.", model=model)
    assert any("pitch by the tea urn" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_go_ahead_on_a_pronoun_is_no_decision_said(model):
    summary, _ = offline_summary(*_STALL, "Ffion: Yes, send it to the organisers today.", model=model)
    assert not any(d.lower().startswith("send it") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_an_adjective_that_would_agree_is_no_agreement(model):
    summary, _ = offline_summary("Ffion: Did you see the frost on the allotment this morning?",
                                 "Rhys: I did, the leeks were white all over.",
                                 "Ffion: Lovely start to the day anyway.", model=model)
    assert not summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_the_users_agreed_directive_to_the_assistant_is_left_a_request(model):
    summary, _ = offline_summary("user: My router keeps dropping the connection every evening.",
                                 "assistant: A factory reset often clears it; the settings can be restored from a backup.",
                                 "user: Yes, reset the router settings tonight.", model=model)
    assert not any("reset the router settings" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_directive_naming_only_the_speakers_own_words_is_a_request(model):
    summary, _ = offline_summary("Ffion: The corner pitch or the pitch by the tea urn for the craft fair?",
                                 "Rhys: I've seen both, either is fine by me.",
                                 "Ffion: Fine, take the pitch by the tea urn.", model=model)
    assert not any("pitch by the tea urn" in d.lower() for d in summary.decisions), summary.decisions
