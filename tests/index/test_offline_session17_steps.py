"""Session 17's rules on decisions and next steps (docs/summary-eval.md, "Session 17:
decisions and next steps"), each on a small conversation written for these tests. Each test
checks both ways the backend runs (the patterns alone, and with the shipped sentence model)
and that small talk stays out."""

import pytest

from memlane.testing import checked_summary as _summary
from memlane.testing import offline_summary

MODELS = pytest.mark.parametrize("model", [None, "shipped"], ids=["patterns", "default"])


@MODELS
def test_what_we_did_told_as_a_story_is_no_decision(model):
    turns = (
        "Ingrid: The autumn concert is on 9 November and we still have no venue.",
        "Paul: St Mary's quoted 150 pounds for the evening. The Guildhall wants 400 without a piano.",
        "Rhian: The acoustics at St Mary's are lovely, but it only seats 150.",
        "Ingrid: We sold 120 tickets last year. St Mary's, then.",
        "Paul: Great. I'll send the booking form back tomorrow.",
    )
    s = _summary(model, *turns)
    assert not any("tickets" in d for d in s.decisions)
    assert any(d.startswith("St Mary's") for d in s.decisions)
    # still a fact of the conversation: what the team did
    _, extraction = offline_summary(*turns, model=model)
    assert any(f.predicate == "did" and "Sold 120 tickets" in f.object for f in extraction.facts)


def test_what_was_done_accumulates_as_facts():
    # "did" facts are many at once, like "decided": a second story does not supersede the first
    from memlane.config import FactsConfig

    assert {"did", "decided"} <= set(FactsConfig().multi_valued)


@MODELS
def test_a_conclusion_about_the_past_is_no_decision(model):
    s = _summary(
        model,
        "Lena: The stout came out thin again.",
        "Jon: We mashed at 66, but the thermometer was off by two degrees.",
        "Lena: So we really mashed at 64. That explains it.",
        "Jon: Then let's mash at 68 on the calibrated thermometer.",
        "Ola: Sounds good.",
    )
    assert s.decisions == ("Mash at 68 on the calibrated thermometer.",)


@MODELS
def test_a_past_choice_is_still_a_decision(model):
    s = _summary(
        model,
        "Ama: Where are we on the venue for the summer fair?",
        "Kwame: We picked the Mill Lane field for the summer fair last week.",
        "Ama: Good.",
    )
    assert any("Mill Lane field" in d for d in s.decisions)
@MODELS
def test_an_acknowledgement_before_a_request_is_no_owner(model):
    s = _summary(
        model,
        "user: I have a table at Luigi's for Friday at 7, reference LG-2231. Can I move it to Saturday?",
        "assistant: Saturday at 7 is free for a table of four.",
        "user: Great, please move it.",
        "assistant: Done: LG-2231 is now Saturday at 7.",
    )
    assert not any(a.startswith(("Great:", "Great :")) for a in s.action_items)


@MODELS
def test_a_request_to_someone_named_ends_with_one_stop(model):
    s = _summary(
        model,
        "Gloria: 41 Mill Road wants a dropped kerb. Highways raised no objection.",
        "Farid: Fine by me, motion carries.",
        "Gloria: Clerk, please note the condition in the decision letter.",
    )
    assert "Clerk: Note the condition in the decision letter." in s.action_items


@MODELS
def test_a_group_said_elsewhere_does_not_own_what_it_will_feel(model):
    s = _summary(
        model,
        "Marisol: Conversion on the pricing page dropped since we added the fourth tier.",
        "Deepa: I'd test three cards against four, not switch outright. Sales will scream otherwise.",
        "Ben: Fair. And I'll give Sales a heads-up in #sales-ops.",
        "Marisol: Let's run it for two weeks.",
    )
    assert not any(a.startswith("Sales:") for a in s.action_items)
    assert any(a.startswith("Ben: I'll give Sales a heads-up") for a in s.action_items)


@MODELS
def test_someone_named_elsewhere_still_owns_a_task(model):
    s = _summary(
        model,
        "Marisol: We need the pricing test live by Monday. I asked Priya about the flag yesterday.",
        "Deepa: Priya will set up the flag in Optimizely tomorrow.",
        "Ben: Good.",
    )
    assert any(a.startswith("Priya: Set up the flag in Optimizely") for a in s.action_items)


@MODELS
def test_him_or_her_in_a_commitment_is_the_person_named_before(model):
    s = _summary(
        model,
        "Hamish: Field day is on the 14th. We still need the 40m antenna.",
        "Delphine: Is Tomasz coming? He has the only 40m antenna.",
        "Hamish: I'll message him tonight.",
        "Delphine: I'll bring the mast.",
    )
    assert "Hamish: I'll message Tomasz tonight." in s.action_items


@MODELS
def test_a_title_and_name_stands_for_him(model):
    s = _summary(
        model,
        "Tariq: Lost property should go to the school office, not the group.",
        "Rosa: Agreed. Should we run the rules past Mr Lindqvist first?",
        "Tariq: Probably, in case the school has a policy. I'll email him tomorrow morning.",
    )
    assert any(a.startswith("Tariq: I'll email Mr Lindqvist tomorrow morning") for a in s.action_items)


@MODELS
def test_no_person_named_before_leaves_the_pronoun(model):
    # "her GP" is hers, and "Royal Canin Hypoallergenic" or a place names no one
    s = _summary(
        model,
        "Ana: Gran fell again on Sunday, she's fine but shaken. She moved to Glasgow last year.",
        "Ben: The hospital said to get a falls assessment.",
        "Ana: I'll call her GP on Monday.",
        "Ben: And I'll ask her about the rails tonight.",
    )
    assert "Ana: I'll call her GP on Monday." in s.action_items
    assert any(a.startswith("Ben: I'll ask her about the rails") for a in s.action_items)


@MODELS
def test_what_a_story_leads_to_is_still_decided(model):
    s = _summary(
        model,
        "user: I'm working out a mortgage budget.",
        "assistant: Tell me the price of the house and I'll work out the deposit.",
        "user: I finally found a flat for 210,000, so I'll use that number in the budget.",
    )
    assert any("that number" in d for d in s.decisions)


@MODELS
def test_a_connective_before_a_request_is_no_owner(model):
    s = _summary(
        model,
        "user: Write me a cover letter for a barista job.",
        "assistant: Here is a draft cover letter.",
        "user: However, please note that I have never worked in a cafe.",
    )
    assert not any(a.startswith("However:") for a in s.action_items)


@MODELS
def test_the_name_a_request_reaches_not_a_thing_after_with(model):
    s = _summary(
        model,
        "user: I met Alex at a summer festival in Germany but forgot which one. Which could it be?",
        "assistant: It clashes with Rock am Ring most years. Hurricane and Southside are the big June ones. "
        "Ask Alex whether any of these ring a bell.",
        "user: I'll ask him about those festivals.",
    )
    assert "user: I'll ask Alex about those festivals." in s.action_items


@MODELS
def test_a_question_that_asks_for_nothing_is_not_open(model):
    s = _summary(
        model,
        "Dana: Stand-up. I finished the export fix yesterday, today I'm on the billing report.",
        "Ravi: I'm still on the flaky sync test. Do we know why the CI runners ran out of disk?",
        "Dana: Ok, let's see what IT says. Anything else? No? Retro at 2.",
    )
    assert not any("Anything else" in q for q in s.open_questions)
    assert any("CI runners" in q for q in s.open_questions)
