"""Session 36's open-question classes, from heldout31's misses, both ways the offline backend
runs (the patterns alone, and with the shipped sentence model).

A participant's question whose answer says what it can and then puts the matter off to a time
or a condition ("the coach was £620 last time. … let's decide at rehearsal on Thursday";
"price it first, we'll decide when we know the cost"; "only if … by the 10th. we'll see at
practice") stays open (``cues._DECIDE_LATER``, read
by ``_Reader.question`` past the answer's first sentence)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_ASKED = [("and the van, do we hire the big one again?", "van"),
          ("what about the raffle prizes, vouchers or hampers?", "raffle prizes"),
          ("paper invites or just the group chat?", "paper invites"),
          ("and the floor, varnish or oil this time?", "floor")]
_SAID = ["the big one was £240 last time.", "the hampers went down well.",
         "I'd lean towards the cheaper one, but the committee might not like it.",
         "no strong view."]
_LATER = ["let's decide at the meeting on Thursday", "let's park that until the grant comes in",
          "we'll decide when we know the numbers", "Let's settle it next week.",
          "let's leave that till the AGM", "ok, let's decide once the quotes are in",
          "we'll see at practice", "we'll see after the weekend"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(asked=st.sampled_from(_ASKED), said=st.sampled_from(_SAID), later=st.sampled_from(_LATER),
       joined=st.booleans())
def test_a_question_put_off_after_a_partial_answer_stays_open(model, asked, said, later, joined):
    question, key = asked
    answer = f"{said[:-1]}, {later}" if joined else f"{said} {later}"
    summary, _ = offline_summary("Jo: The fete is on the 14th and the field's booked.",
                                 f"Sam: {question}", f"Ravi: {answer}", "Jo: fair enough",
                                 model=model)
    assert any(key in q.lower() for q in summary.open_questions), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("answer", ["the big one was £240 last time. let's decide on the big one.",
                                    "the big one was £240 last time. it fits the marquee too.",
                                    "the big one was £240 last time. we'll decide who drives it.",
                                    "the big one was £240 last time. we'll see you at the fete."])
def test_an_answer_that_chooses_or_does_not_put_off_leaves_no_question(model, answer):
    """"Let's decide on X" chooses; an answer that goes on answering puts nothing off."""
    summary, _ = offline_summary("Jo: The fete is on the 14th and the field's booked.",
                                 "Sam: and the van, do we hire the big one again?",
                                 f"Ravi: {answer}", "Jo: fair enough", model=model)
    assert not any("van" in q.lower() for q in summary.open_questions), summary.open_questions


_FRONTED = [("whether the council will let us keep the gazebo up overnight", "gazebo"),
            ("and how we get the piano up the stairs", "piano"),
            ("when the new keys will be cut", "new keys"),
            ("who pays for the broken window", "broken window")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(fronted=st.sampled_from(_FRONTED), shrug=st.sampled_from(["who knows", "nobody knows",
                                                                  "who knows really", "no one knows"]),
       stop=st.sampled_from(["", ".", "!"]))
def test_a_question_put_before_who_knows_is_the_question_it_leaves(model, fronted, shrug, stop):
    clause, key = fronted
    summary, _ = offline_summary("Ann: The jumble sale is on Saturday, tables are booked.",
                                 f"Ben: {clause}, {shrug}{stop}", "Cat: we'll manage",
                                 model=model)
    assert any(key in q.lower() and q.endswith("?") for q in summary.open_questions), summary.open_questions
    assert not any(key in x.lower() for x in summary.rationale + summary.decisions), summary


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("said", ["who knows, maybe the weather will hold.",
                                  "Whatever we charge, who knows."])
def test_who_knows_without_a_question_before_it_leaves_none(model, said):
    summary, _ = offline_summary("Ann: The jumble sale is on Saturday, tables are booked.",
                                 f"Ben: {said}", "Cat: we'll manage", model=model)
    assert summary.open_questions == (), summary.open_questions


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(matter=st.sampled_from([("whether to enter the dog show or not", "dog show"),
                               ("whether we renew the storage unit", "storage unit"),
                               ("how we split the petrol money", "petrol money")]),
       remark=st.sampled_from(["that's a separate headache", "that's a whole other story",
                               "which is another can of worms", "that is a job for next month"]))
def test_a_remark_after_an_open_matter_is_no_part_of_its_question(model, matter, remark):
    """"…, that's a separate headache" says what the speaker thinks of the open matter."""
    what, key = matter
    summary, _ = offline_summary(
        "user: I've packed the car and booked the cottage for the 3rd.",
        "assistant: Good, then you're set for the trip.",
        f"user: the other thing I still don't know is {what}, {remark}", model=model)
    asked = [q for q in summary.open_questions if key in q.lower()]
    assert asked, summary.open_questions
    assert not any(word in asked[0].lower() for word in ("headache", "story", "worms", "job for")), asked


_WHOLE = [("are we doing the new song?", "new song"), ("what about the raffle prizes?", "raffle"),
          ("do we keep the car park stewards?", "stewards")]
_FRAGMENT = [("The Gloucester one?", "gloucester"), ("Like last year?", "last year"),
             ("For the spring show?", "spring show")]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=24, deadline=None)
@given(whole=st.sampled_from(_WHOLE), fragment=st.sampled_from(_FRAGMENT),
       fragment_first=st.booleans())
def test_a_fragment_question_beside_a_question_is_one_open_question(model, whole, fragment,
                                                                   fragment_first):
    (asked, key), (part, part_key) = whole, fragment
    said = f"{part} {asked[:1].upper()}{asked[1:]}" if fragment_first else f"{asked} {part}"
    summary, _ = offline_summary("Jo: The hall is booked for the 14th.", f"Sam: {said}",
                                 "Ravi: not sure, let's see", "Jo: ok", model=model)
    both = [q for q in summary.open_questions if key in q.lower() and part_key in q.lower()]
    assert len(both) == 1 and len(summary.open_questions) == 1, summary.open_questions


@pytest.mark.parametrize("model", WAYS)
def test_two_whole_questions_stay_two(model):
    summary, _ = offline_summary("Jo: The hall is booked for the 14th.",
                                 "Sam: could we rent the stage out that week? does the school allow that?",
                                 "Ravi: not sure, let's see", "Jo: ok", model=model)
    assert len(summary.open_questions) == 2, summary.open_questions
