"""Money the speaker has or has got, said with where it is held, is a fact the speaker stated
(docs/summary-eval.md "Session 56: facts, money the speaker holds (fct56b)"): "We've got £640 in
the association kitty", "We have 1,150 in the kitty", "I've got about £12k sitting in a saver".
Until then the speaker's "have" and "got" kept a number only when a word after it named what it
counted ("We run 14 vans"): an amount of money, or a bare number held "in" something, was dropped.
Money said without having ("We're at £612", "We pay the caller £50 a night") is none. The first
test fails at the base."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _said(extraction) -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in extraction.facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_money_the_speaker_holds_is_a_fact(model):
    _, extraction = offline_summary(
        "Moira: Where are we with the bowls club float?",
        "Derek: We've got £640 in the association kitty.",
        "Moira: And we have 1,150 in the hut fund.",
        "Derek: I've got about £12k sitting in a Zopa saver myself.", model=model)
    said = _said(extraction)
    assert ("team", "stated", "£640 in the association kitty") in said, said
    assert ("team", "stated", "1,150 in the hut fund") in said, said
    assert ("Derek", "stated", "about £12k sitting in a Zopa saver myself") in said, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_money_said_without_having_is_no_held_fact(model):
    _, extraction = offline_summary(
        "Moira: How is the bulk order going?",
        "Derek: We're at £612 on the order form.",
        "Moira: We pay the caller £50 a night.", model=model)
    objects = {f.object for f in extraction.facts}
    assert not any("612" in o or "£50" in o for o in objects), objects
