"""Session 22's rules for topics (docs/summary-eval.md, "Session 22: topics, references and
entities"), each on a conversation written for these tests, with the shipped sentence model and
with the patterns alone: a phrase that is a name said only with a capital goes last, a phrase of
a decision moves up, no topic holds a word of where or how, and at most four topics are listed
however long the conversation."""

import pytest

from memlane.testing import offline_summary

MODELS = ("shipped", None)


def _topics(*turns: str, model: object) -> tuple[str, ...]:
    return offline_summary(*turns, model=model)[0].topic_tags


@pytest.mark.parametrize("model", MODELS)
def test_a_name_said_only_with_a_capital_is_no_topic_before_the_subject(model):
    topics = _topics(
        "Ines: The Lydgate Park site or the Alder Close site for the skatepark? Lydgate Park is bigger.",
        "Kwame: Alder Close is next to houses, so noise is the worry. Lydgate Park has the bus stop.",
        "Ines: Lydgate Park then, and we put the noise survey in the planning report.",
        "Kwame: Agreed, Lydgate Park, with the noise survey in the report.",
        model=model,
    )
    assert "noise survey" in topics
    assert not {"lydgate park", "alder close", "lydgate", "alder"} & set(topics[:2]), topics


@pytest.mark.parametrize("model", MODELS)
def test_a_phrase_of_a_decision_moves_up(model):
    s = offline_summary(
        "Maya: The pub quoted forty a head for the offsite dinner. The pub menu is fixed and the pub room is small.",
        "Tom: The pub room seats twelve and we are fourteen. The pub garden only works if it is warm, and the "
        "pub menu has no vegan main.",
        "Maya: Then the pub is out. The budget is forty a head, the offsite dinner needs a vegan main. There is "
        "the hotel restaurant.",
        "Tom: Let's book the hotel restaurant.",
        "Maya: Fine by me, I will tell everyone on Monday and ask them for any allergies as well.",
        model=model,
    )[0]
    assert any("hotel restaurant" in d.lower() for d in s.decisions)
    assert "hotel restaurant" in s.topic_tags, s.topic_tags  # said twice, ranked below "vegan main"
    assert "vegan main" not in s.topic_tags


@pytest.mark.parametrize("model", MODELS)
def test_no_topic_holds_a_word_of_where_or_how(model):
    topics = _topics(
        "Gail: The leylandii along the fence is four metres now. Leylandii along the back too.",
        "Terry: Straight behind the shed it blocks the veg patch. Cost wise it is a day's work.",
        "Gail: The leylandii along the side gets trimmed first, cost wise that is fair.",
        "Terry: Fine, trim the leylandii first and split the cost.",
        model=model,
    )
    words = {w for t in topics for w in t.split()}
    assert not words & {"along", "behind", "wise"}, topics
    assert "leylandii" in words


def _errands(n: int) -> list[str]:
    subjects = ("garden shed roof", "kitchen tap leak", "boiler service visit", "bathroom window latch",
                "attic insulation quote", "driveway gravel delivery", "fence panel repair", "gutter cleaning crew",
                "loft ladder fitting", "porch light wiring", "patio slab cleaning", "radiator valve swap",
                "chimney sweep booking", "carpet stain removal", "hedge trimming day", "garage door spring")
    turns = []
    for k, subject in enumerate(subjects[:n]):
        turns.append(f"user: The {subject} needs sorting, the {subject} has been on the list since March.")
        turns.append(f"assistant: For the {subject}, book someone local and ask for a written quote first. "
                     f"A written quote for the {subject} keeps the price fixed, item {k} on your list.")
    return turns


@pytest.mark.parametrize("model", MODELS)
def test_a_conversation_as_long_as_the_labelled_ones_lists_at_most_four_topics(model):
    turns = _errands(7)  # about 340 words, ten topics by session 13's length cap
    assert sum(len(t.split()) - 1 for t in turns) <= 350
    assert len(_topics(*turns, model=model)) == 4


@pytest.mark.parametrize("model", MODELS)
def test_a_long_session_keeps_more_topics_up_to_eight(model):
    turns = _errands(16)  # about 780 words: a long session, whose topics are also its search keys
    assert len(_topics(*turns, model=model)) == 8
