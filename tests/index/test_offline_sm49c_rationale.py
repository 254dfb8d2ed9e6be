"""Session 49 (sm49c): rationale the sentence model adds that gives no reason. ``_SO_DRAWN``: a
sentence opening with "So", a consequence drawn; ``_TO_HAND`` (``_THERE_IS`` before session 52):
"There's / There are …", what is to hand (docs/summary-eval.md, "Session 49: the model's
rationale screened (sm49c)", with the counts over every development set). Conversations written
for this test."""

from memlane.bench.summaries.run import Conversation, messages_of
from memlane.bench.summaries.train import _turns
from memlane.index import sentmodel
from memlane.index.offline import OfflineIntelligence


def _conv(*turns: tuple[str, str]) -> Conversation:
    return Conversation("c", "", turns, {})


def _rationale(conv: Conversation) -> tuple[str, ...]:
    summary, _ = OfflineIntelligence().summarize(conv.id, messages_of(conv))
    return tuple(summary.rationale)


def _read_as_reason(conv: Conversation, where: tuple[int, int]) -> None:
    label, p, _ = sentmodel.shipped().classify(_turns(conv), {})[where]
    assert label == "rationale" and p >= sentmodel.shipped().thresholds["rationale"]


def test_a_consequence_drawn_with_so_is_no_reason():
    conv = _conv(("Ana", "Why did the photo uploads pile up overnight?"),
                 ("Ben", "The sync app had no pause between attempts. "
                         "So each failed upload was tried again every few seconds all night."),
                 ("Ana", "Let's add a pause of a minute, doubling each time."))
    _read_as_reason(conv, (1, 1))
    assert _rationale(conv) == ("The sync app had no pause between attempts.",)


def test_what_there_is_is_no_reason():
    conv = _conv(("Ana", "Where can the choir rehearse while the hall is shut?"),
                 ("Ben", "There are two classrooms at the primary school that sit empty on Tuesday nights."),
                 ("Ana", "Good, we'll rehearse at the primary school until the hall reopens."))
    _read_as_reason(conv, (1, 0))
    assert _rationale(conv) == ()


def test_the_screens_read_their_marks_only():
    from memlane.index.cues import _SO_DRAWN, _TO_HAND

    for said in ("So no raffle this year.", "so that's the bottleneck.", "So, two tins then."):
        assert _SO_DRAWN.match(said), said
    for said in ("So with the van in for repair, the Tuesday round is short.", "Sorting takes an hour.",
                 "It's so loud on Fridays.", "So because nobody drives, the minibus it is."):
        assert not _SO_DRAWN.match(said), said
    for said in ("There's a binder in town my aunt used.", "there are four clocks in the cupboard", "There is one left.",
                 "I've got my aunt's old bow for it.", "We have only got £300 left."):
        assert _TO_HAND.match(said), said
    for said in ("There's no parking after six.", "There are not enough seats.", "Therefore the van.",
                 "Theresa can drive.", "I've gotta go.", "We got the keys."):
        assert not _TO_HAND.match(said), said
