"""Session 47 (rn47): a rationale opening on the options it names ("Options are …", "Two candidates: …")
is taken out, whichever reader placed it (``_Reader.reason_options``): it puts what the choice is made
among, not why it was made."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_the_options_named_are_no_reason(model):
    summary, _ = offline_summary(
        "Ola: The coach firm has put the price up for the summer trip.",
        "Ben: Options are the train at £18 each or the minibus from the school, because the coach is now £30 a head.",
        "Ola: We'll take the train, because it's cheaper and the station is next door.",
        "Ben: I'll book the tickets on Monday.", model=model)
    assert summary.decisions
    assert not any(reason.startswith("Options are") for reason in summary.rationale), summary.rationale


def test_the_alternative_turned_down_keeps_its_reason():
    # the sentence model places this one as a reason; the patterns alone do not
    summary, _ = offline_summary(
        "Ola: The coach firm has put the price up for the summer trip.",
        "Ben: We'll take the train. The alternative is the minibus, but that needs two drivers and we have one.",
        "Ola: Fine, the train.",
        "Ben: I'll book the tickets on Monday.", model="shipped")
    assert summary.decisions
    assert any(reason.startswith("The alternative is the minibus") for reason in summary.rationale), \
        summary.rationale
