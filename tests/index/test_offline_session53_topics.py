"""Session 53's rule for topics (docs/summary-eval.md, "Session 53: topics"): a topic is a noun
phrase, so no topic is a modifier alone ("old"), a verb alone ("send") or a verb and its object
("sell cheese", unless the conversation says the verb as a noun: "the test suite"); the noun
phrase ranked next takes its place. Small conversations written for these tests."""

from memlane.testing import offline_summary


def _topics(*turns: str) -> tuple[str, ...]:
    return offline_summary(*turns)[0].topic_tags


def test_no_topic_is_a_modifier_alone():
    topics = _topics(
        "Maya: The old one is slow and the old one overheats, so the laptop replacement is due.",
        "Tom: Is the old one under warranty? The laptop replacement could wait.",
        "Maya: The old one is out of warranty since May.",
        "Tom: Then the laptop replacement is approved and the old one is for recycling.",
    )
    assert topics[0] == "laptop replacement"
    assert "old" not in topics


def test_no_topic_is_a_verb_alone():
    topics = _topics(
        "Maya: Send me the laptop replacement quote and I'll send it to finance.",
        "Tom: I'll send it today, the laptop replacement is overdue.",
        "Maya: Good, send the quote once the laptop replacement model is picked.",
    )
    assert "send" not in topics
    assert topics == ("laptop replacement", "quote")


def test_no_topic_is_a_verb_and_its_object():
    topics = _topics(
        "Ana: Should we sell cheese at the market stall this year?",
        "Ben: Sell cheese and bread, the market stall did well with bread.",
        "Ana: Fine, we sell cheese at the market stall and bring the bread van.",
    )
    assert "sell cheese" not in topics
    assert set(topics) == {"cheese", "market stall"}


def test_a_verb_said_as_a_noun_keeps_its_pair():
    topics = _topics(
        "Ana: The test suite is flaky again, the test suite failed twice on the login page.",
        "Ben: Then quarantine the login page cases and rerun the test suite tonight.",
        "Ana: Fine, the test suite gets a retry and the login page cases wait.",
    )
    assert "test suite" in topics
