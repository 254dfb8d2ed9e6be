"""Session 46 (dec46b), decisions (docs/summary-eval.md, "Session 46: heldout42's decisions read
(dec46b)"): a decision read in the opening turn that proposes nothing is the situation the
conversation starts from (a report, a past agreement being revisited), not what it decides, and
is taken out; an opening that proposes ("My proposal: …") stays the decision, and so does an
opening of one sentence (all that is put to the others)."""

import pytest

from memlane.testing import offline_summary


def test_a_report_in_the_opening_is_no_decision():
    # the sentence model writes the report as a decision without the rule
    summary, _ = offline_summary(
        "Alys: Pick rates at the packing bench dropped to 60 boxes an hour since the new tape guns came. "
        "What do we do?",
        "Bryn: The old guns were quicker.",
        "Alys: Then let's bring the old tape guns back on Monday.", model="shipped")
    assert not any("pick rates" in d.lower() for d in summary.decisions), summary.decisions
    assert any("old tape guns back" in d for d in summary.decisions), summary.decisions


def test_a_report_taken_out_of_the_decisions_stays_a_fact():
    # the situation is still told: a fact of what happened, as a narrated decision is (session 17)
    said = ("Alys: Pick rates at the packing bench dropped to 60 boxes an hour since the new tape guns came. "
            "What do we do?",
            "Bryn: The old guns were quicker.",
            "Alys: Then let's bring the old tape guns back on Monday.")
    summary, extraction = offline_summary(*said, model="shipped")
    assert not any("pick rates" in d.lower() for d in summary.decisions), summary.decisions
    facts = {(f.predicate, f.object) for f in extraction.facts}
    assert any(p == "did" and "pick rates" in o.lower() for p, o in facts), facts


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_past_agreement_opening_the_conversation_is_not_what_it_decides(model):
    summary, _ = offline_summary(
        "Alys: In January we agreed to close the shop on Mondays. The market has moved to our street since.",
        "Bryn: Footfall on Mondays is up since the market moved.",
        "Alys: Then let's open on Mondays again from May.", model=model)
    assert not any("close the shop" in d for d in summary.decisions), summary.decisions
    assert any("open on mondays again" in d.lower() for d in summary.decisions), summary.decisions


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_one_sentence_opening_agreed_to_stays_the_decision(model):
    summary, _ = offline_summary("Alys: The old tape guns go back to the packing bench.", "Bryn: Agreed.",
                                 model=model)
    assert summary.decisions == ("The old tape guns go back to the packing bench.",), summary.decisions


@pytest.mark.parametrize("model", ["shipped", None])
def test_a_proposal_in_the_opening_stays_the_decision(model):
    summary, _ = offline_summary("Alys: My proposal: bring the old tape guns back to the packing bench.",
                                 "Bryn: Agreed.", model=model)
    assert any("old tape guns back to the packing bench" in d for d in summary.decisions), summary.decisions
