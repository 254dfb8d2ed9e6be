"""Session 39 (dec39b): a put-off said as what we do is no decision (docs/summary-eval.md,
"Session 39: heldout35's decisions (dec39b)")."""

import pytest

from memlane.index.cues import _TOLD_NOT_CHOSEN
from memlane.testing import offline_summary

_WAYS = ["shipped", None]

# a put-off said as what we do, after an agreement at most, and a word it must not leave in a decision
_PUT_OFFS = [
    ("Then we talk again.", "talk again"),
    ("Fine by me. We can look again in the autumn", "look again"),
    ("Let's all think about it before the AGM.", "think about it"),
    ("Let's pick this up at the next committee meeting, there's no hurry", "pick this up"),
    ("Right. Nothing to decide till we hear from the council", "nothing to decide"),
]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("case", _PUT_OFFS)
def test_a_put_off_said_as_what_we_do_is_no_decision(case, model):
    said, words = case
    summary, _ = offline_summary(
        "Marta: The allotment society wants to put up a polytunnel on the spare plot by the gate.",
        "Dev: A 6 metre one is about £900 and we have £600 in the account.",
        "Marta: We could ask the parish for the rest.",
        f"Dev: {said}",
        "Marta: OK.",
        model=model)
    assert not any(words in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_a_choice_before_a_put_off_stays_a_decision(model):
    summary, _ = offline_summary(
        "Marta: The allotment society wants to put up a polytunnel on the spare plot by the gate.",
        "Dev: A 6 metre one is about £900, the 4 metre one £550.",
        "Marta: Let's buy the 4 metre polytunnel from Haxnicks, then we look again next year.",
        "Dev: Fine by me.",
        model=model)
    assert any("polytunnel" in d.lower() for d in summary.decisions), summary.decisions



# an objection opened by "Wait" after a question, and a word it must not leave in a decision
_WAIT = [
    ("Wait, the seed orders.", "seed orders"),
    ("Wait, society rules say the plot holder pays if there's a dispute.", "society rules"),
    ("Wait, the council lease says no permanent structures without permission.", "council lease"),
]


@pytest.mark.parametrize("model", _WAYS)
@pytest.mark.parametrize("case", _WAIT)
def test_an_objection_opened_by_wait_is_no_decision(case, model):
    said, words = case
    summary, _ = offline_summary(
        "Marta: The allotment society wants to put up a polytunnel on the spare plot by the gate.",
        "Dev: Should we buy the 4 metre one from Haxnicks?",
        f"Marta: {said}",
        "Dev: OK.",
        model=model)
    assert not any(words in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("sentence, tells", [
    ("Wait, the migration for the audit log table isn't in yet.", True),
    ("Wait for that before we change anything", True),
    ("My aunt's abroad until the 20th and won't see the post.", True),
    ("My daughter says it looks shop-bought.", True),
    ("It saves an hour of Jade's wages every day.", True),
    ("It finishes early.", True),
    ("Wait until Monday to send the invoices.", False),
    ("It goes to the vote on Thursday.", False),
    ("It stays at £5.", False),
    ("My round, I'll get the drinks.", False),
])
def test_what_tells_rather_than_chooses(sentence, tells):
    assert bool(_TOLD_NOT_CHOSEN.match(sentence)) is tells
