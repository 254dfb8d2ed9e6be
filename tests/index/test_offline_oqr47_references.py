"""Session 47's reference classes (docs/summary-eval.md, "Session 47: heldout42's open questions,
references and entities read (oqr47)"), on texts and conversations written for these tests."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _references
from memlane.testing import offline_summary

FOLDER = st.from_regex(r"[a-z][a-z0-9_-]{2,12}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(folder=FOLDER, before=st.sampled_from(["the scripts live in", "start with", "keep it under", "move them to"]),
       after=st.sampled_from([".", ", then stop.", " for now.", ""]))
def test_every_folder_named_alone_with_its_closing_slash_is_a_reference(folder, before, after):
    text = f"{before} {folder}/{after}"
    assert f"{folder}/" in set(_references(text)), (text, list(_references(text)))


@pytest.mark.parametrize("text", [
    "What about release/ branches though, they're ancient.",  # a prefix of branches' names
    "Bring the forms and/or the receipts.",  # a word, no folder
    "Sold w/ the case.",  # an abbreviation
    "A sed like s/const enum/enum/ does it.",  # a substitution's parts
    "Run `sed -i 's/const enum/enum/' src` once.",  # a program's words in quoted code
    "Open the Docs/ folder.",  # capitalised: a name in a file manager, read by other kinds
])
def test_a_slash_after_a_word_that_is_no_folder_is_no_folder_reference(text):
    folders = {r for r in _references(text) if r.endswith("/") and r.count("/") == 1}
    assert not folders, list(_references(text))


DOTFILE = st.from_regex(r"[a-z][a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){1,3}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(name=DOTFILE, after=st.sampled_from([" file keeps it.", " files.", ".", ", then commit."]))
def test_every_dotfile_whose_name_holds_a_hyphen_is_a_reference_even_before_file(name, after):
    text = f"Put the hashes in a .{name}{after}"
    assert f".{name}" in {r.rstrip(".,;:") for r in _references(text)}, (text, list(_references(text)))


@pytest.mark.parametrize(("text", "dotfile"), [
    ("Sunita sets DB_PORT=5433 in her .env.", ".env"),
    ("Are the old credentials still in staging's .env or in CI?", ".env"),
    ("Keep the default keys rather than copying someone's .tmux.conf.", ".tmux.conf"),
])
def test_env_and_a_dotfile_with_an_extension_are_references(text, dotfile):
    assert dotfile in {r.rstrip(".,;:") for r in _references(text)}, list(_references(text))


@pytest.mark.parametrize("text", [
    "A .env file with the key ended up in the zip.",  # a kind of file
    "We want off .env files for good.",
    "Export it as .csv and send it.",  # an extension
    "Then call .sum on the column.",  # a method
    "Add the hook to your .bash_profile.d now",  # one letter after the dot: no extension
])
def test_an_env_file_an_extension_or_a_method_is_no_dotfile_reference(text):
    assert not {r for r in _references(text) if r.startswith(".")}, list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_folder_is_a_reference_of_the_summary(model):
    summary, _ = offline_summary(
        "Nadia: The deploy notes are scattered over three wikis.",
        "Rhys: Then one checklist, kept in the repo under checklists/, and nothing else.",
        "Nadia: Agreed, I'll move them there on Friday.", model=model)
    assert "checklists/" in summary.references, summary.references
