"""Session 22's facts rules (docs/summary-eval.md, "Session 22: facts"): how the speaker works,
a move the speaker states, a birthday to come; with the shipped model and the patterns alone,
and the look-alikes that stay no fact."""

from __future__ import annotations

import pytest

from memlane.testing import offline_summary


def _facts(*turns: str, model="shipped") -> set[tuple[str, str, str]]:
    return {(f.subject, f.predicate, f.object) for f in offline_summary(*turns, model=model)[1].facts}


@pytest.mark.parametrize("model", ["shipped", None])
def test_how_the_speaker_works(model) -> None:
    assert ("user", "work_pattern", "works from home") in _facts(
        "user: Internet first then, I work from home.", "assistant: OK.", model=model)
    assert ("user", "work_pattern", "works 20 hours a week") in _facts(
        "user: I also work 20 hours a week.", "assistant: OK.", model=model)
    assert ("Declan", "work_pattern", "works from home on Mondays") in _facts(
        "Declan: I work from home on Mondays.", "Ana: Great.", model=model)
    for said in ("Should I work from home?", "If I work from home I'll need a desk.",
                 "I think I work best from home.", "I work at Acme."):
        assert not {f for f in _facts(f"user: {said}", "assistant: OK.", model=model) if f[1] == "work_pattern"}, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_move_the_speaker_states(model) -> None:
    assert ("user", "moving", "moving to Lyon in September") in _facts(
        "user: I'm moving to Lyon in September for a job.", "assistant: Exciting.", model=model)
    assert ("user", "moving", "moving from Leeds to Bristol on 14 March") in _facts(
        "user: Moving from Leeds to Bristol on 14 March.", "assistant: OK.", model=model)
    for said in ("We're moving the meeting to Friday.", "I'm thinking of moving to Leeds.",
                 "Am I moving to Leeds?", "If I'm moving to Leeds, what then?"):
        assert not {f for f in _facts(f"user: {said}", "assistant: OK.", model=model) if f[1] == "moving"}, said
    # "we" is the user's household only in a chat with the assistant
    assert not {f for f in _facts("Ana: We're moving to Kafka next quarter.", "Bo: OK.", model=model)
                if f[1] == "moving"}


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_birthday_to_come(model) -> None:
    assert ("user's father", "turns", "turns 70 next month") in _facts(
        "user: My dad turns 70 next month.", "assistant: Lovely.", model=model)
    assert ("Theo", "turns", "turns 7 on 9 June") in _facts(
        "user: My son Theo turns 7 on 9 June and wants a party.", "assistant: Fun.", model=model)
    assert ("Kasia's mother", "turns", "turns 70 on 12 July") in _facts(
        "Kasia: Mum turns 70 on 12 July.", "Ola: Yes!", model=model)
    for said in ("The road turns 90 degrees here.", "Does my dad turn 70 next month?",
                 "If my dad turns 70 next month we should plan."):
        assert not {f for f in _facts(f"user: {said}", "assistant: OK.", model=model) if f[1] == "turns"}, said


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_the_speaker_runs(model) -> None:
    assert ("user", "runs", "runs a two-chair hair salon") in _facts(
        "user: I run a two-chair hair salon and I'm drowning in DMs.", "assistant: OK.", model=model)
    assert ("user", "runs", "runs Fedora") in _facts(
        "user: need a new laptop, I run Fedora and do a lot of Rust compiles.", "assistant: OK.", model=model)
    for said in ("I run out of my levothyroxine on Saturday.", "Should I run the migration tonight?",
                 "I run late most days.", "If I run Fedora, will it work?"):
        assert not {f for f in _facts(f"user: {said}", "assistant: OK.", model=model) if f[1] == "runs"}, said
