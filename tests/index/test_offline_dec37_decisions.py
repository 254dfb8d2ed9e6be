"""Session 37's decision classes, from heldout32's misses, both ways the offline backend runs
(docs/summary-eval.md, "Session 37: heldout32's decisions classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import sentclass
from memlane.index.cues import read_cues
from memlane.testing import offline_summary

WAYS = [None, "shipped"]

# (the place offered first, the place offered second, the word the terse choice names it by,
#  a word only the second place holds)
_PLACES = [("in the rose garden by the war memorial", "on the green at the end of Orchard Lane", "green", "orchard"),
           ("outside the library on the market square", "under the lime trees at Mill Meadow", "meadow", "lime"),
           ("at the top of the hill by the old chapel", "beside the duck pond at Fernley Green", "pond", "fernley"),
           ("in the walled garden behind the museum", "along the harbour wall facing the lighthouse", "harbour", "lighthouse")]
_LEADS = ["Open spots are", "There's room", "The council has space", "Free slots are"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=16, deadline=None)
@given(place=st.sampled_from(_PLACES), lead=st.sampled_from(_LEADS), after=st.sampled_from(["", " I'll fill in the form tonight.", " Lovely."]))
def test_a_terse_choice_among_options_keeps_the_option_it_names(model, place, lead, after):
    first, second, named, only = place
    summary, _ = offline_summary(
        "Asha: The parish council replied about the bench for Ron. £900 for ten years, plaque included.",
        "Tom: The collection already covers that.",
        f"Asha: {lead} {first}, or {second}",
        "Tom: Ron walked his dog there every morning.",
        f"Asha: {named.capitalize()} it is.{after}", model=model)
    chosen = [d for d in summary.decisions if d.lower().startswith(named)]
    assert chosen, summary.decisions
    # written with the option it names, not with the one it passed over
    assert only in chosen[0].lower(), chosen
    assert first.split()[-1].lower() not in chosen[0].lower(), chosen


def test_an_option_that_adds_nothing_to_the_choice_keeps_the_question():
    # "Outdoors or indoors?" — "Outdoors it is.": the option says no more than the choice,
    # so what it settles stays the whole question
    cues = read_cues([("Mo", "user", ["The quiz is on the 14th.", "Outdoors or indoors?"]),
                      ("Di", "user", ["Outdoors it is."])])
    assert any("indoors" in d for d in cues.decisions), cues.decisions


def _always(label: str, threshold: float) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1, so the screens
    alone decide what is written (as session 35's and 36's screen tests read it)."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: threshold}})


_EXPLAINS_WHY = ["The old endpoint still works, and no shutdown date has been announced.",
                 "Most keepers use a dimmer on the lamp at night.",
                 "Stone from the county quarry weathers to grey within a few years."]


@settings(max_examples=10, deadline=None)
@given(explains=st.sampled_from(_EXPLAINS_WHY))
def test_the_assistant_explaining_is_no_rationale_of_the_model(explains):
    summary, _ = offline_summary("user: which option should we take for the renewal job?",
                                 f"assistant: {explains} Either option is fine for now.",
                                 "user: ok, we'll use the new endpoint for the renewal job.",
                                 model=_always("rationale", 0.4))
    assert not any(explains[:20].lower() in r.lower() for r in summary.rationale), summary.rationale


def test_the_assistant_giving_a_reason_stays_the_models_rationale():
    summary, _ = offline_summary("user: which option should we take for the renewal job?",
                                 "assistant: The new endpoint suits you better, because the old one loses refunds.",
                                 "user: ok, we'll use the new endpoint for the renewal job.",
                                 model=_always("rationale", 0.4))
    assert any("loses refunds" in r for r in summary.rationale), summary.rationale




_WAITS_ON = [("Let's leave the venue for now and see what Priya says when she's back.", "venue"),
             ("Leave the logo for now and see what Marcus thinks of the draft.", "logo"),
             ("Hold the order and see what Dana says on Monday.", "order"),
             ("Let's keep the rota as a draft and see what Jo-Ann thinks.", "rota")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=8, deadline=None)
@given(waits=st.sampled_from(_WAITS_ON))
def test_waiting_to_see_what_someone_says_is_no_decision(model, waits):
    said, key = waits
    summary, _ = offline_summary("Nell: Two things left for the open day, the venue and the logo.",
                                 "Ravi: Not sorted either. Priya's away till Friday.",
                                 f"Nell: {said}", "Ravi: Fine.", model=model)
    assert not any(key in d.lower() for d in summary.decisions), summary.decisions
