"""Session 46 (rn46): a rationale opening on "the <usual / simplest> fix / way … is to <verb>" is
taken out, whichever reader placed it (``_Reader.reason_method``): it says how to do the thing, the
advice or the choice itself, not why it was chosen."""

import pytest

from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize("model", WAYS)
def test_the_assistants_simplest_fix_is_no_reason(model):
    summary, _ = offline_summary(
        "user: Our nightly backup job overlaps with the reporting job and both slow to a crawl.",
        "assistant: Two jobs reading the same disk at once will do that. The simplest fix is to move the backup "
        "to 4am, after the reports finish.",
        "user: Moving the backup to 4am then, the reports are done by 3.",
        "assistant: Keep an eye on the first run.", model=model)
    assert summary.decisions
    assert not any(reason.startswith("The simplest fix") for reason in summary.rationale), summary.rationale


def test_the_usual_fix_put_among_people_is_no_reason():
    # the sentence model places this one as a reason; the patterns alone do not
    summary, _ = offline_summary(
        "Mia: The printer jams on every second job.",
        "Leo: The usual fix is to replace the pickup roller, it wears smooth after a few years.",
        "Mia: Fine, we replace the pickup roller.",
        "Leo: I'll order one today.")
    assert "Replace the pickup roller." in summary.decisions
    assert not any(reason.startswith("The usual fix") for reason in summary.rationale), summary.rationale
