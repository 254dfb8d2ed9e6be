"""Session 13's candidate rules checked on heldout10 (docs/summary-eval.md, "Session 13:
rules checked on heldout10"): the one kept, on a small conversation written for these tests."""

from memlane.index.offline import OfflineIntelligence
from memlane.testing import turn_messages


def _summary(*turns: str):
    """Turns as ``Speaker: text``; ``user`` / ``assistant`` or a participant's name."""
    return OfflineIntelligence().summarize("s", turn_messages(turns))[0]


def _steps(s) -> tuple[str, ...]:
    return (*s.next_steps, *s.action_items)


def test_ill_a_comma_and_b_is_two_steps_when_each_half_opens_with_a_verb():
    s = _summary(
        "Rhona: The float for Saturday is still not sorted.",
        "Callum: I'll book the trailer from Harlow Hire, and ask Dev for the generator.",
        "Rhona: Great, thanks.",
    )
    steps = _steps(s)
    assert "Callum: I'll book the trailer from Harlow Hire." in steps
    assert "Callum: Ask Dev for the generator." in steps
    assert len(steps) == 2


def test_a_second_half_with_no_verb_leaves_the_commitment_whole():
    s = _summary(
        "Rhona: The float for Saturday is still not sorted.",
        "Callum: I'll book the trailer from Harlow Hire, and it should be fine.",
        "Rhona: Great, thanks.",
    )
    assert _steps(s) == ("Callum: I'll book the trailer from Harlow Hire, and it should be fine.",)
