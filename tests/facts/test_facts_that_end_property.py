"""Properties of facts that end (session 22).

- Reading: whatever the subject (the user, a named relative, someone else by name), the
  predicate (job, home, diet, a thing owned, a liking, an allergy) and the phrasing ("no
  longer", "not … anymore", "don't … any more", "quit", "left", "sold", "moved out of",
  "stopped being", with or without a lead-in), the offline backend reads one ending of that
  subject's value; the same words asked, supposed, hedged or reported end nothing.
- Storing: any history of values and endings of one subject and predicate, stored in any
  order, leaves current what the history says in time order: for a single-valued predicate
  the last value unless an ending said after it names it, for a multi-valued one every value
  not ended since. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memlane.config import FactsConfig
from memlane.index.ending import ends, family, norm
from memlane.index.facts import apply_fact, end_fact
from memlane.testing import offline_summary

SUBJECTS = [("I", "user", ""), ("My sister Ana", "Ana", "My sister Ana lives nearby. "),
            ("Tom", "Tom", "")]
"""How a subject is said, who it is, and what the conversation said first to name them."""

ORGS = ["Acme", "Globex", "Initech", "Northwind Traders", "Umbrella Labs"]
CITIES = ["Leeds", "York", "Porto", "Berlin", "Kyoto"]
THINGS = ["Corolla", "bike", "piano", "kayak"]
LIKES = ["jazz", "coffee", "hiking", "board games"]


def _third(subject: str, verb: str) -> str:
    return verb if subject == "I" else {"have": "has", "do": "does"}.get(verb, verb + "s")


def _be(subject: str) -> str:
    return "I'm" if subject == "I" else f"{subject} is"


def _dont(subject: str) -> str:
    return f"{subject} don't" if subject == "I" else f"{subject} doesn't"


PHRASINGS = {
    "works_at": [
        lambda s, v: f"{s} no longer {_third(s, 'work')} at {v}.",
        lambda s, v: f"{_dont(s)} work at {v} anymore.",
        lambda s, v: f"{s} quit {'my' if s == 'I' else 'their'} job at {v}.",
        lambda s, v: f"{s} left {v} last month.",
        lambda s, v: f"{s} resigned from {v} in May.",
        lambda s, v: f"{s} got laid off from {v}.",
        lambda s, v: f"{s} quit {'my' if s == 'I' else 'their'} job.",  # any employer
    ],
    "lives_in": [
        lambda s, v: f"{s} no longer {_third(s, 'live')} in {v}.",
        lambda s, v: f"{_dont(s)} live in {v} any more.",
        lambda s, v: f"{s} moved out of {v}.",
        lambda s, v: f"{s} moved away from {v} last year.",
    ],
    "diet": [
        lambda s, v: f"{_be(s)} not {v} anymore.",
        lambda s, v: f"{_be(s)} no longer {v}.",
        lambda s, v: f"{s} stopped being {v}.",
    ],
    "allergic_to": [
        lambda s, v: f"{_be(s)} no longer allergic to {v}.",
        lambda s, v: f"{_be(s)} not allergic to {v} anymore.",
    ],
    "has": [
        lambda s, v: f"{s} sold my {v}.",
        lambda s, v: f"{s} got rid of my {v}.",
        lambda s, v: f"{s} don't have a {v} anymore.",
    ],
    "likes": [
        lambda s, v: f"{s} don't like {v} anymore.",
        lambda s, v: f"{s} no longer like {v}.",
        lambda s, v: f"{s} stopped liking {v}.",
    ],
}
POSITIVE = {
    "works_at": lambda s, v: f"{s} {_third(s, 'work')} at {v}.",
    "lives_in": lambda s, v: f"{s} {_third(s, 'live')} in {v}.",
    "diet": lambda s, v: f"{_be(s)} {v}.",
    "allergic_to": lambda s, v: f"{_be(s)} allergic to {v}.",
    "has": lambda s, v: f"{s} have a {v}.",
    "likes": lambda s, v: f"{s} like {v}.",
}
"""The statement each ending ends."""
VALUES = {"works_at": ORGS, "lives_in": CITIES, "diet": ["vegetarian", "vegan"],
          "allergic_to": ["cats", "peanuts", "shellfish"], "has": THINGS, "likes": LIKES}
FIRST_PERSON_ONLY = {"has", "likes"}
"""Read of the speaker only (``OfflineIntelligence._facts``)."""
LEADS = ["", "By the way, ", "Oh, and ", "Just so you know, "]
NOT_ENDINGS = [
    lambda s: s[:-1] + "?",                        # asked
    lambda s: "If " + s[0].lower() + s[1:-1] + ", what then?" if s.startswith("I ") else "If " + s[:-1] + ", what then?",
    lambda s: "I think " + (s[0].lower() + s[1:] if s.startswith("I ") else s),  # hedged
    lambda s: "She said " + (s[0].lower() + s[1:] if s.startswith("I ") else s),  # reported
    lambda s: 'He wrote "' + s + '" in the story.',  # quoted
]


@st.composite
def ending_case(draw):
    pred = draw(st.sampled_from(sorted(PHRASINGS)))
    subjects = SUBJECTS[:1] if pred in FIRST_PERSON_ONLY else SUBJECTS
    said, who, intro = draw(st.sampled_from(subjects))
    value = draw(st.sampled_from(VALUES[pred]))
    phrase = draw(st.sampled_from(PHRASINGS[pred]))(said, value)
    return pred, who, intro, value, phrase, POSITIVE[pred](said, value)


def _read(intro: str, text: str) -> tuple[set[tuple[str, str, str]], set[tuple[str, str, str]]]:
    turns = ([f"user: {intro}", "assistant: Nice."] if intro else []) + [f"user: {text}", "assistant: OK."]
    _, extraction = offline_summary(*turns, model=None)
    return ({(f.subject, f.predicate, f.object) for f in extraction.endings},
            {(f.subject, f.predicate, f.object) for f in extraction.facts})


def _endings(intro: str, text: str) -> set[tuple[str, str, str]]:
    return _read(intro, text)[0]


@settings(max_examples=150, deadline=None)
@given(ending_case(), st.sampled_from(LEADS))
def test_an_ending_is_read_whatever_the_subject_predicate_and_phrasing(case, lead) -> None:
    """Whenever the statement is read as a fact, each way of saying it ended is read as its
    ending (a statement the readers do not read, "Tom is vegetarian", has nothing to end)."""
    pred, who, intro, value, phrase, positive = case
    stated = {f for f in _read(intro, positive)[1] if f[0] == who and f[1] == pred}
    assume(stated)
    text = lead + (phrase[0].lower() + phrase[1:] if lead and phrase.startswith("My ") else phrase)
    read = _endings(intro, text)
    assert any(s == who and pred in family(p) and ends(norm(o), norm(f[2])) for s, p, o in read
               for f in stated), (text, read, stated)
    assert all(s == who for s, _, _ in read), (text, read)  # nobody else's value ends


@settings(max_examples=150, deadline=None)
@given(ending_case(), st.sampled_from(NOT_ENDINGS))
def test_the_same_words_asked_supposed_hedged_or_reported_end_nothing(case, wrap) -> None:
    intro, phrase = case[2], case[4]
    text = wrap(phrase)
    assert _endings(intro, text) == set(), text


def test_a_correction_without_an_ending_word_ends_nothing() -> None:
    assert _endings("", "I don't work at Globex, I work at Acme.") == set()
    assert _endings("", "Tom quit Acme.") == {("Tom", "works_at", "Acme")}


# -- storing ---------------------------------------------------------------------------
VALS = ["Acme", "Globex", "Initech"]
EVENT = st.tuples(st.sampled_from(["value", "end"]), st.sampled_from([*VALS, ""]))


def _expected(events: list[tuple[str, str, float]], single: bool) -> set[str]:
    """What a history says in time order."""
    if single:
        state: str | None = None
        for kind, value, _ in sorted(events, key=lambda e: e[2]):
            if kind == "value":
                state = value
            elif state is not None and ends(norm(value), norm(state)):
                state = None
        return {state} if state else set()
    held: set[str] = set()
    for kind, value, _ in sorted(events, key=lambda e: e[2]):
        if kind == "value":
            held.add(value)
        else:
            held = {v for v in held if not ends(norm(value), norm(v))}
    return held


_scopes = itertools.count()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(EVENT, min_size=1, max_size=7), st.randoms(use_true_random=False),
       st.sampled_from(["works_at", "likes"]))
def test_any_history_stored_in_any_order_leaves_what_it_says(store, raw, rnd, pred) -> None:
    cfg = FactsConfig()
    single = pred == "works_at"
    events = [(kind, value if kind == "end" else (value or "Acme"), 100.0 + 10 * i)
              for i, (kind, value) in enumerate(raw)]
    order = list(events)
    rnd.shuffle(order)
    scope = f"p{next(_scopes)}"
    with store.atomic():
        for kind, value, at in order:
            if kind == "value":
                def make_item(value: str = value, at: float = at) -> int:
                    (item,) = store.insert_items([{"kind": "fact", "text": f"user {pred} {value}", "at": at,
                                                   "scope": scope, "lane": "profile"}])
                    return item
                apply_fact(store, cfg, scope=scope, subject="user", predicate=pred, obj=value, source="stated",
                           at=at, session_id=None, message_id=None, make_item=make_item)
            else:
                end_fact(store, cfg, scope=scope, subject="user", predicate=pred, obj=value, at=at,
                         session_id=None, message_id=None)
    current = {f.object for f in store.list_facts(scope)}
    assert current == _expected(events, single), (events, order)
    # every retired value is kept, linked to a fact that exists
    for f in store.list_facts(scope, include_superseded=True):
        if f.status == "superseded":
            assert store.get_fact(f.superseded_by).scope == scope
