"""Session 18's facts about people (docs/summary-eval.md, "Session 18: facts about people";
``memlane/index/people.py``): what the user says about themselves and the people and pets in
their life — where they live and work, their jobs, ages, allergies, intolerances, conditions
and diets, their relatives and pets by name — each class over templates × values written for
these tests, the statements that are no fact (questions, hypotheses, hedges, negations, quoted
or reported words, the assistant's turns), and what a newer statement does to the older
through a real SQLite memory."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import add_sessions, memory, offline_summary

NOW = datetime(2026, 6, 1, tzinfo=UTC)

PLACES = ["Leeds", "York", "Toronto", "Bristol", "Glasgow", "St Albans", "Lisbon", "Cape Town",
          "New York", "the Lake District", "Stratford-upon-Avon", "Rotterdam"]
UNIQUE_KIN = [("brother", "brother"), ("sister", "sister"), ("mum", "mother"), ("mom", "mother"),
              ("mother", "mother"), ("dad", "father"), ("father", "father"), ("wife", "wife"),
              ("husband", "husband"), ("partner", "partner"), ("son", "son"), ("daughter", "daughter"),
              ("grandma", "grandmother"), ("grandad", "grandfather"), ("parents", "parents"),
              ("kids", "children"), ("boss", "boss"), ("flatmate", "flatmate")]
JOBS = ["nurse", "teacher", "software engineer", "primary school teacher", "freelance translator",
        "paramedic", "data scientist", "solicitor", "electrician", "physiotherapist", "chef",
        "accountant", "senior product designer", "vet"]
ORGS = ["St Thomas' Hospital", "Google", "the council", "Siemens", "Booking.com", "a bakery"]
ALLERGENS = ["peanuts", "bees", "penicillin", "shellfish", "cats", "latex", "tree nuts", "eggs"]
NAMES = ["Maya", "Leo", "Mia", "Sam", "Biscuit", "Ana", "Theo", "Priya", "Jonas", "Pickle"]
DIETS = ["vegetarian", "vegan", "pescatarian"]
INTOLERANCES = ["lactose", "gluten"]
FOODS = ["gluten", "dairy", "pork", "meat", "shellfish", "alcohol", "spicy food"]
CONDITIONS = [("I'm coeliac", "coeliac"), ("I'm diabetic", "diabetic"), ("I have type 1 diabetes", "type 1 diabetes"),
              ("I have asthma", "asthma"), ("I was diagnosed with IBS", "IBS"), ("I have a bad knee", "bad knee")]


def facts(*turns: str) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in offline_summary(*turns)[1].facts
            if f.predicate not in ("decided", "did", "stated")}  # stated: the learned reader (session 49)


def said(text: str) -> set[tuple[str, str, str]]:
    return facts(f"user: {text}", "assistant: Noted.")


# -- each class over templates × values --------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["I live in {p}.", "I moved to {p} last year.", "We moved to {p} last month.",
                        "I'm based in {p}.", "I've been living in {p} for a while now.",
                        "I'm 34 and I live with my partner Sam in {p}.", "We just moved to {p}!"]),
       st.sampled_from(PLACES))
def test_where_the_user_lives(template: str, place: str) -> None:
    value = place.removeprefix("the ")
    assert ("user", "lives_in", value) in said(template.format(p=place))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["My {k} lives in {p} now.", "My {k} moved to {p}.", "My {k} has moved to {p}.",
                        "Oh, my {k} is based in {p}."]),
       st.sampled_from(UNIQUE_KIN), st.sampled_from(PLACES))
def test_where_a_relative_lives_is_said_of_them(template: str, kin: tuple[str, str], place: str) -> None:
    word, spelled = kin
    verb_fix = template.replace("lives", "live") if word in ("parents", "kids") else template
    verb_fix = verb_fix.replace(" has ", " have ") if word in ("parents", "kids") else verb_fix
    verb_fix = verb_fix.replace(" is ", " are ") if word in ("parents", "kids") else verb_fix
    got = said(verb_fix.format(k=word, p=place))
    assert (f"user's {spelled}", "lives_in", place.removeprefix("the ")) in got
    assert not any(p == spelled or p == word for _, p, _ in got)  # no "relative named 'lives in…'"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["I'm a {j}.", "I am a {j}.", "I work as a {j}.", "I've been a {j} for ten years.",
                        "I'm now working as a {j}.", "Actually, I'm a {j} by the way."]),
       st.sampled_from(JOBS))
def test_the_users_job(template: str, job: str) -> None:
    text = template.format(j=job).replace("a a", "an a").replace("a e", "an e")
    assert ("user", "job", job) in said(text)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(JOBS), st.sampled_from(ORGS))
def test_a_job_at_a_place_is_a_job_and_an_employer(job: str, org: str) -> None:
    article = "an" if job[0] in "aeiou" else "a"
    got = said(f"I am {article} {job} at {org}.")
    assert ("user", "job", job) in got
    assert ("user", "works_at", org.removeprefix("the ").removeprefix("a ")) in got


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["My {k} is a {j}.", "My {k}'s a {j}.", "My {k} works as a {j}."]),
       st.sampled_from(UNIQUE_KIN[:11]), st.sampled_from(JOBS))
def test_a_relatives_job(template: str, kin: tuple[str, str], job: str) -> None:
    word, spelled = kin
    text = template.format(k=word, j=job).replace("a a", "an a").replace("a e", "an e")
    assert (f"user's {spelled}", "job", job) in said(text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["I'm allergic to {a}.", "I'm severely allergic to {a}, so I carry an EpiPen.",
                        "My {k} is allergic to {a}.", "My {k} {n} is allergic to {a}.",
                        "My {k}'s allergic to {a}."]),
       st.sampled_from(ALLERGENS), st.sampled_from(UNIQUE_KIN[:11]), st.sampled_from(NAMES))
def test_allergies_of_the_user_and_their_people(template: str, allergen: str, kin: tuple[str, str],
                                                 name: str) -> None:
    word, spelled = kin
    got = said(template.format(a=allergen, k=word, n=name))
    who = "user" if template.startswith("I") else name if "{n}" in template else f"user's {spelled}"
    assert (who, "allergic_to", allergen) in got
    assert (("user", normalize(word), f"allergic to {allergen}")) not in got  # the old misreading


def normalize(word: str) -> str:
    from memlane.index.normalize import normalize_predicate

    return normalize_predicate(word)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(ALLERGENS), min_size=2, max_size=4, unique=True))
def test_a_list_of_allergies_is_one_fact_each(allergens: list[str]) -> None:
    text = "I'm allergic to " + ", ".join(allergens[:-1]) + " and " + allergens[-1] + "."
    got = {o for s, p, o in said(text) if (s, p) == ("user", "allergic_to")}
    assert got == set(allergens)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["diet", "intolerance", "avoid", "condition", "no-drink", "have-allergy"]),
       st.integers(0, 50))
def test_diets_intolerances_and_conditions(kind: str, i: int) -> None:
    if kind == "diet":
        d = DIETS[i % len(DIETS)]
        assert ("user", "diet", d) in said(f"I'm {d}.")
        assert ("user's wife", "diet", d) in said(f"My wife is {d}.")
    elif kind == "intolerance":
        x = INTOLERANCES[i % len(INTOLERANCES)]
        assert ("user", "intolerant_to", x) in said(f"I'm {x} intolerant.")
        assert ("user", "intolerant_to", x) in said(f"I have a {x} intolerance.")
    elif kind == "avoid":
        food = FOODS[i % len(FOODS)]
        verb = "drink" if food == "alcohol" else "eat"
        assert ("user", "avoids", food) in said(f"I can't {verb} {food}.")
        assert ("user", "avoids", food) in said(f"I don't {verb} {food}.")
    elif kind == "condition":
        text, value = CONDITIONS[i % len(CONDITIONS)]
        assert ("user", "condition", value) in said(text + ".")
    elif kind == "no-drink":
        assert ("user", "avoids", "alcohol") in said("I don't drink.")
    else:
        a = ["nut", "peanut", "shellfish", "penicillin"][i % 4]
        assert ("user", "allergic_to", a) in said(f"I have a severe {a} allergy.")


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([("We have two kids, {a} and {b}.", "child", 2), ("I have two daughters, {a} and {b}.", "daughter", 2),
                        ("My kids {a} and {b} love it.", "child", 2), ("I have a dog called {a}.", "dog", 1),
                        ("We have a cat named {a}.", "cat", 1), ("My parents are {a} and {b}.", "parent", 2),
                        ("Our son {a} starts school soon.", "son", 1), ("My dog is called {a}.", "dog", 1)]),
       st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
def test_relatives_and_pets_by_name(case: tuple[str, str, int], names: list[str]) -> None:
    template, pred, count = case
    got = said(template.format(a=names[0], b=names[1]))
    for name in names[:count]:
        assert ("user", pred, name) in got


@settings(max_examples=40, deadline=None)
@given(st.integers(13, 99), st.sampled_from(UNIQUE_KIN[:11]))
def test_ages(age: int, kin: tuple[str, str]) -> None:
    assert ("user", "age", str(age)) in said(f"I'm {age} and I live in Leeds.")
    assert ("user", "age", str(age)) in said(f"I just turned {age} last month.")
    word, spelled = kin
    assert (f"user's {spelled}", "age", str(age)) in said(f"My {word} is {age}.")


# -- what is no fact -----------------------------------------------------------------------------

STATEMENTS = ["I live in York", "I'm allergic to peanuts", "I'm a nurse", "I'm vegan", "I'm lactose intolerant",
              "my brother lives in Toronto", "I'm coeliac", "I work at Google", "I'm 34"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(STATEMENTS),
       st.sampled_from(["If {s}, what should I do?", "Imagine {s}.", "Pretend {s}.", "What if {s}?",
                        "I think {s}.", "Maybe {s}.", 'My friend said "{s}".', "She told me {s}.",
                        "Write a story where {s}.", "I wish {s}.", "Do you think {s}?", "When {s}, I'll relax.",
                        "It's not that {s}.", "Explain it like {s}."]))
def test_hypotheses_hedges_questions_and_quotes_are_no_facts(statement: str, frame: str) -> None:
    text = frame.format(s=statement)
    text = text[0].upper() + text[1:]
    assert said(text) == set(), text


@pytest.mark.parametrize("text", [
    "Am I allergic to bees?", "Is my son allergic to peanuts?", "Should I move to York?",
    "Do I need to be vegan for this?", "Can my wife work at Google on a visa?",
    "I'm not allergic to anything.", "I'm not a nurse.", "I no longer live in Leeds.",
    "I used to live in Leeds.", "I was a nurse for ten years.", "I'm not vegetarian any more.",
    "My brother doesn't live in Toronto.", "I might be lactose intolerant.",
    "I'm a terrible cook.", "I'm a keen gardener.", "I'm a huge fan of jazz.", "I'm a bit of a designer.",
    "I can't eat that much.", "I don't eat after 8pm.", "I'm 12.5% Irish.",
    "Explain it to me like I'm 5 years old.", "Act as a nurse and tell me about shifts.",
    "My sister is very competitive.", "My parents are Catholic.", "My dad is thrilled about it.",
])
def test_refusals(text: str) -> None:
    assert said(text) == set(), text


def test_the_assistants_words_are_not_the_users() -> None:
    got = facts("user: Any tips for a dinner party?",
                "assistant: I live in the cloud. If you're vegan, try a lentil stew; I'm a nurse of recipes.")
    assert got == set()


def test_a_relative_described_is_no_relative_named() -> None:
    """"My sister is very competitive": once read as a sister named "very competitive",
    stored as an entity of kind person."""
    summary, extraction = offline_summary("user: My sister is very competitive, so game night was loud.",
                                          "assistant: Sounds fun!")
    assert not [f for f in extraction.facts if f.predicate == "sister"]
    assert "very competitive" not in [e.name for e in extraction.entities]


def test_a_relative_named_once_is_named_after() -> None:
    got = facts("user: My daughter Maya is 7.", "assistant: Lovely age!",
                "user: My daughter is allergic to bees, and Maya can't eat peanuts.", "assistant: Noted.")
    assert {("user", "daughter", "Maya"), ("Maya", "age", "7"), ("Maya", "allergic_to", "bees"),
            ("Maya", "avoids", "peanuts")} <= got
    assert not [f for f in got if f[0] == "user's daughter"]


def test_the_lead_users_sentences() -> None:
    """The examples that opened the session (the lead's, using the product)."""
    assert said("My daughter Maya is allergic to bees") >= {("user", "daughter", "Maya"), ("Maya", "allergic_to", "bees")}
    assert said("My son is allergic to peanuts") == {("user's son", "allergic_to", "peanuts")}
    assert said("My brother lives in Toronto now") == {("user's brother", "lives_in", "Toronto")}
    assert said("I'm lactose intolerant") == {("user", "intolerant_to", "lactose")}
    assert said("I can't eat gluten, I'm coeliac") == {("user", "avoids", "gluten"), ("user", "condition", "coeliac")}
    assert said("I don't drink alcohol") == {("user", "avoids", "alcohol")}
    assert said("I am a nurse at St Thomas hospital") == {("user", "job", "nurse"),
                                                         ("user", "works_at", "St Thomas hospital")}
    assert said("I'm 34 and I live with my partner Sam in Bristol") == {
        ("user", "age", "34"), ("user", "lives_in", "Bristol"), ("user", "partner", "Sam")}
    # the count too since session 54, as "We have 2 kids, Leo and Mia" had it: a number in words is read
    assert said("We have two kids, Leo and Mia") == {("user", "child", "Leo"), ("user", "child", "Mia"),
                                                     ("user", "kids", "two kids")}


def test_we_in_a_meeting_is_not_the_user() -> None:
    got = facts("Tom: We moved to Kubernetes last year.", "Ana: We moved to York, the office I mean.",
                "Raj: Fine.")
    assert not [f for f in got if f[1] == "lives_in"]


# -- through the real store ----------------------------------------------------------------------

def test_newer_statements_supersede_older_ones_in_a_real_memory(tmp_path) -> None:
    mem = memory(tmp_path / "m.db")
    add_sessions(mem, [
        (60, [("user", "I live in Leeds and I'm a nurse at St James's hospital. I'm vegetarian. "
                       "My brother lives in Toronto. I'm allergic to penicillin."), ("assistant", "Noted.")]),
        (20, [("user", "Big news: we moved to York last month! I'm now working as a paramedic. I've gone vegan. "
                       "My brother moved to Vancouver."), ("assistant", "Congratulations!")]),
        (5, [("user", "My daughter Maya is allergic to bees. I'm also allergic to latex."), ("assistant", "Noted.")]),
    ], now=NOW)
    current = {(f.subject, f.predicate, f.object) for f in mem.facts("chat", now=NOW)}
    assert {("user", "lives_in", "York"), ("user", "job", "paramedic"), ("user", "diet", "vegan"),
            ("user's brother", "lives_in", "Vancouver"), ("Maya", "allergic_to", "bees"),
            ("user", "allergic_to", "penicillin"), ("user", "allergic_to", "latex"),
            ("user", "daughter", "Maya")} <= current
    assert not {("user", "lives_in", "Leeds"), ("user", "job", "nurse"), ("user", "diet", "vegetarian"),
                ("user's brother", "lives_in", "Toronto")} & current
    for subject, predicate, old, new in [("user", "lives_in", "Leeds", "York"), ("user", "job", "nurse", "paramedic"),
                                         ("user", "diet", "vegetarian", "vegan"),
                                         ("user's brother", "lives_in", "Toronto", "Vancouver")]:
        history = mem.fact_history(subject, predicate, scope="chat", now=NOW)
        assert [(h["object"], h["status"]) for h in history] == [(old, "superseded"), (new, "current")]
    # a relative's facts are searched and shown by their subject, as said
    assert [f.object for f in mem.facts("chat", subject="user's brother", now=NOW)] == ["Vancouver"]
