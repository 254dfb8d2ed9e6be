"""Session 36's decision class, from heldout31's wrong decisions: "we'll see at practice", "let's
see how the first week goes" put a settlement off, and a deferral is no decision (the labelling
guide), whether the patterns or the sentence model would write it (``cues._DEFERS``, read by
``_Reader.screen``)."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("later", ["we'll see at practice.", "we'll see at the AGM.",
                                   "ok, we'll see after the first rehearsal.",
                                   "let's see how the first week goes."])
def test_well_see_puts_off_and_decides_nothing(model, later):
    summary, _ = offline_summary(
        "Clive: Day of dance on 17 May, we start at the Fleece at 11.",
        "Suzy: are we doing the new jig this year?",
        f"Clive: only if the new lot have it by the 10th. {later} I'd rather not debut it in a pub garden",
        "Suzy: fair", model=model)
    assert not any(" see " in f" {d.lower()}" for d in summary.decisions), summary.decisions
