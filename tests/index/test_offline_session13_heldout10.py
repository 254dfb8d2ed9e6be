"""Session 13's candidate rules checked on heldout10 (docs/summary-eval.md, "Session 13:
rules checked on heldout10"): of the rules tried and not kept earlier in the session, the two
kept, each on a small conversation written for these tests: "I'll A, and B" is two steps
when each half opens with a verb, and days written short ("Thu") and months written short
beside a number ("Feb 14", "14 Feb") are dates, not names."""

from memlane.bench.summaries.run import scored_entities, scored_steps
from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


def _entities(*turns: str) -> set[str]:
    """The names (not dates, not references) of ``Speaker: text`` turns."""
    return set(scored_entities(offline_summary(*turns)[1]))


def test_ill_a_comma_and_b_is_two_steps_when_each_half_opens_with_a_verb():
    s = _summary(
        "Rhona: The float for Saturday is still not sorted.",
        "Callum: I'll book the trailer from Harlow Hire, and ask Dev for the generator.",
        "Rhona: Great, thanks.",
    )
    steps = scored_steps(s)
    assert "Callum: I'll book the trailer from Harlow Hire." in steps
    assert "Callum: Ask Dev for the generator." in steps
    assert len(steps) == 2


def test_a_second_half_with_no_verb_leaves_the_commitment_whole():
    s = _summary(
        "Rhona: The float for Saturday is still not sorted.",
        "Callum: I'll book the trailer from Harlow Hire, and it should be fine.",
        "Rhona: Great, thanks.",
    )
    assert scored_steps(s) == ("Callum: I'll book the trailer from Harlow Hire, and it should be fine.",)


def test_days_and_months_written_short_are_dates_not_names():
    names = _entities(
        "Ines: The kiln at Potterton is booked for Thu, and the glaze order from Valentines lands on Feb 14.",
        "Marek: Then the stall at Dunmore market opens on 3 Mar, and we pack on Sun with Ines.",
        "Ines: Good. I'll ask Valentines about the Jan invoice too, and Hollis is back on Wed 12.",
    )
    assert {"Potterton", "Valentines", "Dunmore", "Ines", "Marek", "Hollis"} <= names
    assert not {"Thu", "Feb 14", "Feb", "Mar", "Sun", "Wed", "Wed 12"} & names
    assert "Jan" in names  # a month written short with no number beside it is left as before
