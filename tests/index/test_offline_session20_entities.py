"""Session 20's entity and reference rules, on conversations written for these tests and run
through the offline backend, with the patterns alone and with the shipped sentence model: a
capitalised word opening a sentence that no English word spells is a name; codes after "code",
keys opening with their number, CI actions, works named by their pages and the titles listed
beside them are references."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.englishwords import is_english_word
from memlane.testing import offline_names, offline_summary

MODELS = ("shipped", None)


_names = offline_names


def test_the_shipped_word_list_knows_english_words_in_any_case_and_not_names():
    assert is_english_word("colour") and is_english_word("Color") and is_english_word("FRONT")
    assert is_english_word("going") and is_english_word("end")
    assert not is_english_word("zendesk") and not is_english_word("Kitlocker")
    assert not is_english_word("frontend")  # two words joined: the backend's own test splits it


@pytest.mark.parametrize("model", MODELS)
def test_a_word_no_dictionary_spells_opening_a_sentence_is_a_name(model):
    names = _names(
        "Anil: Lingofy quoted £28 a month for the whole team.",
        "Mei: Fine by me. Nordvik estimates about 300 extra pages a week, by the way.",
        "Anil: Kraków is where the printer is, so delivery takes a week.",
        model=model,
    )
    assert {"Lingofy", "Nordvik", "Kraków", "Anil", "Mei"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_words_joined_laughter_shorthand_and_other_languages_opening_a_sentence_are_no_names(model):
    names = _names(
        "Bea: Frontend is slow again since Friday. Storytime numbers are up though.",
        "Cal: Haha yes. Btw the deploy is done. Isn't that quick? Webhooks are going through.",
        "Bea: Inoltre, la consegna arriva domani mattina presto.",
        model=model,
    )
    assert not names & {"Frontend", "Storytime", "Haha", "Btw", "Isn", "Webhooks", "Inoltre"}
    assert {"Bea", "Cal"} <= names


_COMMON = ["front", "end", "story", "time", "web", "hook", "sign", "book", "work", "hand", "back",
           "ground", "water", "fall", "light", "house", "play", "room", "day", "side"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_COMMON), st.sampled_from(_COMMON), st.sampled_from(["", "s"]))
def test_any_two_english_words_joined_opening_a_sentence_are_no_name(first, second, plural):
    word = (first + second + plural).capitalize()
    names = _names(f"Dana: {word} was the thing we talked about at lunch.", "Eli: Right.", model=None)
    assert word not in names


@pytest.mark.parametrize("model", MODELS)
def test_a_code_named_after_code_is_a_reference(model):
    summary, _ = offline_summary(
        "Mei: The plate reader in the lab is throwing a lamp error again, code 0x2F.",
        "Joaquín: I'll put the lamp order in today, grant code R-2231-BIO.",
        "user: the boiler shows fault code EA 227 and stops. The clinic billed it as code 97140.",
        model=model,
    )
    assert {"0x2F", "R-2231-BIO", "EA 227", "97140"} <= set(summary.references)


@pytest.mark.parametrize("model", MODELS)
def test_a_short_number_after_code_is_no_reference(model):
    summary, _ = offline_summary(
        "user: the API answers with status code 404 and the code is short anyway.",
        "assistant: Then the route is wrong; check the code 12 lines above.",
        model=model,
    )
    assert not {"404", "12"} & set(summary.references)


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[A-Z]{1,3}-?[0-9]{2,5}[A-Z]{0,2}", fullmatch=True))
def test_any_code_of_letters_and_digits_after_code_is_one_reference(code):
    summary, _ = offline_summary(f"Ana: The printer shows error code {code} again.", "Ben: Noted.", model=None)
    assert code in summary.references


@pytest.mark.parametrize("model", MODELS)
def test_a_key_opening_with_its_number_is_one_reference(model):
    summary, _ = offline_summary(
        "assistant: I've blocked the card and reissued it. Your case number is 2211-KX-907.",
        "user: Thanks. I also found a 1099-INT from my savings account.",
        model=model,
    )
    refs = set(summary.references)
    assert {"2211-KX-907", "1099-INT"} <= refs
    assert "KX-907" not in refs  # its tail is that reference's part


@pytest.mark.parametrize("model", MODELS)
def test_a_ci_action_is_a_reference(model):
    summary, _ = offline_summary(
        "Mei: I'll add actions/cache to the workflow, and actions/setup-python has caching too.",
        "Olu: And pin docker/build-push-action@v5 while you're there. Answer yes/no by Friday.",
        model=model,
    )
    refs = set(summary.references)
    assert {"actions/cache", "actions/setup-python", "docker/build-push-action@v5"} <= refs
    assert "yes/no" not in refs


@pytest.mark.parametrize("model", MODELS)
def test_a_work_named_by_its_pages_is_a_reference_and_no_entity(model):
    summary, ex = offline_summary(
        "Gwen: Okay book people. Demon Copperhead is 550 pages, is that too long?",
        "Olu: Not the 900-page Middlemarch either, please. It is 40 pages too many.",
        model=model,
    )
    refs = set(summary.references)
    assert {"Demon Copperhead", "Middlemarch"} <= refs
    assert "It" not in refs
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert not names & {"Demon Copperhead", "Middlemarch"}


@pytest.mark.parametrize("model", MODELS)
def test_titles_listed_beside_a_found_title_are_references(model):
    summary, ex = offline_summary(
        "Nadia: Next month's book! Shortlist was Piranesi, The Remains of the Day and Demon Copperhead.",
        "Gareth: Demon Copperhead is 550 pages. Some of us have jobs.",
        "Imogen: Remains is short, and Piranesi is weird and perfect for November.",
        model=model,
    )
    refs = set(summary.references)
    assert {"Piranesi", "The Remains of the Day", "Demon Copperhead"} <= refs
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert not names & {"Piranesi", "Remains", "Demon Copperhead"}
    assert {"Nadia", "Gareth", "Imogen"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_list_of_names_with_no_title_found_is_no_reference(model):
    summary, _ = offline_summary(
        "Nadia: Coming on Saturday are Piotr, Hannah Weiss and Gareth Lloyd.",
        "Imogen: Great, I'll book the table at the Old Bell.",
        model=model,
    )
    assert not {"Piotr", "Hannah Weiss", "Gareth Lloyd"} & set(summary.references)


@pytest.mark.parametrize("model", MODELS)
def test_a_day_by_its_name_is_a_date_and_no_entity(model):
    _, ex = offline_summary(
        "Harriet: I worked Christmas Day last year, so I'd like Boxing Day and Christmas Eve off.",
        "Ciarán: I'll take Mon-Wed then, and Aisling does Thu-Sun. Labor Day is the one after.",
        model=model,
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert not names & {"Christmas Day", "Boxing Day", "Christmas Eve", "Mon-Wed", "Thu-Sun", "Labor Day"}
    assert {"Harriet", "Ciarán"} <= names
    dates = {e.name for e in ex.entities if e.type == "date"}
    assert {"Christmas Day", "Mon-Wed"} <= dates


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]), min_size=2, max_size=3),
       st.sampled_from(["-", " "]))
def test_any_days_written_short_together_are_no_entity(days, joiner):
    said = joiner.join(days) if joiner == " " or len(days) == 2 else "-".join(days[:2])
    names = _names(f"Nora: I can do {said} next week, the rest is booked.", "Owen: Fine.", model=None)
    assert said not in names


@pytest.mark.parametrize("model", MODELS)
def test_domains_under_more_country_endings_are_references(model):
    summary, _ = offline_summary(
        "assistant: Please check the 10:09 on cp.pt before you pay; the forum at danzaitaliana.it/forum has tips.",
        "user: ok, and r4ds.had.co.nz for the R book. Thanks!",
        model=model,
    )
    assert {"cp.pt", "danzaitaliana.it/forum", "r4ds.had.co.nz"} <= set(summary.references)
