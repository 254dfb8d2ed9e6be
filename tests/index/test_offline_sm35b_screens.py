"""Session 35 (sm35b): what the offline backend refuses of the sentence model's additions
(docs/summary-eval.md, "Session 35: sm35b, the screens and the weights shipped"). Each class is
read with a model that names one field for every sentence it is asked about, so the screen alone
decides what is written: a description of a thing (what it is, has, costs, holds, how it works)
is no decision; an agreement then an "-ing" word and where ("ok, parking at …"), and among people
an agreement then a directive, are no terse outcome; "Let me know …" and the assistant's "Please
provide / confirm / bear with us …" are no step."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.score import dice, tokens
from memlane.index import sentclass
from memlane.testing import offline_summary


def _always(label: str) -> sentclass.SentenceModel:
    """A real model whose every verdict is ``label`` with a probability near 1."""
    bias = [-30.0] * len(sentclass.LABELS)
    bias[sentclass.LABELS.index(label)] = 30.0
    return sentclass.SentenceModel(bias, {}, {"thresholds": {label: 0.5}})


DECIDES = _always("decisions")
STEPS = _always("next_steps")


def _has(items: tuple[str, ...], said: str) -> bool:
    return any(dice(tokens(x), tokens(said)) >= 0.6 for x in items)


@settings(max_examples=30, deadline=None)
@given(lead=st.sampled_from(["", "And ", "But ", "Yes, ", "Well, "]),
       thing=st.sampled_from(["the kit fund", "it", "the bigger van", "our hall", "the pub garden", "that room",
                              "the 7-day pass"]),
       says=st.sampled_from(["is £310", "'s 90 a day, and we keep the roof rack", "costs 50,000 yen",
                             "has about forty seats", "only works if it is warm", "holds twelve people",
                             "comes with a roof rack", "was about 17 years old"]))
def test_a_description_of_a_thing_is_no_decision_of_the_model(lead, thing, says):
    said = f"{lead}{thing[0].upper() + thing[1:] if not lead else thing}{'' if says.startswith(chr(39)) else ' '}{says}."
    summary = offline_summary("Ines: What do we know about the options for Saturday?", f"Bo: {said}",
                              "Ines: Thanks, I'll think it over.", model=DECIDES)[0]
    assert not _has(summary.decisions, said), summary.decisions


def test_what_the_model_decides_beside_a_description_is_kept():
    summary = offline_summary("Ines: The van is 90 a day.", "Bo: Then we will hire the bigger van for Saturday.",
                              model=DECIDES)[0]
    assert _has(summary.decisions, "Hire the bigger van for Saturday"), summary.decisions
    assert not _has(summary.decisions, "The van is 90 a day"), summary.decisions


@settings(max_examples=20, deadline=None)
@given(lead=st.sampled_from(["ok, ", "ok ", "fine, ", "right. ", "yes, ", "alright "]),
       people=st.booleans(),
       what=st.sampled_from(["parking at Hay Bridge for the weekly set", "camping by the river for two nights",
                             "swimming in the lido on Sundays"]))
def test_an_agreement_then_what_is_done_where_is_no_decision_of_the_model(lead, people, what):
    asker, answerer = ("Olwen", "Bryn") if people else ("user", "assistant")
    summary = offline_summary(f"{asker}: Hay Bridge or Glasbury for the weekly set this summer?",
                              f"{answerer}: Either works; Hay Bridge has parking and a lido.",
                              f"{asker}: {lead}{what}", model=DECIDES)[0]
    assert not _has(summary.decisions, what), summary.decisions


@settings(max_examples=20, deadline=None)
@given(lead=st.sampled_from(["ok, ", "fine, ", "yes, ", "agreed, "]),
       what=st.sampled_from(["send the weekly set to Hay Bridge", "book the hall for Friday",
                             "move the quiz to the back room"]))
def test_an_agreement_then_a_directive_among_people_is_no_decision_of_the_model(lead, what):
    summary = offline_summary("Olwen: Hay Bridge or Glasbury for the weekly set this summer?",
                              "Bryn: I've walked the route and priced both, either works.",
                              f"Olwen: {lead}{what}", model=DECIDES)[0]
    assert not _has(summary.decisions, what), summary.decisions


def test_the_users_agreement_then_a_directive_to_the_assistant_stays_the_models():
    summary = offline_summary("user: Should I split the state first or upgrade Terraform?",
                              "assistant: Upgrading to 1.8 first makes the move reviewable as code.",
                              "user: ok, upgrade to 1.8 first then", model=DECIDES)[0]
    assert _has(summary.decisions, "upgrade to 1.8 first"), summary.decisions


@settings(max_examples=30, deadline=None)
@given(lead=st.sampled_from(["", "Great. ", "Ok, ", "Thanks. "]),
       who=st.sampled_from(["me", "us"]),
       rest=st.sampled_from(["know if you need the old sprites", "know how the demo goes",
                             "think about the budget over the weekend", "see what the landlord says"]))
def test_let_me_know_is_no_step_of_the_model(lead, who, rest):
    said = f"Let {who} {rest}."
    summary = offline_summary("Ola: The icons look blurry at small sizes.",
                              "Mina: I will redo them at 16px for Thursday's crit.",
                              f"Ola: {lead}{said}", model=STEPS)[0]
    assert not any(rest.split()[-1] in x for x in summary.action_items), summary.action_items
    assert any("16px" in x for x in summary.action_items), summary.action_items


@settings(max_examples=30, deadline=None)
@given(verb=st.sampled_from(["provide your postcode", "confirm your order number", "share the error message",
                             "bear with us while the warehouse catches up", "send me the tracking page",
                             "let us know the delivery address", "specify the colour you ordered"]))
def test_the_assistants_please_asking_for_the_conversation_is_no_step_of_the_model(verb):
    summary = offline_summary("user: My order 40917 still hasn't shipped.",
                              f"assistant: Sorry about the wait. Please {verb}.", model=STEPS)[0]
    object_word = verb.split()[-1]
    assert not any(object_word in x for x in summary.action_items), summary.action_items
