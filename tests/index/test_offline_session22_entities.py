"""Session 22's entity and reference rules (docs/summary-eval.md, "Session 22: topics, references
and entities"), on conversations written for these tests, with the patterns alone and with the
shipped sentence model: a "Label:" head that is a name is kept; a rooted path from a capitalised
folder or with a part in braces, a dotfile and a glob's file are references; a number after a name
that is an amount or a score is no version; an English word opening a quotation is no name."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_names, offline_summary

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_label_head_that_is_a_name_is_kept(model):
    names = offline_names(
        "user: two offers to pick from by friday. Northwind Freight: senior analyst, £58k, remote. "
        "Kestrova Health: analytics lead, £54k, hybrid.",
        "assistant: Have you asked Kestrova whether they can move on salary? Proposal: ask both.",
        model=model,
    )
    assert {"Northwind Freight", "Kestrova Health"} <= names
    assert "Proposal" not in names


@pytest.mark.parametrize("model", MODELS)
def test_rooted_paths_from_a_capitalised_folder_or_with_braces_are_references(model):
    s, _ = offline_summary(
        "Noa: the rough cut is up in Dropbox, /Episodes/047/rough_v1.wav. it runs long.",
        "Jarrah: and the pentest found an IDOR on /api/v2/invoices/{id} that we fix first.",
        model=model,
    )
    assert {"/Episodes/047/rough_v1.wav", "/api/v2/invoices/{id}"} <= set(s.references)
    assert "Episodes" not in s.entities
    assert "Dropbox" in s.entities


@pytest.mark.parametrize("model", MODELS)
def test_a_dotfile_and_a_globs_file_are_references(model):
    s, _ = offline_summary(
        "user: the cache key is ${{ hashFiles('**/pnpm-lock.yaml') }} and Jonas set a store-dir in .npmrc",
        "assistant: Keep .npmrc as it is; the key changes only when the lockfile does. Save the export as "
        ".xlsx or as .docx files, and keep the original string as .raw on the error.",
        model=model,
    )
    assert {"pnpm-lock.yaml", ".npmrc"} <= set(s.references)
    assert not {".xlsx", ".docx", ".raw"} & set(s.references)


@settings(max_examples=40, deadline=None)
@given(st.from_regex(r"[a-z][a-z0-9_-]{3,10}[a-z0-9]", fullmatch=True))
def test_any_dotfile_of_five_characters_or_more_is_a_reference(name):
    s, _ = offline_summary(f"user: I put the token in .{name} last week.", "assistant: ok", model=None)
    assert f".{name}" in s.references


@pytest.mark.parametrize("model", MODELS)
def test_a_number_after_a_name_that_is_an_amount_or_a_score_is_no_version(model):
    names = offline_names(
        "user: my cards: Amex 900 at 29.9% and a store card from Argos 450 at 34.9%. Kai pays 164, "
        "Annelise 124 each.",
        "Dana: Scores in Greenhouse: Abdi 4, Rhiannon 2. We are on Postgres 16 and Godot 4.",
        model=model,
    )
    assert {"Amex", "Argos", "Annelise", "Abdi"} <= names
    assert not {"Amex 900", "Argos 450", "Annelise 124", "Abdi 4"} & names
    assert "Postgres 16" in names  # a version still


@pytest.mark.parametrize("model", MODELS)
def test_an_english_word_opening_a_quotation_is_no_name(model):
    names = offline_names(
        "Chidi: Apple rejected the build. rewrite the prompt to 'Used to show nearby pickup points' and "
        "the release note to \"Built for the new map\".",
        "Hana: fine, the ticket says 'Kestrova approved the copy' already.",
        model=model,
    )
    assert not {"Used", "Built"} & names
    assert "Kestrova" in names  # a name no dictionary spells, opening a quotation, is still one
