"""Session 45 (dec45), decisions (docs/summary-eval.md, "Session 45: heldout40's decisions read
(dec45)"): a sentence that only tells what happened is no decision."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]

_FETE = "Rhian: The summer fete is on the 14th and the field's booked."


@pytest.mark.parametrize("model", _WAYS)
def test_a_story_told_after_a_decision_is_no_decision(model):
    summary, _ = offline_summary(_FETE, "Dafydd: Agreed. And let's run a cake stall by the church door. "
                                 "Gwen did one on her own last year.",
                                 "Rhian: Gwen would love that.", "Dafydd: I'll ask her on Sunday.", model=model)
    assert "Run a cake stall by the church door." in summary.decisions, summary.decisions
    assert not any("Gwen did" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_decision_reported_in_the_past_stays_a_decision(model):
    summary, _ = offline_summary("Rhian: The choir's spring concert needs a venue.",
                                 "Dafydd: Last month we agreed to hold it in the chapel on Bridge Street.",
                                 "Rhian: Yes. I'll book the chapel.", model=model)
    assert any("chapel on Bridge Street" in d for d in summary.decisions), summary.decisions


_BOWLS = ("Ffion: The bowls club's winter league needs a night at the leisure centre.",
          "Gareth: Tuesdays and Thursdays are both free from October.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_proposal_asked_before_a_statement_and_echoed_is_the_decision(model):
    summary, _ = offline_summary(*_BOWLS, "Ffion: So Thursday evenings from October? The centre is cheaper after six.",
                                 "Gareth: Thursday evenings, yes. I'll tell the team captains.", model=model)
    assert "Thursday evenings from October." in summary.decisions, summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_about_what_others_do_echoed_decides_nothing(model):
    summary, _ = offline_summary(*_BOWLS, "Ffion: Do the members bring their own woods? The club set is worn out.",
                                 "Gareth: Their own woods, mostly. I'll tell the team captains.", model=model)
    assert not any("woods" in d.lower() for d in summary.decisions), summary.decisions


_SHED = ("Nell: The allotment shed roof leaks again.",
         "Tam: Felt or corrugated sheets would both do. Felt is cheaper, sheets last longer.")


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_said_with_the_speakers_step_is_a_decision_and_the_step_stays(model):
    summary, _ = offline_summary(*_SHED, "Nell: OK, corrugated sheets for the roof, I'll order them from the "
                                 "builders' merchant tomorrow.", "Tam: Good.", model=model)
    assert "Corrugated sheets for the roof." in summary.decisions, summary.decisions
    assert any("builders' merchant" in step for step in summary.action_items), summary.action_items


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_naming_nothing_said_before_with_a_step_decides_nothing(model):
    summary, _ = offline_summary(*_SHED, "Nell: OK, bacon rolls at the work party, I'll bring them on Saturday.",
                                 "Tam: Good.", model=model)
    assert not any("bacon" in d.lower() for d in summary.decisions), summary.decisions
