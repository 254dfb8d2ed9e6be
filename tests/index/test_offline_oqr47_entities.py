"""Session 47's entity rule (docs/summary-eval.md, "Session 47: heldout42's open questions,
references and entities read (oqr47)"): a unit of a size in bytes or of a frequency is no
entity, on conversations written for these tests, with the patterns alone and with the shipped
sentence model."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _UNITS, _name_of
from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_unit_of_size_or_frequency_is_no_entity(model):
    names = offline_names(
        "Priya: The cache in Zagreb is a filter of 40 MiB now. MB of RAM is what Bartek counts, not keys.",
        "Oskar: Fine. The Raspberry Pi runs at 1.8 GHz, so Bartek can test it there.",
        model=model,
    )
    assert {"Zagreb", "Bartek"} <= names, names
    assert not {"MiB", "GHz", "MB of RAM", "MB"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_ending_on_a_unit_stays_a_name(model):
    names = offline_names(
        "Helen: The club joined Archery GB in March, and Maureen pays the fee.",
        "Tom: Good, Maureen has the receipt.",
        model=model,
    )
    assert "Archery GB" in names, names


@settings(max_examples=40, deadline=None)
@given(unit=st.sampled_from(sorted(_UNITS)),
       rest=st.lists(st.sampled_from(["of", "RAM", "POST", "Cache", "Limit"]), max_size=3))
def test_every_phrase_opening_on_a_unit_names_nothing(unit, rest):
    name, kind, _ = _name_of(" ".join([unit, *rest]))
    assert kind is None, (name, kind)


@pytest.mark.parametrize("model", MODELS)
def test_an_http_header_is_no_entity(model):
    names = offline_names(
        "Priya: The shop in Tallinn still serves the old bundle. Cache-Control is missing on the HTML, Bartek says.",
        "Oskar: And the robots header, X-Robots-Tag, blocks Googlebot on staging only. Retry-After is fine.",
        model=model,
    )
    assert {"Tallinn", "Bartek"} <= names, names
    assert not {"Cache-Control", "X-Robots-Tag", "Retry-After"} & names, names


@pytest.mark.parametrize("name", ["X-Trail", "Keepsake", "Setlist", "Content"])
def test_a_name_shaped_near_a_header_stays_a_name(name):
    assert _name_of(name)[1] == "name", _name_of(name)


@settings(max_examples=40, deadline=None)
@given(first=st.sampled_from(["Cache", "Content", "Accept", "User", "Set", "If", "Last", "Keep"]),
       parts=st.lists(st.from_regex(r"[A-Z][a-z]{1,9}", fullmatch=True), min_size=1, max_size=3))
def test_every_standard_header_name_names_nothing(first, parts):
    name = "-".join([first, *parts])
    assert _name_of(name)[1] is None, _name_of(name)
