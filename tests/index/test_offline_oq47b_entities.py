"""Session 47's second-round entity rules (docs/summary-eval.md, "Session 47: heldout43's open
questions and entities read (oq47b)"): a common noun named by a capital letter and a lower-case
word ("T-shirts", "X-ray") and a numbered place ("Division 2", "Grade II", "Part Two") are no
entities, on conversations written for these tests, with the patterns alone and with the shipped
sentence model."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _NUMBERED_KINDS, _NUMBERED_MORE, _name_of
from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_letter_and_a_word_is_no_entity(model):
    names = offline_names(
        "Marta: The dentist in Gdansk wants an X-ray first. U-bends under the sink leak too, Tomasz says.",
        "Tomasz: Fine. I'll bring the G-clamps and the spare T-shirts from Bristol.",
        model=model,
    )
    assert {"Gdansk", "Tomasz", "Bristol"} <= names, names
    assert not {"X-ray", "U-bends", "G-clamps", "T-shirts"} & names, names


@pytest.mark.parametrize("name", ["A-ha", "Jay-Z", "X-Trail", "Coca-Cola"])
def test_a_name_with_a_hyphen_stays_a_name(name):
    assert _name_of(name)[1] == "name", _name_of(name)


@settings(max_examples=40, deadline=None)
@given(letter=st.from_regex(r"[A-Z]", fullmatch=True), word=st.from_regex(r"[a-z]{3,9}", fullmatch=True))
def test_every_letter_and_lower_case_word_names_nothing(letter, word):
    name = f"{letter}-{word}"
    assert _name_of(name)[1] is None, _name_of(name)


@pytest.mark.parametrize("model", MODELS)
def test_a_numbered_place_is_no_entity(model):
    names = offline_names(
        "Ines: The hockey club in Ghent is moving up to Division 1. The chapel by the Tanner yard is Grade II listed.",
        "Ruairi: Good. Ines should read Part Two of the rules, and Ruairi's son is on Stage 4 of his lessons.",
        model=model,
    )
    assert {"Ghent", "Ines"} <= names, names
    assert not {"Division 1", "Grade II", "Part Two", "Stage 4"} & names, names


@pytest.mark.parametrize("name", ["Stage Electrics", "Division Street", "Plan B"])
def test_a_kind_word_without_a_number_stays_a_name(name):
    assert _name_of(name)[1] == "name", _name_of(name)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(sorted(_NUMBERED_KINDS | _NUMBERED_MORE)),
       number=st.sampled_from(["II", "IV", "Two", "Twelve", "3", "14"]))
def test_every_numbered_kind_with_a_number_names_nothing(kind, number):
    assert _name_of(f"{kind} {number}")[1] is None, _name_of(f"{kind} {number}")
