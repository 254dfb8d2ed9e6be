"""Session 13's rules for decisions and open questions, each on a small conversation written
for these tests (docs/summary-eval.md, "Session 13: decisions and open questions"): what
settles nothing is no decision (a deferral, how the meeting is run, an alternative floated,
a "no need" answer beside what was settled), and what asks nothing a reader can take up is
no open question (a condition cut from its question, a suggestion asked of someone)."""

from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


def test_a_deferral_is_no_decision():
    s = _summary(
        "Nina: The newsletter signups dropped by a third since the redesign.",
        "Omar: We don't have the funnel numbers yet.",
        "Nina: Then we pick this up again once we have the numbers.",
        "Omar: Fine by me.",
    )
    assert s.decisions == ()
    s = _summary(
        "Lea: The east car park floods every spring.",
        "Sam: The drainage survey comes out next month.",
        "Lea: Let's wait for the survey and bring this back at the next meeting.",
        "Sam: Agreed.",
    )
    assert s.decisions == ()


def test_a_wait_someone_is_spared_is_no_deferral():
    s = _summary(
        "user: My claim TC-118 was only partly paid.",
        "assistant: I've approved the 320 for the new flight, so you don't have to wait for the rest.",
        "user: Thanks.",
    )
    assert any("320" in d for d in s.decisions)


def test_how_the_meeting_is_run_is_no_decision():
    s = _summary(
        "Kofi: Standup, let's keep it short.",
        "Ines: Yesterday I finished the export screen.",
        "Kofi: Good. Let's ship the export screen on Friday.",
        "Ines: Agreed.",
    )
    assert len(s.decisions) == 1
    assert "export screen" in s.decisions[0].lower()
    assert not any("short" in d for d in s.decisions)


def test_an_alternative_floated_is_no_decision():
    s = _summary(
        "Ada: The ticket queue spikes every Monday morning.",
        "Ben: Support is two people on Mondays.",
        "Cleo: Or we move the weekly release to Tuesday. But then the sales demo slips.",
        "Ada: Let's see the budget first.",
    )
    assert s.decisions == ()


def test_a_no_need_answer_beside_what_was_settled_is_no_decision():
    turns = (
        "user: The heater you sent is broken. Order 55120.",
        "assistant: Sorry about that. I've issued a refund of 89 pounds for order 55120.",
        "user: Do I need to send the broken heater back?",
        "assistant: No need to send it back, please recycle it locally.",
        "user: Thanks.",
    )
    s = _summary(*turns)
    assert any("refund" in d.lower() for d in s.decisions)
    assert not any(d.lower().startswith(("no need", "do not need")) for d in s.decisions)
    # alone, the answer is what the conversation settled (the pool's labels)
    s = _summary(
        "user: I renewed my passport. Do I need to apply for a new visa too?",
        "assistant: No, your visa stays valid; carry the old passport with the new one.",
        "user: Good to know, thanks.",
    )
    assert any(d.lower().startswith(("no need", "do not need")) for d in s.decisions)


def test_a_condition_cut_from_its_question_is_no_open_question():
    s = _summary(
        "Mia: The grant report is due on the 20th and the partners still owe us their figures.",
        "Raj: I'm not sure if they slip past the 20th.",
        "Mia: Let's send the partners a reminder today.",
    )
    assert not any(q.lower().startswith("if they") for q in s.open_questions)


def test_a_condition_naming_its_subject_stays_open():
    s = _summary(
        "Mia: We're booking the venue for the summer fair.",
        "Raj: We don't know yet if the council will close Mill Road that weekend.",
        "Mia: Let's book the school hall for the 12th.",
    )
    assert any("council" in q and "Mill Road" in q for q in s.open_questions)


def test_a_suggestion_asked_of_someone_is_no_open_question():
    s = _summary(
        "Lars: The Postgres upgrade failed again on the staging copy.",
        "Pieter: It timed out after six hours.",
        "Lars: Pieter, have you tried logical replication instead of pg_upgrade?",
    )
    assert not any("logical replication" in q for q in s.open_questions)
