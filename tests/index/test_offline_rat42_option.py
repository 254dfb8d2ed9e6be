"""Session 42 (rat42): among people, a statement in the turn just before a decision whose subject
is the option decided is its rationale, with or without a reason word (docs/summary-eval.md,
"Session 42: rationale (rat42)")."""

import pytest

from memlane.testing import offline_summary

_OUTING = ("Lena: For the staff outing in June, the lido or the bowling alley?", "Lena: Lido, then.")
_STALL = ("Priya: Who covers the Saturday stall while Sam is away?", "Priya: OK, Marek covers Saturday.")


@pytest.mark.parametrize(("frame", "said", "reason"), [
    (_OUTING, "Tom: The lido has a shaded terrace and a café that takes group bookings.",
     "The lido has a shaded terrace and a café that takes group bookings."),
    (_STALL, "Owen: Marek is free that whole weekend, and he ran the till at the fête.",
     "Marek is free that whole weekend, and he ran the till at the fête."),
    (_STALL, "Owen: And Marek knows the card reader inside out.", "Marek knows the card reader inside out."),
])
def test_what_the_option_decided_offers_is_its_reason(frame, said, reason):
    summary, _ = offline_summary(frame[0], said, frame[1], model=None)
    assert summary.decisions, summary
    assert summary.rationale == (reason,), summary.rationale


@pytest.mark.parametrize(("frame", "said"), [
    (_OUTING, "Tom: Everyone in accounts keeps talking about the summer weather."),
    (_STALL, "Owen: Honestly the weather looks grim for the whole weekend."),
])
def test_a_statement_about_something_else_is_no_reason(frame, said):
    summary, _ = offline_summary(frame[0], said, frame[1], model=None)
    assert summary.decisions, summary
    assert not summary.rationale, summary.rationale
