"""Session 19's entity and reference rules, on conversations written for these tests and run
through the offline backend, with the patterns alone and with the shipped sentence model: a
pull request named with its number ("PR #2284") is one reference with its kind."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

MODELS = ("shipped", None)


def _names(*turns, model="shipped"):
    _, ex = offline_summary(*turns, model=model)
    return {e.name for e in ex.entities if e.type not in ("date", "reference")}


@pytest.mark.parametrize("model", MODELS)
def test_a_pull_request_with_its_number_is_one_reference(model):
    summary, _ = offline_summary(
        "Kenji: Reviewing PR #2284 now, the migration adds a column.",
        "Ama: Thanks. And issue #1187 is the one it closes.",
        model=model,
    )
    assert "PR #2284" in summary.references
    assert "#2284" not in summary.references  # the number is that reference's part
    assert "#1187" in summary.references  # an issue keeps its number alone, as before


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=100, max_value=999_999))
def test_any_pull_request_number_after_pr_and_a_hash_is_named_with_its_kind(number):
    summary, _ = offline_summary(f"Kenji: I left comments on PR #{number} this morning.", "Ama: Great.",
                                 model=None)
    assert f"PR #{number}" in summary.references
    assert f"#{number}" not in summary.references
