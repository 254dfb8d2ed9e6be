"""Session 13's rules checked on heldout10 (docs/summary-eval.md, "Session 13: rules checked
on heldout10"): of the six rules tried and not kept earlier in the session, the one kept is
that days written short ("Thu") and months written short beside a number ("Feb 14", "14 Feb")
are dates, not names. A small conversation written for this test."""

from memlane.index.offline import OfflineIntelligence
from memlane.testing import turn_messages


def _entities(*turns: str) -> set[str]:
    """The names (not dates, not references) of ``Speaker: text`` turns."""
    _, x = OfflineIntelligence().summarize("s", turn_messages(turns))
    return {e.name for e in x.entities if e.type not in ("date", "reference")}


def test_days_and_months_written_short_are_dates_not_names():
    names = _entities(
        "Ines: The kiln at Potterton is booked for Thu, and the glaze order from Valentines lands on Feb 14.",
        "Marek: Then the stall at Dunmore market opens on 3 Mar, and we pack on Sun with Ines.",
        "Ines: Good. I'll ask Valentines about the Jan invoice too, and Hollis is back on Wed 12.",
    )
    assert {"Potterton", "Valentines", "Dunmore", "Ines", "Marek", "Hollis"} <= names
    assert not {"Thu", "Feb 14", "Feb", "Mar", "Sun", "Wed", "Wed 12"} & names
    assert "Jan" in names  # a month written short with no number beside it is left as before
