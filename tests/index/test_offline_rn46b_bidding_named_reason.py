"""Session 46 (rn46b): a bidding whose clause after the comma names its subject in full and says its
verb ("Get the Rex tickets, the multiplex seats are £18 for what is basically a sofa.", "Keep the paper
scorebook though, 99% still isn't every match.") stays a rationale, both ways the offline backend runs
(``_Reader.reason_bidding`` and its ``_CLAUSE_NAMED``): the clause is a reason in its own words. A
clause on a pronoun leans on the bidding and is taken out (rn46's own test, "Cut the two slow ballads,
nobody dances to them.")."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_a_bidding_before_a_price_said_of_the_other_option_stays_a_reason(model):
    summary, _ = offline_summary(
        "Ada: For Mum's 60th I want a cinema trip instead of a meal out. She loves old musicals.",
        "Ben: Oh, she'd love that. Which cinema?",
        "Ada: There's the multiplex or the Rex. The Rex shows Singin' in the Rain on the Saturday.",
        "Ben: Get the Rex tickets, the multiplex seats are £18 for what is basically a sofa.",
        "Ada: Rex it is. Should we eat before? I want everyone there on time.",
        "Ben: Eat after, at the Italian on the corner.",
        "Ada: I'll book the tickets tonight.", model=model)
    assert "Get the Rex tickets, the multiplex seats are £18 for what is basically a sofa." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_bidding_before_a_figure_stays_a_reason(model):
    summary, _ = offline_summary(
        "Lena: The club's scoring app crashes every second match. I counted 14 crashes in the spring.",
        "Joe: The paid app from the county league worked for every match in my trial. It's £40 a season.",
        "Pat: £40 is fine for us, we have the tea money.",
        "Joe: Then the county app, for every team, and we drop the old one.",
        "Pat: OK, I'm convinced. Keep the paper scorebook though, 99% still isn't every match.",
        "Lena: Agreed. Joe, can you set up the accounts before the first fixture?", model=model)
    assert "Keep the paper scorebook though, 99% still isn't every match." in summary.rationale
