"""Session 23's entity and reference rules (docs/summary-eval.md, "Session 23: entities and
references"), on conversations written for these tests, with the patterns alone and with the
shipped sentence model: a shop or a firm named by its owner's possessive keeps its "'s"; a work
named by a chapter of it or by its author is a reference; a thing's lower-case name with its
number, in two parts, is a reference."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_names, offline_summary

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_shop_named_by_its_owners_possessive_keeps_the_s(model):
    names = offline_names(
        "Ines: we're out of hake again. I rang Pellow's this morning, they can do Thursdays.",
        "Marek: fine, order from Pellow's from next week then. Bronagh said the same at Tresco's, lol.",
        model=model,
    )
    assert {"Pellow's", "Tresco's"} <= names
    assert not {"Pellow", "Tresco"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_person_or_a_relative_with_a_possessive_is_no_shop(model):
    names = offline_names(
        "Ines: dinner at Bronagh's on Friday? Bronagh said she'd cook.",
        "Marek: can't, we're at Grandma's, and Marek's car is in for its MOT.",
        model=model,
    )
    assert "Bronagh" in names
    assert not {"Bronagh's", "Grandma's", "Marek's"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_work_named_by_a_chapter_of_it_or_by_its_author_is_a_reference(model):
    s, _ = offline_summary(
        "Noor: should we go through chapter 7 of Understanding Regression first, or past papers?",
        "Tomasz: past papers. And the author of Salt and Circuit said yes to episode 48!",
        model=model,
    )
    assert {"Understanding Regression", "Salt and Circuit"} <= set(s.references)
    assert "Understanding Regression" not in s.entities


@pytest.mark.parametrize("model", MODELS)
def test_a_lower_case_name_with_its_number_is_a_reference(model):
    s, _ = offline_summary(
        "Tamsin: the retries all came from worker-7, and sched-2 fired twice at 09:00.",
        "Obi: in mid-2021 we saw the same. It's utf-8 and the over-65 rate is fine.",
        model=model,
    )
    refs = set(s.references)
    assert {"worker-7", "sched-2"} <= refs
    assert not {"mid-2021", "utf-8", "over-65"} & refs


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[a-z]{3,8}", fullmatch=True).filter(lambda w: w not in {"mid", "over", "under", "utf",
                                                                                   "covid", "post", "aged", "ages"}),
       st.integers(min_value=1, max_value=999))
def test_any_lower_case_name_with_a_small_number_is_a_reference(name, number):
    s, _ = offline_summary(f"user: the job on {name}-{number} failed again.", "assistant: ok", model=None)
    assert f"{name}-{number}" in s.references


@pytest.mark.parametrize("model", MODELS)
def test_a_name_joined_to_an_adjectives_ending_is_no_name_but_its_head_may_be(model):
    names = offline_names(
        "Kenji: we still don't know whether the picker crash is Vantorola-only or hits every phone.",
        "Lucía: the worker got OOM-killed twice, and is VPN-only access enough for the admin UI?",
        "Kenji: going SIM-only next month anyway. Crash-free sessions dropped to 97%.",
        "Lucía: and the Moroccan-inspired menu for the launch is eco-friendly, Eco-friendly even.",
        model=model,
    )
    assert "Vantorola" in names
    assert not {"Vantorola-only", "OOM-killed", "VPN-only", "SIM-only", "VPN", "SIM", "Crash-free", "Crash",
                "Moroccan-inspired", "Moroccan", "Eco-friendly", "Eco"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_english_word_labelling_a_button_or_a_header_is_no_name(model):
    names = offline_names(
        "Yara: the contrast on the Pay button fails, and the Accept header is ignored by Kestrova's gateway.",
        "Sven: I'll fix the Pay button and add a Deprecation header today. The Klarna button is fine.",
        model=model,
    )
    assert not {"Pay", "Accept", "Deprecation"} & names
    assert {"Klarna", "Kestrova"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_type_declared_or_derived_in_code_is_no_name(model):
    names = offline_names(
        "user: I have a struct Renderer that holds a glyph cache, and the API returns data: Order[] here.",
        "assistant: Then derive Clone on Token, or wrap the cache in Quillmark's own handle.",
        model=model,
    )
    assert not {"Renderer", "Order", "Clone"} & names
    assert "Quillmark" in names
