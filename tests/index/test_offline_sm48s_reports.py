"""Session 48 (sm48s): what someone else did or says, told as a report, is no decision the
sentence model may add (``_REPORTED`` in ``_Reader.learned``): over every development set the
model's additions of that form were 28 wrong to 3 right (docs/summary-eval.md, "Session 48: the
model's reports screened (sm48s)"). Conversations written for this test."""

import pytest

from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence


def _conv(said: str) -> Conversation:
    return Conversation("shed", "", (("Greta", "Any news on the allotment shed?"), ("Owen", said),
                                     ("Greta", "Okay, noted.")), {})


@pytest.mark.parametrize("said", ["The caterer said the buffet runs to 60 people."])
def test_a_report_the_model_reads_as_a_decision_is_not_written(said):
    conv = _conv(said)
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "decisions" and p >= sentmodel.shipped().thresholds["decisions"]
    default, _ = OfflineIntelligence().summarize("shed", messages_of(conv))
    plain, _ = OfflineIntelligence(None).summarize("shed", messages_of(conv))
    assert default.decisions == () and plain.decisions == ()


def test_the_screen_reads_reports_not_plans_quotes_or_own_doing():
    from memlane.index.cues import _PASSED_ON, _REPORTED

    for said in ("The heating engineer came on Tuesday and said the boiler is fine.",
                 "Table 4 waited an hour for their starters.", "Mrs Hale says the hall is free.",
                 "ok, the 3.1 deploy changed the default port."):
        assert _REPORTED.match(said) and not _PASSED_ON.search(said), said
    for said in ("We moved the stall to the car park.", "Let's book the hall.",
                 "The caterer quoted £300 for the buffet.", "The plumber said he could come Friday?"):
        assert not _REPORTED.match(said) or _PASSED_ON.search(said), said


@pytest.mark.parametrize("said", ["Done, paid the £40 deposit, booking ref KT-5521.", "Backup done at 08:15."])
def test_the_users_word_that_a_thing_is_done_is_not_written_as_a_decision(said):
    """``_DONE_SAID``: over every development set 11 wrong to 1 right (session 48, sm48s)."""
    conv = Conversation("venue", "", (("Greta", "Where are we with the venue?"), ("Owen", said),
                                      ("Greta", "Okay, noted.")), {})
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[(1, 0)]
    assert label == "decisions" and p >= sentmodel.shipped().thresholds["decisions"]
    default, _ = OfflineIntelligence().summarize("venue", messages_of(conv))
    assert default.decisions == ()


def test_a_thing_to_be_done_by_a_day_is_no_report():
    from memlane.index.cues import _DONE_SAID

    assert _DONE_SAID.match("cleanup done, 14,208 objects restored.")
    assert not _DONE_SAID.match("The survey done by Friday.")
    assert not _DONE_SAID.match("We finish the survey once the rain is done.")
