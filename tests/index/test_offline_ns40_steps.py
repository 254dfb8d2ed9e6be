"""Session 40's next-step work, both ways the offline backend runs (docs/summary-eval.md,
"Session 40: next steps (ns40)"): the five "find out" patterns, made one shape, still read what
they read; what we have to do by a time; asking whom after not knowing what. The steps written
with the question they answer (reaching "them", looking, checking) are in
``test_offline_steps_with_question.py`` with session 39's (session 41)."""

import pytest

from memlane.bench.summaries.run import scored_steps
from memlane.index import cues
from memlane.testing import offline_summary

WAYS = [None, "shipped"]


@pytest.mark.parametrize(("pattern", "text", "found"), [
    ("_FOLLOWS_UP", "Not sure, will look tomorrow", True),
    ("_FOLLOWS_UP", "ok. I need to talk to Hana", True),
    ("_FOLLOWS_UP", "We went with the red one", False),
    ("_GOES_TO_CHECK", "i'll send octopus a photo of the meter", True),
    ("_GOES_TO_CHECK", "but I will ring them", True),
    ("_GOES_TO_CHECK", "i'll sleep on it", False),
    ("_ILL_LOOK", "Thanks! I'll look tonight", True),
    ("_ILL_LOOK", "I'll be looking at flats", False),
    ("_ON_IT", "Fine, I'll look into it tomorrow.", True),
    ("_ON_IT", "I'll look into the invoices", False),
    ("_LET_ME_CHECK", "Let me think about that one, I'll talk to Sophie first", True),
    ("_LET_ME_CHECK", "let me ask", False),
])
def test_the_find_out_patterns_in_one_shape(pattern, text, found):
    assert bool(getattr(cues, pattern).search(text)) is found


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("said", "step"), [
    ("And we need to settle the entry fee at the next meeting.", "Settle the entry fee at the next meeting."),
    ("the party's 22 June so we need to order the books by the end of May", "Order the books by the end of May."),
    ("We have to send the programme to the printer by the 30th.", "Send the programme to the printer by the 30th."),
])
def test_what_we_have_to_do_by_a_time_is_a_step_of_no_one(model, said, step):
    summary, _ = offline_summary(
        "Marta: The route for the spring sportive is nearly final, Koen rode it on Sunday.",
        f"Lena: {said}", model=model)
    assert step in scored_steps(summary), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize("turns", [
    ("Marta: We need to pick the printer for the programme by Friday.", "Lena: Inkwell did last year's."),
    ("Marta: The route is nearly final.", "Lena: Do we need to settle the entry fee by the next meeting?"),
    ("Marta: The route is nearly final.", "Lena: We need to know by Friday for the marshals."),
    ("Marta: The route is nearly final.", "Lena: We need to settle the entry fee."),
])
def test_what_we_have_to_do_when_it_opens_asks_or_has_no_time_is_no_such_step(model, turns):
    summary, _ = offline_summary(*turns, model=model)
    steps = scored_steps(summary)
    assert not any(s in ("Pick the printer for the programme by Friday.", "Settle the entry fee by the next meeting.",
                         "Know by Friday for the marshals.", "Settle the entry fee.") for s in steps), steps


@pytest.mark.parametrize("model", WAYS)
def test_what_we_have_to_do_is_not_read_with_an_assistant(model):
    summary, _ = offline_summary(
        "user: The route for the spring sportive is nearly final.",
        "assistant: Good. What is left?",
        "user: And we need to settle the entry fee at the next meeting.", model=model)
    assert "Settle the entry fee at the next meeting." not in scored_steps(summary), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
@pytest.mark.parametrize(("unknown", "ask", "step"), [
    ("I don't know what it costs per user.", "I'll ask our installer, SecureDoor",
     "Nell: I'll ask our installer, SecureDoor what it costs per user"),
    ("No idea if his Admiral policy covers learners.", "I'll ask him tonight",
     "Nell: I'll ask him tonight if his Admiral policy covers learners"),
    ("Not sure whether the exams officer would accept that.", "I'll ask Mrs Quinn",
     "Nell: I'll ask Mrs Quinn whether the exams officer would accept that"),
])
def test_asking_whom_after_not_knowing_what_asks_what_is_not_known(model, unknown, ask, step):
    summary, _ = offline_summary(
        "Jakub: Could members use their phones instead? Paxton do a mobile credential thing",
        f"Nell: They might. {unknown} {ask}", model=model)
    assert step in scored_steps(summary), scored_steps(summary)


@pytest.mark.parametrize("model", WAYS)
def test_asking_whom_before_not_knowing_is_written_as_said(model):
    summary, _ = offline_summary(
        "Jakub: Paxton do a mobile credential thing.",
        "Nell: I'll ask our installer, SecureDoor. Not sure what it costs per user.", model=model)
    steps = scored_steps(summary)
    assert any(s.startswith("Nell: I'll ask our installer") for s in steps), steps
    assert not any(s.startswith("Nell: I'll ask") and "costs" in s for s in steps), steps
