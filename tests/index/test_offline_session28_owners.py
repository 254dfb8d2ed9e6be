"""Session 28: the owner of a next step named with letters outside ASCII. The owner and
addressee patterns of ``index/cues.py`` read ``[A-Z][a-z]+``, so "Zoë will send it" and "José,
can you book the room?" gave no owner (or no step) where "Zoe" and "Jose" gave one; they read a
capitalised word of any script now (``normalize.NAME_WORD``), composed or typed as a letter and
its combining mark. Both ways the offline backend runs."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.score import strip_owner
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_NAMES = ["Zoë", "José", "Łukasz", "Émile", "Søren", "Björn", "Çağan", "Åsa", "Chloé", "Anaïs", "Renée",
          "Jürgen", "François", "Małgorzata", "Ólafur", "Íñigo", "Žofia", "Ştefan", "Dagnÿ", "Ørjan"]


@st.composite
def _names(draw):
    """A name holding a letter outside ASCII (composed, or typed as a letter and its combining
    mark), and its ASCII spelling (the marks dropped, "ł" "l", "ø" "o")."""
    name = draw(st.sampled_from(_NAMES))
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    plain = plain.translate(str.maketrans("łŁøØ", "lLoO"))
    if draw(st.booleans()):
        name = unicodedata.normalize("NFD", name)
    return name, plain


_FORMS = [
    ("Maya: We need the venue contract signed before Friday.", "{n}: I can look at it tonight.",
     "Maya: {n} will send the signed contract to the venue by Friday."),
    ("Maya: The room for the review isn't booked yet.", "{n}: I'm around all week.",
     "Maya: {n}, can you book the room for Tuesday?"),
    ("Maya: The calendar draft is done.", "{n}: Looks fine to me.",
     "Maya: {n}, send the final calendar to the whole team."),
    ("Maya: The slides need a last pass.", "{n}: I have time tomorrow.",
     "Maya: Great. {n} will finish the slides for the board by Thursday."),
]
"""The last form opens a sentence on the name after a stop: a capital of any script opens a
sentence as "A" to "Z" do (``offline._SENT``, session 28); "Great. Łukasz will…" ran on as one
sentence before."""


def _owned(summary):
    return sorted(s for s in (*summary.next_steps, *summary.action_items))


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("form", range(len(_FORMS)))
@settings(max_examples=25, deadline=None)
@given(names=_names())
def test_a_name_outside_ascii_owns_the_step_its_ascii_spelling_owns(model, form, names):
    name, ascii_name = names
    accented, _ = offline_summary(*(t.format(n=name) for t in _FORMS[form]), model=model)
    plain, _ = offline_summary(*(t.format(n=ascii_name) for t in _FORMS[form]), model=model)
    assert any(s.startswith(f"{ascii_name}: ") for s in _owned(plain)), _owned(plain)
    assert _owned(accented) == [s.replace(ascii_name, name) for s in _owned(plain)]


@pytest.mark.parametrize("model", WAYS)
def test_zoe_and_jose_own_their_steps(model):
    summary, _ = offline_summary(
        "Maya: We need the venue contract signed and the room booked.",
        "Zoë: I can do the contract.",
        "Maya: Zoë will send the signed contract to the venue by Friday.",
        "Maya: José, can you book the room for Tuesday?",
        "José: Sure.",
        model=model)
    steps = _owned(summary)
    assert any(s.startswith("Zoë: ") and "contract" in strip_owner(s) for s in steps), steps
    assert any(s.startswith("José: ") and "room" in strip_owner(s) for s in steps), steps
