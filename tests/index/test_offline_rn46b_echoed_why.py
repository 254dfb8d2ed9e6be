"""Session 46 (rn46b): when a terse "X, yes" takes up another's statement as the decision
(``_Reader.echoed_yes``), the statement's last clause after a comma with a subject and a verb of its own
("…, they cost £2 more each but that's cheaper than reprinting the scores", "…, before the ground
freezes in November") is its reason and stays in the rationale (``_ECHOED_WHY``), both ways the offline
backend runs; a clause with no subject of its own ("…, one at the finish and a backup down the river")
adds none."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_the_reason_said_with_an_echoed_statement_stays_a_reason(model):
    summary, _ = offline_summary(
        "Kim: The choir's folders fell apart again at the carol concert, three lost their pages in the rain.",
        "Raj: For the folders, the ring binders from the music shop are much stronger, they cost £2 more each "
        "but that's cheaper than reprinting the scores.",
        "Kim: Ring binders, yes.",
        "Raj: I'll order thirty on Monday.", model=model)
    assert any("ring binders" in d for d in summary.decisions), summary.decisions
    assert "They cost £2 more each but that's cheaper than reprinting the scores." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_clause_opening_on_before_and_a_named_subject_is_the_reason(model):
    summary, _ = offline_summary(
        "Sam: The allotment shed needs a new roof before the winter.",
        "Jo: A work day over two Saturdays in October, before the ground freezes in November.",
        "Sam: Two Saturdays, yes.",
        "Jo: I'll put a sign-up sheet on the gate.", model=model)
    assert any("two Saturdays in October" in d for d in summary.decisions), summary.decisions
    assert "The ground freezes in November." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_clause_with_no_subject_of_its_own_adds_no_reason(model):
    summary, _ = offline_summary(
        "Ann: Last year the ducks got past the finish and two ended up in the weir.",
        "Ted: This year two nets, one at the finish and a backup fifty metres down the river.",
        "Ann: Two nets, yes.",
        "Ted: I'll borrow the nets from the angling club.", model=model)
    assert any("two nets" in d.lower() for d in summary.decisions), summary.decisions
    assert not any("backup" in r for r in summary.rationale), summary.rationale
