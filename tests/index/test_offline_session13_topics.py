"""Session 13's rules for topics, each on a small conversation written for these tests
(docs/summary-eval.md, "Session 13: topics"): as many topics as the conversation's length
supports, none naming a speaker or a count or a day, none sharing a word with a topic
listed before it, and a phrase of the opening moved up the ranking."""

from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


_SHORT = (
    "Maya: The spring campaign key visuals came back from the agency.",
    "Tom: I like the green spring campaign visual more than the orange one.",
    "Maya: Three key visuals is too many for the spring campaign, so we pick the green one.",
    "Tom: Agreed, the green key visual.",
)


def test_a_short_conversation_gets_two_or_three_topics():
    s = _summary(*_SHORT)
    assert 2 <= len(s.topic_tags) <= 3
    assert s.topic_tags[0] == "spring campaign"


def test_a_long_conversation_keeps_more_topics():
    subjects = ("garden shed roof", "kitchen tap leak", "boiler service visit", "bathroom window latch",
                "attic insulation quote", "driveway gravel delivery", "fence panel repair", "gutter cleaning crew")
    turns = []
    for k, subject in enumerate(subjects):
        turns.append(f"user: The {subject} needs sorting, the {subject} has been on the list since March.")
        turns.append(f"assistant: For the {subject}, book someone local and ask for a written quote first. "
                     f"A written quote for the {subject} keeps the price fixed, item {k} on your list.")
    s = _summary(*turns)
    # six to eight in session 13; since session 22 four up to 350 words, one more for every 35 past them
    assert 5 <= len(s.topic_tags) <= 8
    assert len(s.topic_tags) > len(_summary(*_SHORT).topic_tags)


def test_no_topic_shares_a_word_with_an_earlier_one():
    s = _summary(*_SHORT)
    seen: set[str] = set()
    for topic in s.topic_tags:
        words = set(topic.split())
        assert not words & seen, topic
        seen |= words
    assert "key visuals" in s.topic_tags  # the near-duplicates "three key", "campaign key" are not


def test_no_topic_names_a_speaker_or_a_count_or_a_day():
    s = _summary(
        "Priya: Forty minutes for a table on Saturday again, and two one-star reviews.",
        "Tom: Priya, we should cap bookings on Saturday at forty covers.",
        "Priya: Forty covers, fine. Tom, can you update the booking page before Saturday?",
        "Tom: Yes, the booking page will say forty covers.",
    )
    assert "booking page" in s.topic_tags
    words = {w for t in s.topic_tags for w in t.split()}
    assert not words & {"priya", "tom", "forty", "two", "saturday", "minutes"}, s.topic_tags


def test_a_phrase_of_the_opening_moves_up():
    s = _summary(
        "user: My landlord wants to keep the whole deposit for a stained carpet.",
        "assistant: A landlord can only deduct for damage beyond fair wear. Ask for the check-in inventory and photos.",
        "user: The inventory says the carpet was already worn. The cleaning invoice is huge though, "
        "and the cleaning was done in an afternoon.",
        "assistant: Then dispute the cleaning charge with the deposit scheme and send them the inventory.",
    )
    # "deposit", said in the opening, moves up past "cleaning"; the opening's first phrase,
    # "landlord", is a person's word and no topic since session 58
    assert s.topic_tags == ("inventory", "deposit")
    assert "cleaning" not in s.topic_tags  # said more often, but after the opening and past the cap


def test_no_topic_names_no_one_in_particular():
    s = _summary(
        "Jo: Has anyone else had the lift out of order again? People are carrying prams up.",
        "Sam: Anyone with a pram has to use the stairs, people are fed up.",
        "Jo: The lift contractor says the lift door sensor is fine.",
        "Sam: Then we report the lift door sensor to the housing office.",
    )
    assert "lift" in " ".join(s.topic_tags)
    words = {w for t in s.topic_tags for w in t.split()}
    assert not words & {"anyone", "people", "else"}, s.topic_tags
