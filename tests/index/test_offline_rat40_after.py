"""Session 40 (rat40): a rationale said three turns or more after the conversation's last
decision is taken out, unless said as a reason ("because / since / so that")
(docs/summary-eval.md, "Session 40: rationale (rat40)")."""

import pytest

from memlane.index import sentclass
from memlane.testing import offline_summary


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the rules
    after it alone decide what is written (as session 37's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


_REMARKS = ["The back room only has two sockets.", "Last time the soup was gone by twelve.",
            "My little one ate half of the cake before we got home.", "The brewery van was late twice in June."]


def _conversation(remark: str, gap: int) -> list[str]:
    filler = ["Ravi: Anything else on the list tonight?", "Ines: Only the raffle prizes.",
              "Ravi: Chloe has those in hand already."]
    return (["Ines: The hall heating bill came to nine hundred pounds this winter.",
             "Ravi: We decided to move the club nights to the library from January."]
            + filler[:gap - 1] + [f"Ines: {remark}"])


@pytest.mark.parametrize("remark", _REMARKS)
@pytest.mark.parametrize("gap", [3, 4])
def test_a_remark_long_after_the_last_decision_is_no_reason(remark, gap):
    summary, _ = offline_summary(*_conversation(remark, gap), model=_always("rationale", 0.4))
    assert summary.decisions, summary
    assert remark not in summary.rationale, summary.rationale


@pytest.mark.parametrize("remark", _REMARKS)
def test_a_remark_just_after_the_decision_stands(remark):
    summary, _ = offline_summary(*_conversation(remark, 1), model=_always("rationale", 0.4))
    assert summary.decisions, summary
    assert remark in summary.rationale, summary.rationale


@pytest.mark.parametrize("reason", ["The library is free because the council pays for the room.",
                                    "The hall is dearer since the new boiler went in."])
def test_a_reason_said_as_one_stands_long_after(reason):
    summary, _ = offline_summary(*_conversation(reason, 4), model=_always("rationale", 0.4))
    assert reason in summary.rationale, summary.rationale
