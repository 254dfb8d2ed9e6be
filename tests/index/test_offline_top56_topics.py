"""Session 56's rule for topics (docs/summary-eval.md, "Session 56: topics … (top56)"): a pair
said once, not in the opening, is no topic (the ranking counts a pair double, so it ties a word
said twice), unless fewer than two topics would be left. Small conversations written for these
tests, both ways (with the sentence model and the patterns alone)."""

import pytest

from memlane.testing import offline_summary

ALLOTMENT = (
    "Nia: The allotment shed roof leaks again. Can we fix the shed roof before winter?",
    "Owen: Yes. The shed roof needs new felt, and the felt has to go on before the frosts.",
    "Nia: Felt is fine by me. What about the water butt, it overflowed onto the onion bed last week.",
    "Owen: A diverter kit would stop that, they sell them at the hardware shop near the station.",
    "Nia: Then felt for the shed roof, and a diverter kit for the water butt.",
    "Owen: I'll pick up felt and a diverter kit on Saturday, and my neighbour lends us his ladder for the morning.",
    "Nia: Lovely. The plot committee wants photos of repairs for the newsletter, so take a few when it's done.",
    "Owen: Will do, I'll send them over on Sunday.",
)


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_pair_said_once_later_is_no_topic(model):
    topics = offline_summary(*ALLOTMENT, model=model)[0].topic_tags
    assert topics == ("shed roof", "diverter kit", "water butt")


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_pair_said_once_in_the_opening_stays(model):
    opening = "Nia: The allotment shed roof leaks again and the compost bins are full. Can we fix the shed roof before winter?"
    topics = offline_summary(opening, *ALLOTMENT[1:], model=model)[0].topic_tags
    assert topics == ("shed roof", "diverter kit", "water butt", "compost bins")


@pytest.mark.parametrize("model", ["shipped", None])
def test_two_topics_are_kept(model):
    topics = offline_summary(
        "Ana: Morning!",
        "Ben: Morning. The boiler pressure dropped overnight, it reads half a bar.",
        "Ana: Top it up from the filling loop under the kitchen sink, then watch it for a day.",
        model=model,
    )[0].topic_tags
    assert topics == ("boiler pressure", "dropped overnight")
