"""Session 46's reference class (docs/summary-eval.md, "Session 46: heldout41's open questions,
references and entities read (oqr46)"): a government's form or a regulation known by its code."""

import pytest

from memlane.index.offline import _references
from memlane.testing import offline_summary


@pytest.mark.parametrize(("text", "code"), [
    ("Bring the log book so we can do the V5C change online.", "V5C"),
    ("My P60 from April shows the wrong tax code.", "P60"),
    ("Stick a CN22 on the parcel before it goes.", "CN22"),
    ("We can claim under EU261 for the delay.", "EU261"),
    ("Keep the CON29 replies with the deeds.", "CON29"),
])
def test_a_form_or_a_regulation_known_by_its_code_is_a_reference(text, code):
    assert code in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "The D1 division plays on Sundays.",  # a level, not the licence form
    "The T2 thermostat lost its schedule.",  # a product
    "It failed its MOT on the brakes.",  # a test, not a document
    "Order ref V5C2 shipped today.",  # a code of its own
])
def test_a_code_not_listed_as_a_form_is_no_form_reference(text):
    assert not {"D1", "T2", "MOT", "V5C"} & set(_references(text)), list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_form_is_a_reference_of_the_summary(model):
    summary, _ = offline_summary(
        "Kirsty: Gran's Fiesta is ours now, Mum says.",
        "Euan: Then take the log book from Mum's so we can do the V5C change online.",
        "Kirsty: I'll do it tonight.", model=model)
    assert "V5C" in summary.references, summary.references
