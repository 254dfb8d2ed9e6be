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


@pytest.mark.parametrize("model", WAYS)
def test_a_clause_after_the_colon_is_no_list(model):
    """Lead, at the merge: "…: they'd sell only on Fridays, in the library, which …" says why, in a
    clause with its own subject, not a list of parts (heldout43's one reason the rule took out)."""
    summary, _ = offline_summary(
        "Mr Osei: The Year 9s want to run a bake stall at lunch. Should we allow it?",
        "Ms Lund: Let's allow the stall, because they've thought it through: they'd sell only on Fridays, "
        "in the library, which the café doesn't reach.",
        "Mr Osei: Good, I'll tell them on Monday.", model=model)
    assert summary.decisions
    assert any("in the library" in reason for reason in summary.rationale), summary.rationale
