"""Session 54 (rat54), rationale (docs/summary-eval.md, "Session 54: rationale, the cap and the
undecided (rat54)"; its cap of eight reasons was not kept at the merge): without the sentence
model, where no decision is kept, a participant's reason said plainly stands
(``_Reader.reasons_undecided``): among people one said with "so / because / since", with the
assistant the user's statement of a reason after the opening turn."""

from memlane.testing import offline_summary

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
