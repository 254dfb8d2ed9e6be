"""Session 16's rules on next steps (docs/summary-eval.md, "Session 16: next steps and open
questions"), each on a small conversation written for these tests. Each test checks both ways
the backend runs (the patterns alone, and with the shipped sentence model) and that small
talk stays out."""

import pytest

from memlane.testing import checked_summary as _summary

MODELS = pytest.mark.parametrize("model", [None, "shipped"], ids=["patterns", "default"])


@MODELS
def test_a_remark_after_a_commitment_is_not_the_step(model):
    s = _summary(
        model,
        "Dorota: The walk-in fridge was at 9 degrees again this morning.",
        "Rosa: I'll call Coldline first thing tomorrow, last time it was ticket CL-5520.",
        "Ewa: I'll move the dairy to the reach-in fridges tonight, they have room.",
        "Dorota: Thanks both.",
    )
    assert "Rosa: I'll call Coldline first thing tomorrow." in s.action_items
    assert "Ewa: I'll move the dairy to the reach-in fridges tonight." in s.action_items
    assert not any("ticket" in a or "have room" in a for a in s.action_items)


@MODELS
def test_a_commitment_with_two_clauses_of_its_own_keeps_them(model):
    s = _summary(
        model,
        "Dorota: The walk-in fridge was at 9 degrees again this morning.",
        "Rosa: I'll call Coldline tomorrow and ask for the engineer who came in May.",
        "Dorota: Thanks.",
    )
    assert any(a.startswith("Rosa: I'll call Coldline tomorrow and ask") for a in s.action_items)


@MODELS
def test_a_named_taker_said_only_once_owns_the_step(model):
    # "Priya" is no speaker and is written nowhere else: the step verb says she is someone
    s = _summary(
        model,
        "Maya: We need a CI system for the monorepo. Jenkins keeps breaking.",
        "Tom: I would propose Buildkite, it runs on our own machines.",
        "Maya: Agreed, let's go with Buildkite. Priya will set up the pipeline in the infra repo.",
    )
    assert "Priya: Set up the pipeline in the infra repo." in s.action_items
    assert any("Buildkite" in d for d in s.decisions)


@MODELS
def test_a_named_taker_alone_in_a_turn_owns_the_step(model):
    s = _summary(
        model,
        "Maya: We need a CI system for the monorepo.",
        "Tom: Buildkite then.",
        "Maya: Priya will set up the pipeline in the infra repo.",
    )
    assert s.action_items == ("Priya: Set up the pipeline in the infra repo.",)


@MODELS
def test_what_a_thing_will_do_is_no_step(model):
    s = _summary(
        model,
        "Maya: The WAL disk is at 95 percent.",
        "Tom: Writes will stop soon. Builds will take longer too. Sales will hate the downtime.",
    )
    assert s.action_items == () and s.next_steps == ()


@MODELS
def test_a_list_after_a_commitment_stays_in_the_step(model):
    s = _summary(
        model,
        "Dorota: Nan's ninetieth is on Sunday.",
        "Ewa: I'll ask him about his garden, his friends, and what school was like in his town.",
        "Rosa: I'll ask Sophia, the woman from the choir, if she'd like to sing a song.",
    )
    assert any("his friends" in a for a in s.action_items)
    assert any("if she'd like to sing" in a for a in s.action_items)
