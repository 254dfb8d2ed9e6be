"""Session 39's entity rules (docs/summary-eval.md, "Session 39: entities (ent39)"), on
conversations written for these tests, with the patterns alone and with the shipped sentence
model: an owner's possessive before a thing that is a name of its own makes two names, a
relative's thing is named alone, and a number after a name's "'s" is no version."""

import pytest

from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_an_owner_and_the_named_thing_it_owns_are_two_names(model):
    names = offline_names(
        "Priya: the alerts stopped after Tomasz's Grafanix update, and we still can't open Kestrel's Zentrova dashboard.",
        "Oskar: I'll borrow Dad's Vauxhall on Friday and bring the laptop over.",
        model=model,
    )
    assert {"Tomasz", "Grafanix", "Kestrel", "Zentrova", "Vauxhall"} <= names
    assert not {"Tomasz's Grafanix", "Kestrel's Zentrova", "Dad's Vauxhall", "Dad"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_firm_or_a_work_named_by_a_possessive_stays_one_name(model):
    names = offline_names(
        "Priya: I got the brackets from Hartwell's Garage, and the quote from Pellings's Plumbing.",
        "Oskar: the hall is next to St Cuthbert's Allerby. Carer's Allowance covers it.",
        model=model,
    )
    assert {"Hartwell's Garage", "Pellings's Plumbing", "St Cuthbert's Allerby", "Carer's Allowance"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_number_after_a_names_s_is_no_version(model):
    names = offline_names(
        "Priya: Ottilie's 11 now and wants her own board.",
        "Oskar: Brennick's 14 weeks late on the lamp, so ask Ottilie's school for the loan one.",
        model=model,
    )
    assert {"Ottilie", "Brennick"} <= names
    assert not {"Ottilie's 11", "Brennick's 14", "Ottilie 11"} & names


@pytest.mark.parametrize("model", MODELS)
def test_several_of_one_product_are_named_in_the_singular(model):
    names = offline_names(
        "Priya: the blocker is the Norvex KR2210s, they need firmware first. We also have 30 Chromebooks to image.",
        "Oskar: and the two Talvions on ward 4 keep alarming. Jonas says the 3 Mbps line is fine.",
        model=model,
    )
    assert {"Norvex KR2210", "Chromebook", "Talvion", "Jonas"} <= names
    assert not {"Norvex KR2210s", "Chromebooks", "Talvions", "Jona", "Mbp"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_place_named_by_a_name_and_its_kind_is_one_name(model):
    names = offline_names(
        "Priya: the samples went to the Okonjo lab, and the quiz is at Larkhill community centre.",
        "Oskar: parking at the Dunmere retail park, then walk past Tregarth racecourse. The Facebook group agrees.",
        model=model,
    )
    assert {"Okonjo lab", "Larkhill community centre", "Dunmere retail park", "Tregarth racecourse"} <= names
    assert not {"Okonjo", "Larkhill", "Dunmere", "Tregarth", "Facebook group"} & names


@pytest.mark.parametrize("model", MODELS)
def test_more_organisations_known_by_their_letters_are_names(model):
    names = offline_names(
        "Priya: the clinic said the NHS won't fund it, so I wrote to the FSA and to UKHSA as well.",
        "Oskar: the grant is from the AHRC, and the OWASP page covers the API and the CSV part. WHO knows.",
        model=model,
    )
    assert {"NHS", "FSA", "UKHSA", "AHRC", "OWASP"} <= names
    assert not {"API", "CSV", "WHO"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_product_said_with_two_numbers_is_the_product(model):
    names = offline_names(
        "Priya: the wheel breaks on Quillstone 1 but works on Quillstone 2, so pin it for now.",
        "Oskar: fine. Beds on Ward 7 and Ward 12 are free, and the Zentrova 3 fix ships Friday.",
        model=model,
    )
    assert {"Quillstone", "Zentrova 3"} <= names
    assert not {"Quillstone 1", "Quillstone 2", "Ward"} & names
