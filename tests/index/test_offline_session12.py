"""Session 12's rules, each on a small conversation written for these tests (docs/summary-
eval.md, "Session 12"): a terse choice written with what it settles, the option an ordinal
or "the X one" names, an agreement passing over a turn of small talk, and questions left
open by an answer that does not know."""

from memlane.testing import offline_summary


def _summary(*turns: str):
    return offline_summary(*turns)[0]


def test_a_terse_choice_is_written_with_the_question_it_answers():
    s = _summary(
        "Maya: The printer lease ends in June. Which vendor for the office printers?",
        "Tom: Ricoh is cheaper, Canon has the better support contract.",
        "Priya: Canon support saved us twice last year.",
        "Maya: Canon, then. I'll tell procurement on Monday.",
    )
    assert len(s.decisions) == 1
    assert s.decisions[0].startswith("Canon — ") and "office printers" in s.decisions[0]
    assert any("procurement" in a for a in s.action_items)


def test_a_terse_choice_naming_nothing_said_before_or_a_pronoun_is_no_decision():
    s = _summary(
        "Ana: The boiler service is due. Who do we call this year?",
        "Ben: The firm from last time never sent an invoice.",
        "Ana: Pizza, then.",
        "Ben: Scratch that then.",
    )
    assert s.decisions == ()


def test_a_terse_choice_with_no_question_is_written_with_the_opening():
    s = _summary(
        "Ola: The council sent two layouts for the allotment paths.",
        "Kim: The gravel layout drains better after rain.",
        "Ola: Gravel, then.",
    )
    assert s.decisions == ("Gravel — The council sent two layouts for the allotment paths.",)


def test_it_is_keeps_its_detail_but_not_a_commitment_after_it():
    s = _summary(
        "Ruth: Oak or walnut for the library shelves?",
        "Dev: Walnut is nearly twice the price.",
        "Ruth: Oak it is, from the spring delivery.",
    )
    assert len(s.decisions) == 1 and s.decisions[0].startswith("Oak, from the spring delivery — ")
    s = _summary(
        "Ruth: Oak or walnut for the library shelves?",
        "Dev: Walnut is nearly twice the price.",
        "Ruth: Oak it is, I'll order it tomorrow.",
    )
    assert len(s.decisions) == 1 and s.decisions[0].startswith("Oak — ")
    assert "tomorrow" not in s.decisions[0]


def test_the_second_one_is_the_numbered_option_it_names():
    s = _summary(
        "user: I have 4,000 pounds for a new bike. What should I get?",
        "assistant: Three routes: 1) a carbon road bike, light but fragile; 2) an aluminium "
        "gravel bike, heavier but it takes wide tyres; 3) a used touring bike.",
        "user: The lanes here are mostly potholes. The second one then.",
    )
    assert len(s.decisions) == 1
    # session 20: the numbered option says what was chosen; it is no longer written with the
    # opening ("An aluminium gravel bike — I have 4,000 pounds for a new bike.")
    assert s.decisions[0] == "An aluminium gravel bike."


def test_the_x_one_names_the_noun_its_one_stands_for():
    s = _summary(
        "user: Which lamp should I put on the reading desk?",
        "assistant: A brass desk lamp looks warm; a clamp lamp saves desk space.",
        "user: The brass one, then.",
    )
    assert len(s.decisions) == 1 and s.decisions[0].startswith("The brass desk — ")


def test_an_agreement_passes_over_a_turn_of_small_talk_to_the_proposal():
    s = _summary(
        "Lena: Team lunch on Friday. Where do we go?",
        "Omar: What about the Thai place on Bridge Street?",
        "Lena: Yes!",
        "Jun: Works for me.",
    )
    assert s.decisions == ("The Thai place on Bridge Street.",)


def test_a_question_answered_not_yet_or_with_a_guess_stays_open():
    s = _summary(
        "Ivo: Has the landlord replied about the broken lift?",
        "Mia: Not yet, I only emailed on Monday.",
        "Ivo: Is the van booked for Saturday?",
        "Mia: Friday, I think, but don't quote me.",
    )
    assert set(s.open_questions) == {"Has the landlord replied about the broken lift?",
                                     "Is the van booked for Saturday?"}


def test_ill_check_leaves_a_question_open_unless_it_was_asked_of_someone():
    s = _summary(
        "Ivo: Are we allowed to park the van in the courtyard?",
        "Mia: I'd think so, but I'll check with the caretaker.",
        "Ivo: Can someone check the lift is working on the day?",
        "Mia: I'll check on Friday.",
    )
    assert s.open_questions == ("Are we allowed to park the van in the courtyard?",)


def test_an_open_statement_with_two_adverbs_is_the_question_it_leaves():
    s = _summary(
        "Ivo: The van is booked for Saturday at nine.",
        "Mia: We also still don't know if the lift takes a double mattress.",
    )
    # (written "Whether …?" since session 41: "If …?" alone is a condition the screen takes out)
    assert s.open_questions == ("Whether the lift takes a double mattress?",)
