"""Session 48's entity rule (docs/summary-eval.md, "Session 48: heldout43's open questions,
references and entities read (oqr48)"): a name with a lower-case particle of another language
between its capitalised words ("Ponte di Legno", "Castell y Bere", "Rio del Mar") is one name,
not its two halves, on a conversation written for this test, with the patterns alone and with the
shipped sentence model."""

import pytest

from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_name_with_a_particle_is_one_name(model):
    names = offline_names(
        "Oskar: For the spring trip I'd like a day walking up to Castell y Bere, then the drive to Dolgellau.",
        "Wiebke: Fine, but the ski week stays at Ponte di Legno, and Oskar books the flat at Rio del Mar for July.",
        model=model,
    )
    assert {"Castell y Bere", "Ponte di Legno", "Rio del Mar", "Dolgellau"} <= names, names
    assert not {"Castell", "Bere", "Ponte", "Legno", "Rio", "Mar"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_an_english_word_between_names_still_parts_them(model):
    names = offline_names(
        "Oskar: Wiebke and Dolgellau's walking club meet at Barmouth on Sunday.",
        model=model,
    )
    assert {"Wiebke", "Barmouth"} <= names, names
