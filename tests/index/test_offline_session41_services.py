"""Session 41's lower-case services (docs/summary-eval.md, "Session 41: references and entities
(refent41)"), on conversations written for these tests, with the patterns alone and with the
shipped sentence model."""

import pytest

from memlane.index.englishwords import is_english_word
from memlane.index.offline import _SOFTWARE_ANY, _common_noun
from memlane.index.software import SOFTWARE
from memlane.index.software_words import SERVICES, SOFTWARE_WORDS, TOOLS
from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_well_known_service_written_in_lower_case_is_a_name(model):
    names = offline_names(
        "Tomasz: i've been doing three lessons a week on preply and logging runs on strava.",
        "Ines: sell the bike on vinted, and send the receipt from my hotmail to the club.",
        model=model,
    )
    assert {"preply", "strava", "vinted", "hotmail"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_service_said_as_a_common_noun_or_inside_an_address_is_no_name(model):
    names = offline_names(
        "Tomasz: we missed the last train so we grabbed an uber. Next week I'll skip the parkrun.",
        "Ines: the link is https://vinted.co.uk/items and the file is strava_export.csv.",
        model=model,
    )
    assert not {"uber", "parkrun", "vinted", "strava"} & names


@pytest.mark.parametrize("sentence, name, expected", [
    ("we grabbed an uber.", "uber", True),
    ("I'll just do the parkrun", "parkrun", True),
    ("order the giffgaff SIM today", "giffgaff", False),
    ("she found a tutor on italki.", "italki", False),
    ("bathe uber.", "uber", False),
])
def test_an_article_and_a_clause_ending_make_a_common_noun(sentence, name, expected):
    start = sentence.index(name)
    assert _common_noun(sentence, start, start + len(name)) is expected


def test_the_services_list_holds_no_english_word_nor_a_name_listed_already():
    assert all(not is_english_word(n) for n in SERVICES)
    assert all(len(n) > 2 for n in SERVICES)
    assert not SERVICES & (SOFTWARE | SOFTWARE_WORDS | TOOLS)
    assert SERVICES <= _SOFTWARE_ANY
