"""Session 55 (rat55b), rationale (docs/summary-eval.md, "Session 55: rationale, more screens
(rat55b)"), both ways: a remark said beside a decision and its reason is no rationale when it hedges with "I think"
(``_Reader.reason_thought_hedged``), opens as a question (``_Reader.reason_asked``), says "ok" as a
word of its own (``_Reader.reason_ok_said``), tells a price quoted for a thing
(``_Reader.reason_quoted``), says how "it's been" (``_Reader.reason_been_so``), says "not sure"
anywhere (``_Reader.reason_not_known``), says "check" (``_Reader.reason_check_said``) or opens on "We
need" (``_Reader.reason_we_need``); the reason beside it stands."""

import pytest

from memlane.testing import offline_summary

REASON = "The insurance for one costs £180 and the fund only has £250 left."


def _castle(remark):
    return ("Maya: Should the street party have a bouncy castle this year?",
            f"Leon: {remark}",
            f"Maya: {REASON}",
            "Leon: Let's skip the castle and do a sack race instead.")


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", [
    "The hire shop closes at six on Saturdays, I think.",  # reason_thought_hedged
    "What happens if it rains on the afternoon of the party",  # reason_asked
    "The small one is £120 for the day... okay.",  # reason_ok_said
    "Bounce Bros quoted £240 for the whole afternoon.",  # reason_quoted
    "It's been raining every weekend since June.",  # reason_been_so
    "The hire shop has a smaller one, but I'm not sure it's still free.",  # reason_not_known
    "The hire shop is shut on Sundays, so check the pickup time first.",  # reason_check_said
    "We need a grown-up on the castle the whole afternoon.",  # reason_we_need
])
def test_a_remark_beside_the_reason_is_no_rationale(model, remark):
    summary, _ = offline_summary(*_castle(remark), model=model)
    assert summary.decisions == ("Skip the castle and do a sack race instead.",), summary.decisions
    assert summary.rationale == (REASON,), summary.rationale


@pytest.mark.parametrize("model", ["shipped", None])
@pytest.mark.parametrize("remark", [
    "The hall bans anything inflatable since the Hendersons' party, and it did ok without one.",  # "did ok"
    "What the kids liked most last year was the sack race.",  # "what … was", said of the thing
])
def test_a_reason_that_only_looks_like_one_stands(model, remark):
    summary, _ = offline_summary(*_castle(remark), model=model)
    assert remark in summary.rationale, summary.rationale
