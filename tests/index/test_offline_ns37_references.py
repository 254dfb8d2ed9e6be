"""Session 37's reference classes, from heldout32's misses (docs/summary-eval.md, "Session 37:
heldout32's next steps and references classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _references
from memlane.testing import offline_summary

_CONSTANT = st.from_regex(r"\A[A-Z][A-Z0-9]{0,7}(?:_[A-Z0-9]{1,8}){1,3}\Z")


@settings(max_examples=60, deadline=None)
@given(name=_CONSTANT,
       said=st.sampled_from(["{} got copied into prod's config", "set {} in the staging env",
                             "is {} set on the runner?", "the job reads {}, not the old one",
                             "rename it to {}."]))
def test_a_name_in_capitals_joined_by_underscores_is_a_reference(name, said):
    assert name in set(_references(said.format(name))), list(_references(said.format(name)))


@pytest.mark.parametrize("text", [
    "the created_at column has no index",  # lower case: a column said in passing
    "call drop_duplicates first",
    "see https://example.com/A_B_C",  # part of a longer reference, read as that one
    "the $HOME_DIR variable",  # a shell expansion, not the name alone
])
def test_names_joined_by_underscores_otherwise_are_no_reference_of_this_kind(text):
    assert not {r for r in _references(text) if r.isupper() and "_" in r}, list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_variable_a_conversation_names_is_among_its_references(model):
    summary, _ = offline_summary(
        "Mira: Signups dropped to zero overnight. The form posts to the old host",
        "Jonas: SIGNUP_API_BASE still points at the staging box, someone copied the env file",
        "Mira: Fix it and redeploy, then check the form by hand", model=model)
    assert "SIGNUP_API_BASE" in summary.references, summary.references
