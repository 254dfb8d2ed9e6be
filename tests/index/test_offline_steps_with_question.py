"""A participant's step that only says they will find out ("I'll look into it", "I'll email
them", "I'll check the plan") is written with the question it answers, and as said where no
question before asks about it; both ways the offline backend runs. One test shape for the
classes of session 39 (ns39b: looking into it) and session 40 (ns40: reaching "them", looking
after a guessed answer, checking the thing the question names): docs/summary-eval.md, "Session
39: heldout35's next steps (ns39b)" and "Session 40: next steps (ns40)".

Folded from ``test_offline_ns39b_steps.py`` and ``test_offline_ns40_steps.py`` (session 41),
every case kept."""

import pytest

from memlane.bench.summaries.run import scored_steps
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_HALL = "Ana: Does the church hall insurance cover a bouncy castle?"
_SCOUTS = "Ana: Does the Scout Association insurance still cover the climbing wall?"
_TARIFF = ("Lotte: Are we still on the fixed tariff with Corona Energy?",
           "Mick: Ends in June I think, the contract's in the blue folder")
_PLAN = "Owen: Should we add auto-assign round robin for the team? Not sure it's on our GitHub plan"


def _case(turns: tuple[str, ...], head: str, question: str) -> object:
    """A case named by its last turn, which says the step."""
    return pytest.param(turns, head, question, id=turns[-1].split(": ", 1)[1])


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("turns", "head", "question"), [
    # ns39b: looking into it, right after the question or past a turn that does not know
    *[_case((_HALL, f"Tom: {said}"), "Tom: ", "Does the church hall insurance cover a bouncy castle?")
      for said in ["I'll look into it", "I'll check that tomorrow", "I'll follow up on it this week"]],
    _case(("Ana: Do we know whether the brewery would sponsor the quiz night?",
           "Raj: No idea. Their marketing person left in the summer", "Ana: I'll look into it"),
          "Ana: I'll look into it — ", "Do we know whether the brewery would sponsor the quiz night?"),
    # ns40: reaching "them", also past not knowing and a remark in the same turn
    *[_case((_SCOUTS, f"Tom: {said}"), "Tom: ", "Does the Scout Association insurance still cover the climbing wall?")
      for said in ["I'll email them, membership number AGB-77120", "I'll write to them tomorrow",
                   "I'll ring them on Monday.", "I'll contact them"]],
    _case((_SCOUTS, "Tom: Don't know. The policy says 'supervised activities', whatever that means. I'll email them"),
          "Tom: I'll email them", "Does the Scout Association insurance still cover the climbing wall?"),
    # ns40: looking after a guessed answer
    *[_case((*_TARIFF, f"Lotte: {said}"), "Lotte: I'll ", "Are we still on the fixed tariff with Corona Energy?")
      for said in ["I'll look tonight", "I'll check tomorrow", "I'll have a look this evening"]],
    # ns40: checking the thing the asking turn names
    *[_case((_PLAN, f"Rui: {said}"), "Rui: I'll ", "Should we add auto-assign round robin for the team?")
      for said in ["I'll check the plan", "I'll look at the plan tonight", "I'll check our plan."]],
])
def test_finding_out_after_a_question_is_written_with_the_question_it_answers(model, turns, head, question):
    steps = scored_steps(offline_summary(*turns, model=model)[0])
    assert any(s.startswith(head) and s.endswith(f"— {question}") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("turns", "head"), [
    # ns39b: looking into it after a statement
    (("Ana: The boiler in the hall keeps cutting out in the evenings.", "Tom: I'll look into it tomorrow"), "Tom: "),
    # ns40: reaching them after no question, or with what is asked of them
    (("Ana: The Scout Association sent the renewal pack this morning.", "Tom: I'll ring them tomorrow"), "Tom: "),
    ((_SCOUTS, "Tom: I'll ask them about the harness checks and the instructor rota"), "Tom: "),
    # ns40: looking after a statement
    (("Mick: The contract with Corona Energy is in the blue folder.", "Lotte: I'll look tonight"), ""),
    # ns40: checking a thing the turn before does not ask about
    ((_PLAN, "Rui: I'll check the invoice"), "Rui: I'll check the "),
    (("Owen: The GitHub plan renews in March, not sure it has auto-assign.", "Rui: I'll check the plan"),
     "Rui: I'll check the "),
])
def test_finding_out_after_no_question_about_it_is_written_as_said(model, turns, head):
    """``head`` "": the case asks only that no step is written with a question."""
    steps = scored_steps(offline_summary(*turns, model=model)[0])
    assert not head or any(s.startswith(head) for s in steps), steps
    assert not any("—" in s for s in steps), steps
