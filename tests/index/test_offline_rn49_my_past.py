"""Session 49 (rn49): a rationale opening on the speaker's own past doing ("I was / did / tried /
went / saw / looked / read …") is taken out, by whichever reader placed it: an anecdote or a
proposal, not why the choice was made (docs/summary-eval.md, "Session 49: consequences read as
reasons, and heldout45's rationale and next steps (rn49)", with the counts over every development
set). Conversations written for this test."""

import pytest

from memlane.bench.summaries.run import Conversation, messages_of
from memlane.index.offline import OfflineIntelligence


def _conv(*turns: tuple[str, str]) -> Conversation:
    return Conversation("c", "", turns, {})


@pytest.mark.parametrize("model", ["shipped", None])
def test_what_i_did_last_season_is_no_reason(model):
    conv = _conv(("Maya", "Should we book the coach or drive ourselves to the away match?"),
                 ("Owen", "I went to the away match at Exeter last season with my dad."),
                 ("Maya", "Let's book the coach, because it drops us at the gate."))
    summary, _ = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))
    assert summary.decisions == ("Book the coach.",)
    assert summary.rationale == ("It drops us at the gate.",)


def test_what_i_tried_is_no_reason():
    conv = _conv(("Maya", "Which stain should we use on the garden bench?"),
                 ("Owen", "I tried a stain on the old shed last spring, took me all weekend."),
                 ("Maya", "Let's go with the oil-based stain then, because it soaks into the wood."))
    summary, _ = OfflineIntelligence().summarize(conv.id, messages_of(conv))
    assert summary.rationale == ("It soaks into the wood.",)


def test_the_screen_reads_its_mark_only():
    from memlane.index.cues import _Reader

    for said in ("I was away three weeks in June.", "i did it last year", "I tried those, they split.",
                 "I looked, they're not on the list.", "I read the council page."):
        assert _Reader._MY_PAST.match(said), said
    for said in ("I had three pages last week.", "I used them at my last place.", "I checked: 38% overlap.",
                 "It was late.", "We tried buddies in 2022.", "I wasn't told.", "I dido"):
        assert not _Reader._MY_PAST.match(said), said
