"""Session 38 (dec38b): among people, a conversation whose decision the patterns do not read
keeps its reasons when one of its sentences says a choice (docs/summary-eval.md, "Session 38:
dec38b, ...")."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import sentclass
from memlane.testing import offline_summary


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the rules
    after it alone decide what is written (as session 37's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


_AGREE = ["Fine,", "ok", "Aye,", "Right,", "Yeah ok,", "ugh fine,", "So"]
# a choice said after an agreement, in forms the patterns do not read as a decision
_CHOICES = ["shut it for the winter", "sell them to the Harris lot",
            "we hire the minibus from Coleman's and share the cost",
            "the old banner stays", "scrap the raffle this year",
            "bin the leaflets, they have the wrong date"]
_CONDITIONAL = ["If the vet agrees I'll book the operation for March, no more waiting",
                "If nobody objects by Friday I'll sign the lease on the smaller unit"]


def _conversation(choice: str) -> list[str]:
    return ["Ines: The sailing club's bar lost money again this season, about nine hundred pounds.",
            "Ravi: The heating alone in there costs a fortune from November on.",
            f"Ines: {choice}.",
            "Ravi: The members will grumble but the accounts come first."]


@settings(max_examples=12, deadline=None)
@given(agree=st.sampled_from(_AGREE), choice=st.sampled_from(_CHOICES))
def test_a_choice_after_an_agreement_keeps_the_reasons(agree, choice):
    summary, _ = offline_summary(*_conversation(f"{agree} {choice}"), model=_always("rationale", 0.4))
    assert summary.rationale, summary


@settings(max_examples=4, deadline=None)
@given(choice=st.sampled_from(_CONDITIONAL))
def test_a_choice_on_a_condition_keeps_the_reasons(choice):
    summary, _ = offline_summary(*_conversation(choice), model=_always("rationale", 0.4))
    assert summary.rationale, summary


# an agreement with nothing chosen after it: the conversation keeps no reason, as before
_NO_CHOICE = ["ok, fair", "Yeah, I know the treasurer, Mrs Daly", "then we can't vote on it tonight",
              "Right, I'll check the invoices", "Yes, found it in the drawer, crumpled",
              "Fine, good point", "So is it the heating or the staff?"]


@settings(max_examples=10, deadline=None)
@given(said=st.sampled_from(_NO_CHOICE))
def test_an_agreement_with_no_choice_keeps_no_reason(said):
    summary, _ = offline_summary(*_conversation(said), model=_always("rationale", 0.4))
    assert not summary.decisions, summary.decisions
    assert summary.rationale == (), summary.rationale
