"""Session 38's decision and rationale classes, from heldout33's misses, both ways the offline
backend runs (docs/summary-eval.md, "Session 38: heldout33's decisions classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import sentclass
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the rules
    after it alone decide what is written (as session 37's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


# reports and small talk among people with nothing settled: a model naming every sentence a
# reason would write them all as rationale
_NOTHING_SETTLED = [
    ["Kim: Saw a heron on the canal this morning, it stood there for ages.",
     "Lou: The towpath was flooded past the second lock when I went on Sunday.",
     "Kim: The lock keeper reckons the water level drops again by Thursday."],
    ["Pia: The parish magazine came out with the wrong date for the summer fete printed.",
     "Oli: Printers said the proof we approved had the right date on it.",
     "Pia: Half the village reads it online anyway these days."],
    ["Raj: The boiler in the scout hut made that banging noise again during the meeting.",
     "Tess: The engineer said last winter the pump bearings were wearing out.",
     "Raj: A new pump would be about four hundred pounds fitted."],
]


@settings(max_examples=6, deadline=None)
@given(turns=st.sampled_from(_NOTHING_SETTLED))
def test_among_people_no_decision_writes_no_rationale(turns):
    summary, _ = offline_summary(*turns, model=_always("rationale", 0.4))
    assert not summary.decisions, summary.decisions
    assert summary.rationale == (), summary.rationale


def test_among_people_a_reason_beside_a_decision_stays():
    summary, _ = offline_summary(
        "Kim: The towpath is flooded past the second lock again.",
        "Lou: Let's move the charity walk to the Hillside route, because the towpath floods every spring.",
        "Kim: Agreed.")
    assert summary.decisions, summary.decisions
    assert any("floods every spring" in r for r in summary.rationale), summary.rationale


def test_with_the_assistant_a_reason_stays_without_a_decision_read():
    # the user's choice said in a word the patterns do not read ("ok I'm appealing"): the
    # reason the user gives beside it is kept
    summary, _ = offline_summary(
        "user: the council wants 90 pounds for the bin I never had delivered. is that fair",
        "assistant: You can ask them to review the charge and quote your order reference.",
        "user: ok I'm appealing, the bin never arrived and I reported it twice.",
        model=_always("rationale", 0.4))
    assert summary.rationale, summary


# (the rule, the second choice said with it, a word only the rule holds, one only the second holds)
_RULES = [("invoices are sent from the shared mailbox", "nobody sends them from a personal address", "mailbox", "personal"),
          ("the rota lives in the shared calendar", "swaps go through Dana first", "calendar", "dana"),
          ("every release gets a changelog entry", "the version bump waits for a green build", "changelog", "green"),
          ("new volunteers shadow a shift before they lead one", "the key holder signs the log at close", "shadow", "key")]


@settings(max_examples=8, deadline=None)
@given(rule=st.sampled_from(_RULES), lead=st.sampled_from(["From now on ", "Right. From now on "]))
def test_a_rule_from_now_on_written_as_a_reason_is_two_decisions(rule, lead):
    said, second, only_rule, only_second = rule
    summary, _ = offline_summary(
        "Ada: Something went wrong with last month's batch again, two people got it twice.",
        "Ben: It happened because nobody owns the process.",
        f"Ada: {lead}{said}, and {second}",
        "Ben: Fine by me.", model=_always("rationale", 0.4))
    decided = [d.lower() for d in summary.decisions]
    assert any(only_rule in d and only_second not in d for d in decided), summary.decisions
    assert any(only_second in d and only_rule not in d for d in decided), summary.decisions
    assert not any(only_rule in r.lower() or only_second in r.lower() for r in summary.rationale), summary.rationale


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=8, deadline=None)
@given(rule=st.sampled_from(_RULES))
def test_a_decision_and_a_rule_from_now_on_in_one_sentence_are_two(model, rule):
    said, second, only_rule, only_second = rule
    summary, _ = offline_summary(
        "Ada: Two people got last month's batch twice.",
        "Ben: What do we do?",
        f"Ada: Let's resend the corrected batch today, and from now on {said}.",
        "Ben: Agreed.", model=model)
    decided = [d.lower() for d in summary.decisions]
    assert any("resend" in d and only_rule not in d for d in decided), summary.decisions
    assert any(only_rule in d and "resend" not in d for d in decided), summary.decisions


_REFERENCES = ["Voucher ref KLM-20417-B", "Schedule 4, para 7.", "job ref TX-19-2204", "Ticket OPS-5512.",
               "booking reference HQ8ZRT", "Policy number 7781-2290."]


@settings(max_examples=8, deadline=None)
@given(ref=st.sampled_from(_REFERENCES))
def test_a_sentence_that_only_names_a_reference_is_no_decision_of_the_model(ref):
    summary, _ = offline_summary(
        "Nia: The insurer wrote back about the claim for the flooded hall.",
        f"Sol: {ref}",
        "Nia: I'll ring them about it on Monday.",
        model=_always("decisions", 0.4))
    assert not any(ref.split()[-1].rstrip(".").lower() in d.lower() for d in summary.decisions), summary.decisions


def test_an_options_number_stays_a_decision_of_the_model():
    # "Number 3." names an option, not a reference: still the model's to write
    summary, _ = offline_summary("user: which of the three layouts should I use for the flyer?",
                                 "assistant: 1 is the cleanest, 2 the boldest, 3 fits the most text.",
                                 "user: Number 3.", model=_always("decisions", 0.4))
    assert summary.decisions, summary
