"""Session 27, second round: the offline extractor reads a fact about a name of any script.

Its name patterns were ASCII (``[A-Z][a-z]+``): "My sister Zoë lives in Lisbon" and "José works
at Acme" gave no fact where "Zoe" and "Jose" gave ``user sister Zoe`` and ``Zoe lives_in
Lisbon``; "My son Émile" and "Łukasz" were no entity; "I moved to Łódź" no home. The patterns
of people's facts (``people``), the kin pattern of ``offline``, ``morefacts`` and ``ending``
and the entities' capitalised phrases now read a capital of any script followed by lowercase
letters (``normalize.NAME_WORD``): a name with accents gives the fact its ASCII spelling
gives, under the same subject key (``name_key``)."""

from __future__ import annotations

import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.index.ending import direct_endings
from memlane.index.normalize import name_key, subject_key
from memlane.testing import offline_names, offline_summary

NAMES = ["Zoe", "Jose", "Emile", "Ines", "Soren", "Bjorn", "Agnes", "Andre", "Celine", "Lukas", "Anais",
         "Chloe", "Elodie", "Oscar", "Nuno", "Irene"]
PLACES = ["Krakow", "Orebro", "Evora", "Malaga", "Zurich", "Sao Paulo", "Umea", "Aarhus"]
MARKS = ["\u0301", "\u0300", "\u0308", "\u0302", "\u030c", "\u0303", "\u030a"]  # acute, grave, diaeresis, ...

# each a session of "speaker: text" lines, {n} the name, {p} the place
TEMPLATES = [
    ("user: My sister {n} lives in {p}.",),
    ("user: {n} works at Acme.",),
    ("user: My son {n} is allergic to peanuts.",),
    ("user: My friend {n} is a nurse.",),
    ("user: We have two kids, {n} and Leo.",),
    ("user: {n} turns 40 next week.",),
    ("user: My daughter {n} turns 7 next week.",),
    ("user: {n} works from home.",),
    ("user: My dog is called {n}.",),
    ("user: I moved to {p} last year.",),
    ("Niamh: I'll do the cake, my friend {n} makes them.", "Aoife: Grand, thanks."),
]


@st.composite
def accented(draw: st.DrawFn, words: list[str]) -> tuple[str, str]:
    """An ASCII spelling and the same with accents on some of its letters (at least one),
    composed (NFC) or typed apart (a letter and its combining mark)."""
    plain = draw(st.sampled_from(words))
    letters = [i for i, c in enumerate(plain) if c.isalpha()]
    chosen = draw(st.sets(st.sampled_from(letters), min_size=1, max_size=2))
    text = "".join(c + (draw(st.sampled_from(MARKS)) if i in chosen else "") for i, c in enumerate(plain))
    if draw(st.booleans()):
        text = unicodedata.normalize("NFC", text)
    return plain, text


def _facts(turns: tuple[str, ...], name: str, place: str) -> set[tuple[str, str, str]]:
    _, extraction = offline_summary(*(t.format(n=name, p=place) for t in turns), "assistant: Noted.")
    return {(subject_key(f.subject), f.predicate, name_key(f.object)) for f in extraction.facts
            if f.predicate not in ("decided", "did")}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TEMPLATES), accented(NAMES), accented(PLACES))
@example(TEMPLATES[0], ("Zoe", "Zoë"), ("Lisbon", "Lisbon"))
@example(TEMPLATES[1], ("Jose", "José"), ("Lisbon", "Lisbon"))
@example(TEMPLATES[2], ("Emile", "Émile"), ("Lisbon", "Lisbon"))
@example(TEMPLATES[9], ("Zoe", "Zoe"), ("Orebro", "Örebro"))
@example(TEMPLATES[4], ("Ines", "I\u0301nes"), ("Krakow", "Krakow"))  # "I" + a mark was the stop-word "I"
def test_a_name_with_accents_gives_the_fact_of_its_ascii_spelling(
        turns: tuple[str, ...], name: tuple[str, str], place: tuple[str, str]) -> None:
    plain = _facts(turns, name[0], place[0])
    assert plain, (turns, name[0])  # every template states a fact in ASCII
    assert _facts(turns, name[1], place[1]) == plain, (turns, name[1], place[1])


@settings(max_examples=40, deadline=None)
@given(accented(NAMES))
@example(("Emile", "Émile"))
def test_a_name_with_accents_is_an_entity_as_its_ascii_spelling_is(name: tuple[str, str]) -> None:
    for plain_or_not in name:
        keys = {name_key(n) for n in offline_names(f"user: My son {plain_or_not} starts school on Monday.",
                                                   "assistant: Noted.")}
        assert name_key(name[0]) in keys, (plain_or_not, keys)


@settings(max_examples=40, deadline=None)
@given(accented(NAMES))
@example(("Bjorn", "Björn"))
def test_an_ending_names_a_person_of_any_script(name: tuple[str, str]) -> None:
    """A relationship ended ("Björn and I split up", "I broke up with José") names its other
    person as the ASCII spelling does (the name was dropped, or cut at the accent)."""
    for sentence in ("{n} and I split up.", "I broke up with {n}.", "My sister divorced {n}."):
        def read(n: str, sentence: str = sentence) -> list[tuple[str, str, str]]:
            return [(s, p, name_key(v)) for s, p, v, _ in direct_endings(sentence.format(n=n))]
        plain = read(name[0])
        assert plain and all(v == name_key(name[0]) for _, _, v in plain), (sentence, plain)
        assert read(name[1]) == plain, (sentence, name[1])


def test_a_place_or_a_name_opening_with_a_capital_of_any_script() -> None:
    """The first letter outside ASCII (no accent to drop): a friend "Łukasz", a home in "Łódź"."""
    _, extraction = offline_summary("user: My friend Łukasz lives in Kraków. I moved to Łódź last year.",
                                    "assistant: Noted.")
    facts = {(f.subject, f.predicate, f.object) for f in extraction.facts}
    assert {("user", "friend", "Łukasz"), ("Łukasz", "lives_in", "Kraków"), ("user", "lives_in", "Łódź")} <= facts
