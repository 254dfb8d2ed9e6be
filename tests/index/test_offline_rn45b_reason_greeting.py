"""Session 45 (rn45b): a rationale opening on a greeting ("Hi Dev, my washer … won't drain since
Monday.") is taken out, whichever reader placed it, both ways the offline backend runs
(``_Reader.reason_greeting``): the greeting opens the request or the complaint the conversation
answers, not the reason for what it decides. The reasons given after it stay."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_a_complaint_opened_with_a_greeting_is_no_reason(model):
    summary, _ = offline_summary(
        "Kim: Hi Dev, my washer from your shop is showing E18 and won't drain since Monday.",
        "Dev: Sorry about that. E18 is usually the pump filter getting blocked.",
        "Kim: I cleaned the filter already, it's still doing it.",
        "Dev: Then we'll send an engineer on Tuesday morning, it's under warranty so there's no charge.",
        "Kim: Tuesday works, thanks.", model=model)
    assert not any(reason.startswith("Hi ") for reason in summary.rationale), summary.rationale
    assert "It's under warranty so there's no charge." in summary.rationale


@pytest.mark.parametrize("model", WAYS)
def test_a_request_opened_with_hello_is_no_reason(model):
    summary, _ = offline_summary(
        "Kim: Hello, my sofa from your shop arrived yesterday, order SF-2231, and the left arm has a tear.",
        "Dev: I'm sorry to hear that. Could you send a photo of the tear?",
        "Kim: Sent it just now.",
        "Dev: Thanks. We'll replace the arm cover free, a fitter can come on Thursday because the van is in "
        "your area then.",
        "Kim: Thursday is fine.", model=model)
    assert not any(reason.startswith("Hello") for reason in summary.rationale), summary.rationale
