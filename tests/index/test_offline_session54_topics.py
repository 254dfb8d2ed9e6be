"""Session 54's rules for topics (docs/summary-eval.md, "Session 54: topics"): a noun phrase does
not end on a modifier or an adverb, so no topic is a pair ending on one ("charged twice", "lives
alone"), nor an adverb or a unit alone ("metres", "nights"); the phrase ranked next takes its
place. Small conversations written for these tests."""

from memlane.testing import offline_summary


def _topics(*turns: str) -> tuple[str, ...]:
    return offline_summary(*turns)[0].topic_tags


def test_no_topic_ends_on_an_adverb():
    topics = _topics(
        "Priya: My card was charged twice for the annual plan, charged twice on the same day.",
        "Assistant: Sorry about that. I can see the annual plan was charged twice; I've refunded the second charge.",
        "Priya: Thanks, and the annual plan stays active?",
        "Assistant: Yes, the annual plan stays active and the refund shows in three to five days.",
    )
    assert topics[0] == "annual plan"
    assert "charged twice" not in topics
    assert not any(t.split()[-1] == "twice" for t in topics)


def test_no_topic_ends_on_a_modifier_or_adverb_of_place():
    topics = _topics(
        "Ola: Grandad lives alone now and the stairs are hard, he lives alone since March.",
        "Ben: A stair lift would help, and a falls alarm too.",
        "Ola: I'll price the stair lift and the falls alarm this week.",
    )
    assert "lives alone" not in topics
    assert "stair lift" in topics


def test_a_colour_after_its_modifier_is_a_noun():
    topics = _topics(
        "Sam: Two flat white coffees for the stand-up, the flat white from the corner cafe is best.",
        "Jo: Flat white for me too, and the corner cafe does oat milk.",
        "Sam: Fine, flat white all round from the corner cafe.",
    )
    assert "flat white" in topics


def test_no_topic_is_a_unit_alone():
    topics = _topics(
        "Ola: The garden fence needs twelve metres of panels, twelve metres along the back.",
        "Ben: Twelve metres of feather board would do, and the fence posts are rotten too.",
        "Ola: Then new fence posts and twelve metres of feather board, I'll order them.",
    )
    assert "metres" not in topics
    assert "feather board" in topics


def test_no_topic_is_a_count_of_nights():
    topics = _topics(
        "Ola: Two nights at the lake cabin in June, or three nights?",
        "Ben: Three nights, the lake cabin has a canoe hire.",
        "Ola: Fine, three nights at the lake cabin and we book the canoe hire there.",
    )
    assert topics == ("lake cabin", "canoe hire")
