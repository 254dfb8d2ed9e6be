"""Session 47 (rn47): a rationale whose colon opens a list of three or more parts is taken out,
whichever reader placed it (``_Reader.reason_listed``): the list sets out the options, the items or
the facts of the case, what the choice is made among, not why it was made."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_the_options_listed_after_a_colon_are_no_reason(model):
    summary, _ = offline_summary(
        "Dana: The hall hire is going up to £90 a night from March.",
        "Raj: Options: pay it, move to the church room, or meet every other week, because nobody wants "
        "to lose the Thursday slot.",
        "Dana: We'll move to the church room, because it's half the price and has parking.",
        "Raj: I'll book it for March.", model=model)
    assert summary.decisions
    assert not any(reason.startswith("Options:") for reason in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_reason_with_a_colon_and_no_list_stays(model):
    summary, _ = offline_summary(
        "Dana: The hall hire is going up to £90 a night from March.",
        "Raj: We'll move to the church room, because the sums are simple: it's half the price, with parking.",
        "Dana: Agreed, the church room.",
        "Raj: I'll book it for March.", model=model)
    assert any("simple: it's half the price, with parking" in reason for reason in summary.rationale), \
        summary.rationale
