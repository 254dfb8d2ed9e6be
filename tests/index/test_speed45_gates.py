"""Session 45's cheaper forms of the offline summarizer's rules (issue #17, the speed) answer
as the forms they replace, so no output changes (``tools/summary_dump.py --check`` holds whole
summaries to the same output: 7,530 sessions, 0 differ)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues
from memlane.testing import offline_summary

PIECES = st.sampled_from(["Ravi", "Sophie", "Zoë", "Mum", "'s", "’s", "is", " is ", "will", " will ", "doing",
                          "make", "the flights", ", ", "; ", ": ", "and ", " ", "\t", "\n", "I", "s", "i", "w", "."])
TEXTS = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_the_someone_doing_pretest_passes_every_sentence_its_pattern_finds(s: str) -> None:
    """The pretest may pass a sentence the pattern does not find, never the other way round."""
    if cues._SOMEONE_DOING.search(s) is not None:
        assert cues._may_say_someone_doing(s)


def test_the_pretest_passes_the_forms_a_step_is_said_in() -> None:
    for said in ("Ravi is doing the flights.", "So, Sophie's doing the credit notes.", "Food: Mum will make the mithai."):
        assert cues._SOMEONE_DOING.search(said) is not None and cues._may_say_someone_doing(said)
    assert not cues._may_say_someone_doing("Ravi books the flights.")


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_terse_outcome_after_an_agreement_is_still_read_when_it_answers_the_assistant(model: str | None) -> None:
    """``agreed_terse_answered`` reads the answer's words only for a sentence after an agreement;
    such a sentence, taking up two of them, is still the decision, and one that is no outcome
    after an agreement is not."""
    summary, _ = offline_summary(
        "user: Which list library should I use for the 10k-row table, and do I need a debounce?",
        "assistant: TanStack Virtual handles 10k rows well; add a 250 ms debounce on the filter input.",
        "user: ok, TanStack Virtual plus a 250 ms debounce.", model=model)
    assert any("TanStack Virtual" in d for d in summary.decisions), summary.decisions
    summary, _ = offline_summary(
        "user: Which list library should I use for the 10k-row table, and do I need a debounce?",
        "assistant: TanStack Virtual handles 10k rows well; add a 250 ms debounce on the filter input.",
        "user: TanStack Virtual with a 250 ms debounce is what the last team used too.", model=model)
    assert not any(d.startswith("TanStack Virtual with") for d in summary.decisions), summary.decisions
