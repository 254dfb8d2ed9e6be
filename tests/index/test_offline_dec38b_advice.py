"""Session 38 (dec38b): the user's step taken from the assistant's advice is the sentence the
user's words take up ("good idea, I'll do the pencil marks tonight" takes up "… mark the ends
of the crack in pencil …"), not the advice's last statement (docs/summary-eval.md, "Session 38:
dec38b, ...")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]

# (the advice's directive, after a colon or alone; the user's words taking it up; a word of it)
_TAKEN = [("label each fuse in the box with masking tape and note which room goes dead",
           "I'll do the fuse labels tonight", "fuse"),
          ("soak the seeds overnight in lukewarm water before sowing them in trays",
           "I'll soak the seeds tomorrow", "soak"),
          ("photograph the damp patch with a tape measure beside it every week",
           "I'll start the damp photos on Sunday", "damp")]
# a statement the advice ends on, which tells nothing to do
_STATEMENTS = ["Usually an inspector visits within a fortnight and writes up what they find.",
               "Most people find it takes a few weeks to notice any difference at all."]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=6, deadline=None)
@given(taken=st.sampled_from(_TAKEN), statement=st.sampled_from(_STATEMENTS),
       colon=st.booleans())
def test_the_step_is_the_advice_the_users_words_take_up(model, taken, statement, colon):
    directive, words, word = taken
    advice = (f"You could start on it now: {directive}." if colon
              else f"{directive[:1].upper()}{directive[1:]}.")
    summary, _ = offline_summary(
        "user: the house has a problem I keep putting off, what should I do first",
        f"assistant: It is worth a record before anyone visits. {advice} {statement}",
        f"user: good idea, {words}.", model=model)
    steps = [*summary.next_steps, *summary.action_items]
    assert any(word in s.lower() and s.startswith("user: ") for s in steps), steps
    assert not any(statement[:20] in s for s in steps), steps
    if colon:
        assert not any("You could start" in s for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_a_bare_will_do_takes_the_last_directive_as_before(model):
    # the user names nothing: the advice's last statement not opening with a subject, as before
    summary, _ = offline_summary(
        "Ines: Where do the spare chairs go after the fete?",
        "Mo: Stack them in the church hall cupboard. And please note it in the inventory book, the "
        "vicar checks it.",
        "Ines: will do", model=model)
    steps = [*summary.next_steps, *summary.action_items]
    assert any("inventory book" in s for s in steps), steps
