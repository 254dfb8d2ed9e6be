"""Session 40's entity rules (docs/summary-eval.md, "Session 40: entities (ent40)"), on
conversations written for these tests, with the patterns alone and with the shipped sentence
model."""

import pytest

from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_firm_named_by_its_possessive_keeps_it_after_by_a_verb_or_a_line_end(model):
    names = offline_names(
        "Priya: the rewiring is quoted at £4,200 by Pellow's\nWe got the scaffold from Tamsett's",
        "Oskar: second quote in. Morgan's want £900 for the boiler. Last year's van from Ockford's was £300.",
        model=model,
    )
    assert {"Pellow's", "Tamsett's", "Morgan's", "Ockford's"} <= names
    assert not {"Pellow", "Tamsett", "Morgan", "Ockford"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_persons_possessive_stays_the_person(model):
    names = offline_names(
        "Priya: Tomasz's van was quoted by Pellow's garage, and Ifeoma's is the blue one.",
        "Oskar: ask Tomasz, he said the Ockford's quote was fine.",
        model=model,
    )
    assert {"Tomasz", "Ifeoma"} <= names
    assert not {"Tomasz's", "Ifeoma's"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_opening_with_a_verbs_word_keeps_it_before_its_own_verb(model):
    names = offline_names(
        "Priya: Post Office Ltd have written to say the counter closes in May.",
        "Oskar: Book Club is full this month. Post the Tarrant letter today.",
        model=model,
    )
    assert {"Post Office Ltd", "Book Club", "Tarrant"} <= names
    assert not {"Office Ltd", "Club", "Post the Tarrant"} & names


@pytest.mark.parametrize("model", MODELS)
def test_a_controls_label_a_step_touches_is_no_name(model):
    names = offline_names(
        "Priya: in Borrowly open Shelf, then after tapping Return the loan is gone.",
        "Oskar: right-click the file, tick Unblock at the bottom, then open Spotify again.",
        model=model,
    )
    assert {"Borrowly", "Spotify"} <= names
    assert not {"Shelf", "Return", "Unblock"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_apps_screen_or_menu_entry_is_no_name(model):
    names = offline_names(
        "Priya: you can add it in the Trekkly app under Extras, and upload it in the app under Profile, then Documents.",
        "Oskar: syncing the Kobo from Settings would pull it, and Preferences has the font size.",
        model=model,
    )
    assert {"Trekkly", "Kobo"} <= names
    assert not {"Extras", "Profile", "Documents", "Settings", "Preferences"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_opening_words_name_ends_before_the_subjects_the(model):
    names = offline_names(
        "Priya: In Scotland the NHS timetable moved to May.",
        "Oskar: For Darktable the Yoga 9 screen is better.",
        model=model,
    )
    assert {"Scotland", "NHS", "Darktable", "Yoga 9"} <= names
    assert not {"Scotland the NHS", "Darktable the Yoga 9"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_adverb_opening_the_sentence_is_no_part_of_the_name(model):
    names = offline_names(
        "Priya: Apparently Leila's mum is driving them down. Mainly Jupiter, and the moon with Idris.",
        "Oskar: Butterfly Centrefold tables are the league standard, Tessaly said.",
        model=model,
    )
    assert {"Leila", "Jupiter", "Idris", "Butterfly Centrefold"} <= names
    assert not {"Apparently Leila", "Mainly Jupiter", "Centrefold"} & names


@pytest.mark.parametrize("model", MODELS)
def test_an_apology_before_a_name_is_no_part_of_it(model):
    names = offline_names(
        "Priya: Sorry Tavish, the ferry is full.",
        "Oskar: Thanks Priya, we'll go via Oban.",
        model=model,
    )
    assert {"Tavish", "Oban"} <= names
    assert "Sorry Tavish" not in names
