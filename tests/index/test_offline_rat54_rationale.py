"""Session 54 (rat54), rationale (docs/summary-eval.md, "Session 54: rationale, the cap and the
undecided (rat54)"): the summary keeps eight reasons, as it keeps eight decisions (five before);
without the sentence model, where no decision is kept, a participant's reason said plainly stands
(``_Reader.reasons_undecided``): among people one said with "so / because / since", with the
assistant the user's statement of a reason after the opening turn."""

import pytest

from memlane.testing import offline_summary

_WAYS = ["shipped", None]


@pytest.mark.parametrize("model", _WAYS)
def test_a_sixth_reason_is_kept(model):
    summary, _ = offline_summary(
        "Ana: The café raised its room fee to £40 a night last month. The noise from the coffee machine "
        "drowned out half of last week's talk.",
        "Ben: It only seats eight people and we're fourteen now. Parking there was never easy, with only three spaces.",
        "Ana: Let's move the book club to the library from March.",
        "Cleo: The library room costs nothing for groups of under 20 people. It has a projector already, "
        "and the chairs are better than the stools.",
        model=model)
    assert any("library" in d for d in summary.decisions), summary.decisions
    assert len(summary.rationale) == 6, summary.rationale
    assert any("projector" in r for r in summary.rationale), summary.rationale


def test_among_people_a_reason_said_with_so_stands_where_nothing_is_decided():
    # no reader takes "the fair goes in a marquee" as a decision; its reason is said with ", so"
    summary, _ = offline_summary(
        "Rhian: The hall's boiler has packed in, so the craft fair won't be warm enough indoors this year.",
        "Tomasz: The green has room for a marquee.",
        "Rhian: Fair enough.",
        model=None)
    assert not summary.decisions, summary.decisions
    assert any("boiler has packed in" in r for r in summary.rationale), summary.rationale


def test_with_the_assistant_the_users_later_reason_stands_where_nothing_is_decided():
    summary, _ = offline_summary(
        "user: Which grass seed for a back garden?",
        "assistant: For heavy wear a ryegrass mix, for looks the fine fescues.",
        "user: The kids play football on it for 3 hours a day after school.",
        "assistant: Ryegrass takes that wear best.",
        "user: Makes sense, thanks.",
        model=None)
    assert not summary.decisions, summary.decisions
    assert any("football" in r for r in summary.rationale), summary.rationale


def test_with_the_assistant_the_opening_is_no_reason_where_nothing_is_decided():
    summary, _ = offline_summary(
        "user: Our loft only has 30 cm of headroom at the eaves and I'm wondering about insulation.",
        "assistant: Boards laid over rolls keep the depth without crushing it.",
        "user: Interesting, I hadn't thought of that.",
        model=None)
    assert not summary.decisions, summary.decisions
    assert not any("headroom" in r for r in summary.rationale), summary.rationale


def test_with_the_assistant_a_reason_in_the_last_turn_is_no_reason_where_nothing_is_decided():
    summary, _ = offline_summary(
        "user: Which grass seed for a back garden?",
        "assistant: For heavy wear a ryegrass mix, for looks the fine fescues.",
        "user: The kids play football on it for 3 hours a day after school.",
        model=None)
    assert not summary.decisions, summary.decisions
    assert not any("football" in r for r in summary.rationale), summary.rationale
