"""Session 53 (dec53), decisions (docs/summary-eval.md, "Session 53: decisions, the assistant's
advice taken up (dec53)"): with the assistant, the user agreeing at the head of the next turn
takes up the one sentence of a long answer that shares most words with the user's turn, when it
recommends or tells what to do; "Done" after an answer with one instruction takes that up; an
agreement with a sentence that only tells something decides nothing of it."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


def _elsewhere(summary):
    return (*summary.rationale, *summary.open_questions, *summary.next_steps, *summary.action_items)


@pytest.mark.parametrize("model", _WAYS)
def test_the_advice_the_user_agrees_to_is_a_decision(model):
    summary, _ = offline_summary(
        "user: My sourdough loaves spread flat in the oven every time.",
        "assistant: That usually means the dough is too wet for your flour. Supermarket bread flour takes less "
        "water than the strong Canadian flours most recipes assume. Over-proofing makes it worse, especially in "
        "a warm kitchen. I'd drop the hydration to 70% and shape the loaf tighter before the final proof. A "
        "banneton also helps it hold its shape.",
        "user: Makes sense, a tighter loaf at 70% hydration on Saturday.", model=model)
    assert summary.decisions == ("Drop the hydration to 70% and shape the loaf tighter before the final proof.",), \
        summary.decisions
    assert not any("hydration" in x for x in _elsewhere(summary)), _elsewhere(summary)


@pytest.mark.parametrize("model", _WAYS)
def test_the_one_instruction_the_user_did_is_a_decision(model):
    summary, _ = offline_summary(
        "user: The app build fails with a missing signing key since the CI update.",
        "assistant: The runner lost the secret when the workflow file moved to the new folder. Secrets are bound "
        "to the environment name, and the new workflow uses a different one. The old environment still holds the "
        "key. I'd copy the key into the new environment as ANDROID_SIGNING_KEY. The next run will pick it up.",
        "user: Done, the build is green again.", model=model)
    assert summary.decisions == ("Copy the key into the new environment as ANDROID_SIGNING_KEY.",), summary.decisions


@pytest.mark.parametrize("model", _WAYS)
def test_agreeing_with_what_the_answer_tells_decides_nothing_of_it(model):
    summary, _ = offline_summary(
        "user: Which train should I get to Leeds on Friday?",
        "assistant: Both run every Friday afternoon from platform 4. The 13:40 is often full by York. The 14:10 "
        "train is usually quieter than the 13:40 and only ten minutes slower. Advance fares on both are similar. "
        "Seat reservations close two hours before.",
        "user: OK, good to know about the 14:10 train.", model=model)
    assert not any("quieter" in x for x in summary.decisions), summary.decisions
