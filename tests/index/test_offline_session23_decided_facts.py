"""A decision becomes a fact ``<who> decided <what>`` only when it was said in a turn the fact
can point at (session 23). A decision the summary puts together from parts of several turns
("Void the original", the second half of "Reissue the invoice … and void the original") was
written as a fact with no turn: no message to show as its evidence, and none of the read
sets' 31 such facts matched a labelled fact (decided facts as a whole: 51 of 765). The
decision itself stays in the summary.
"""

from __future__ import annotations

import pytest

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence

CONVERSATIONS = {"t1-support-invoice-reissue": "train", "t2-support-card-skimmed": "train",
                 "t4-insurance-preauth": "train", "h7-log-retention-ruling": "heldout7"}


@pytest.mark.parametrize("conv_id", sorted(CONVERSATIONS))
def test_every_decided_fact_points_at_its_turn(conv_id: str) -> None:
    conv = next(c for c in load_set(CONVERSATIONS[conv_id]) if c.id == conv_id)
    messages = messages_of(conv)
    summary, extraction = OfflineIntelligence().summarize(conv.id, messages)
    decided = [f for f in extraction.facts if f.predicate == "decided"]
    seqs = {m.seq for m in messages}
    assert all(f.seq in seqs for f in decided), [(f.object, f.seq) for f in decided]
    # the decisions the turnless facts were copied from are still in the summary
    assert len(summary.decisions) > len(decided)
