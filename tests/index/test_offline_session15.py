"""Session 15's rules on open questions and next steps (docs/summary-eval.md, "Session 15:
next steps and open questions"), each on a small conversation written for these tests: what
a participant says nobody knows yet is the open question it leaves; a question its answer
leaves open further on than its first sentence stays open; a step that commits to a state, a
wait or nothing is no step. Each test checks both ways the backend runs (the patterns alone,
and with the shipped sentence model) and that small talk stays out."""

import pytest

from memlane.bench.summaries.run import scored_steps
from memlane.bench.summaries.score import strip_owner
from memlane.testing import checked_summary as _summary

MODELS = pytest.mark.parametrize("model", [None, "shipped"], ids=["patterns", "default"])


@MODELS
def test_what_nobody_knows_yet_is_the_question_it_leaves(model):
    s = _summary(
        model,
        "Wiebke: The council wants the allotment rents up by a third from April.",
        "Jonty: Ouch. I don't even know whether the water charge is in the rent or on top.",
        "Wiebke: Still not clear to me who pays for the new fence either, us or the council.",
        "Jonty: Fine, thanks.",
    )
    # "Whether the water charge is …?" written as the question since session 53 (oq53)
    assert "Is the water charge in the rent or on top?" in s.open_questions
    assert "Who pays for the new fence either, us or the council?" in s.open_questions


@MODELS
def test_a_do_we_know_question_answered_yes_is_not_left_open(model):
    s = _summary(
        model,
        "Wiebke: Do we know if the skip firm takes garden waste?",
        "Jonty: Yes, they said so on the phone, green waste goes in the same skip.",
    )
    assert not any("skip firm" in q for q in s.open_questions)


@MODELS
def test_an_unknown_after_a_question_nobody_left_open_is_open(model):
    # "Who'd film it?" is not answered with a non-answer up front, so only the
    # second speaker's own unknown says what is open
    s = _summary(
        model,
        "Idris: Random thought: should we sell the seedlings at the spring fair?",
        "Sofia: Also, we still don't know whether the fair committee allows plant stalls.",
        "Idris: Fair enough.",
    )
    assert "Whether the fair committee allows plant stalls?" in s.open_questions


@MODELS
def test_a_question_the_answer_leaves_open_further_on_stays_open(model):
    s = _summary(
        model,
        "user: I'm moving my broadband to the new flat on Lister Road next month.",
        "assistant: I've booked the move for 3 May; the router comes with you.",
        "user: Will my discount carry over to the new contract?",
        "assistant: Usually a move keeps the current price. The retention team sets that, "
        "so please check with them before the 3rd.",
        "user: ok, thanks",
    )
    assert "Will my discount carry over to the new contract?" in s.open_questions


@MODELS
def test_a_question_the_asker_says_they_do_not_know_stays_open(model):
    s = _summary(
        model,
        "Gerda: And the raffle, do we need a licence if the prizes are over 50 pounds? I genuinely don't know.",
        "Mo: Me neither.",
        "Gerda: ok. Lovely scones last week btw",
    )
    assert any("licence" in q for q in s.open_questions)


@MODELS
def test_a_question_answered_plainly_is_not_left_open(model):
    s = _summary(
        model,
        "Gerda: Is the hall free on the 14th for the raffle?",
        "Mo: It is, I booked it this morning from 2 to 5.",
        "Gerda: Lovely.",
    )
    assert not any("hall free" in q for q in s.open_questions)


@MODELS
def test_a_commitment_to_a_state_or_a_wait_is_no_step(model):
    s = _summary(
        model,
        "Kasia: Who can close up the studio on Friday night?",
        "Piotr: Not me, I'll forget.",
        "Ola: I'll be asleep by then, sorry.",
        "Kasia: I'm on the front desk all day, can't do it.",
        "Piotr: Fine, I'll lock up the studio at nine on Friday and drop the keys with Ola.",
    )
    steps = [strip_owner(x) for x in scored_steps(s)]
    assert not any("forget" in x or "asleep" in x or "can't do it" in x for x in steps)
    assert any("lock up the studio" in x for x in steps)


@MODELS
def test_a_wait_with_a_task_after_it_stays_a_step(model):
    s = _summary(
        model,
        "user: Should I put the bonus into my pension?",
        "assistant: If your employer offers bonus sacrifice, that saves national insurance too.",
        "user: No idea if mine does. I'll wait until the bonus is confirmed and ask payroll then.",
    )
    assert any("ask payroll" in x for x in scored_steps(s))



@MODELS
def test_a_choice_to_make_that_is_then_made_is_not_left_open(model):
    s = _summary(
        model,
        "Ines: We need to decide on a venue for the offsite in June.",
        "Tariq: The boathouse in Cascais is free that week and fits forty people.",
        "Ines: Agreed, we decided to book the boathouse in Cascais.",
    )
    assert any("boathouse" in d for d in s.decisions)
    assert not any("venue" in q for q in s.open_questions)
    # still to decide: the choice stays open, whatever else is decided
    s = _summary(
        model,
        "Ines: We still need to decide on a venue for the offsite in June.",
        "Tariq: The boathouse in Cascais is free that week.",
        "Ines: Agreed, we decided to book the caterer from last year.",
    )
    assert any("venue" in q for q in s.open_questions)
