"""Session 41 (dec41): a choice named short written with the name in full (docs/summary-eval.md,
"Session 41: choices named in full (dec41)")."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_terse_choice_is_the_option_named_in_full(model):
    summary, _ = offline_summary(
        "Nina: I need a cargo bike for the school run, it's between the Urban Arrow Family and the Tern GSD.",
        "Ali: The Tern GSD folds its handlebars and fits a hallway; the Urban Arrow needs a shed.",
        "Nina: The Tern, then.",
        model=model)
    assert any("Tern GSD" in d for d in summary.decisions), summary.decisions
    assert not any(" — " in d for d in summary.decisions), summary.decisions
    assert not any("Tern" in x for x in (*summary.rationale, *summary.next_steps, *summary.open_questions)), summary


@pytest.mark.parametrize("model", _WAYS)
def test_a_decision_naming_a_thing_short_names_it_in_full(model):
    summary, _ = offline_summary(
        "Nina: The hire company offered a Vauxhall Corsa or a Skoda Octavia Estate for the week in Wales.",
        "Ali: The estate takes the bikes inside, the small one needs the rack.",
        "Nina: We'll take the Octavia.",
        model=model)
    assert any("the Skoda Octavia Estate" in d and not d.startswith("The hire")
               for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_short_name_several_names_hold_stays_short(model):
    summary, _ = offline_summary(
        "Nina: I need a cargo bike for the school run, it's between the Urban Arrow Family and the Urban Arrow Tender.",
        "Ali: The Family has the rain cover, the Tender a flat bed.",
        "Nina: The Urban Arrow, then.",
        model=model)
    assert summary.decisions, summary
    assert not any("Family" in d.split(" — ")[0] or "Tender" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_word_opening_a_terse_choice_is_not_a_short_name(model):
    # "Museum" opening the sentence may be the common noun: the rule takes names only
    summary, _ = offline_summary(
        "Nina: Saturday with the kids: the Science Museum, or a walk by the river?",
        "Ali: Both are free.",
        "Nina: Museum, then.",
        model=model)
    assert summary.decisions, summary
    assert not any("Science" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_name_qualifying_a_thing_is_not_taken_for_a_longer_name(model):
    # "the Harbour ferry" is the ferry of a place, not the "Harbour Hotel" named after it
    summary, _ = offline_summary(
        "Nina: Should we get the Harbour ferry across or drive round by the bridge?",
        "Ali: The ferry takes twenty minutes and the Harbour Hotel has a car park by the slipway.",
        "Nina: Let's take the Harbour ferry on Saturday.",
        model=model)
    assert any("ferry" in d for d in summary.decisions), summary.decisions
    assert not any("Harbour Hotel" in d for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_question_put_to_someone_by_name_is_no_decision(model):
    summary, _ = offline_summary(
        "Pia: gig at the Bell next friday. 3 sets. our PA or the pub's?",
        "Tom: ours, theirs hums",
        "Ravi: fine but bring the small desk not the big one",
        "Tom: ok small desk",
        "Pia: ok. Tom are you driving the van or are we getting a taxi",
        "Tom: driving",
        model=model)
    assert any("desk" in d.lower() for d in summary.decisions), summary.decisions
    assert not any(d.startswith("Tom are you") for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_request_to_someone_by_name_is_no_decision(model):
    summary, _ = offline_summary(
        "Pia: debrief from the quiz night. we ran out of answer sheets in round 3",
        "Tom: the box in the cupboard was half empty",
        "Pia: right. so every quiz gets a full box of sheets checked the day before from now on",
        "Ravi: the mic also cut out twice",
        "Tom: the receiver is old, a new one is 300 and the committee would have to agree",
        "Pia: lets not decide that tonight. Tom can you get a quote and find out who on the committee we ask",
        "Tom: yep",
        model=model)
    assert any("sheets" in d for d in summary.decisions), summary.decisions
    assert not any(d.startswith("Tom can you") for d in summary.decisions), summary.decisions
