"""Session 10's rules, each on a small conversation written for these tests (docs/summary-
eval.md, "Session 10"): conclusions, reported outcomes, team arrangements, stand-up plans,
steps nobody volunteered for, open statements as questions, references and entities."""

from memlane.index.cues import _base_form
from memlane.index.offline import _sentences
from memlane.testing import offline_summary as _summary


def test_a_stated_conclusion_is_a_decision_clause_by_clause():
    s, _ = _summary(
        "Hedda: The choir can't rehearse in the church hall in January, the boiler is out.",
        "Ravi: The library has a room on Thursdays, and the school hall is free on Mondays.",
        "Tuula: The basses are the bigger group.",
        "Hedda: Then the sopranos move to the library room, and the basses take the school hall.",
    )
    assert s.decisions == ("The sopranos move to the library room.", "The basses take the school hall.")


def test_a_hedged_or_narrated_then_so_is_no_conclusion():
    s, _ = _summary(
        "Hedda: The van broke down on the ring road.",
        "Ravi: So the deliveries were late all morning.",
        "Hedda: Then the bakery would lose the Friday orders.",
    )
    assert s.decisions == ()


def test_every_outcome_a_short_answer_reports_is_a_decision_in_the_base_form():
    s, _ = _summary(
        "user: My parcel 7741 never came and the tracking says delivered.",
        "assistant: Sorry about that. Checking the courier's scan now.",
        "user: It's been a week.",
        "assistant: As a gesture, I've refunded the delivery fee and reissued the parcel by express.",
    )
    assert s.decisions == ("Refund the delivery fee.", "Reissue the parcel by express.")


def test_a_record_of_the_request_is_no_outcome():
    s, _ = _summary(
        "user: The printer on floor 3 jams on every page.",
        "assistant: I've opened ticket PR-2281 for the facilities team.",
    )
    assert s.decisions == ()
    assert "PR-2281" in s.references


def test_base_forms_of_reported_verbs():
    assert [_base_form(w) for w in ("refunded", "moved", "cancelled", "reissued", "sent", "added",
                                    "raised", "upgraded", "Booked", "frozen")] == [
        "refund", "move", "cancel", "reissue", "send", "add", "raise", "upgrade", "Book", "freeze"]


def test_a_team_arrangement_in_the_present_is_a_decision_a_story_is_not():
    s, _ = _summary(
        "Ines: The Tuesday quiz keeps running past eleven.",
        "Bo: Last year we ran it till midnight and nobody minded.",
        "Jo: The landlord wants us out by half ten now.",
        "Ines: From next week we start at half seven, and the last round ends by ten.",
    )
    # the clause that arranges; "the last round ends by ten" arranges nothing by itself
    assert s.decisions == ("From next week we start at half seven.",)
    s, _ = _summary(
        "Ines: How was the trip?",
        "Bo: Lovely. We walked the coast path every morning.",
    )
    assert s.decisions == ()


def test_an_answer_describing_an_option_arranges_nothing():
    s, _ = _summary(
        "Ines: What does the bigger van cost?",
        "Bo: It's 90 a day, and we keep the roof rack.",
    )
    assert s.decisions == ()


def test_what_a_speaker_is_on_today_and_what_someone_should_do_are_next_steps():
    s, _ = _summary(
        "Kaito: Yesterday I closed the flaky login test.",
        "Kaito: Today I'm on the CSV export for finance.",
        "Mira: Someone should warn support before the export ships.",
        "Mira: I should ask Legal about the retention period.",
        "Kaito: Will update the runbook tonight.",
    )
    assert s.action_items == ("Kaito: Today I'm on the CSV export for finance.",
                              "Mira: Ask Legal about the retention period.",
                              "Kaito: Update the runbook tonight.")
    assert s.next_steps == ("Warn support before the export ships.",)


def test_an_open_statement_is_written_as_the_question_it_leaves():
    s, _ = _summary(
        "Ola: The nightly import failed again.",
        "Per: We honestly don't know yet whether it's the disk or the new driver.",
        "Ola: Let's meet on Monday with the vendor.",
    )
    # "Whether it's …?" written as the question since session 53 (oq53, ``_Reader.whether_asked``)
    assert s.open_questions == ("Is it the disk or the new driver?",)


def test_references_in_the_shapes_people_write_them():
    s, _ = _summary(
        "user: Flight LH2043 was cancelled, booking code ZK4P8Q, card ending 5512.",
        "assistant: I've rebooked you; see lufthansa.com/rebooking and post in #travel-desk.",
        "user: Account 4410-2290, invoice INV-2026-0042-B attached as Trip_Receipt_v2.pdf.",
    )
    for ref in ("LH2043", "ZK4P8Q", "card ending 5512", "lufthansa.com/rebooking", "#travel-desk",
                "Account 4410-2290", "INV-2026-0042-B", "Trip_Receipt_v2.pdf"):
        assert ref in s.references, ref
    assert "lufthansa.com" not in s.references  # the longer reference holds it


def test_entities_leave_out_weekday_plurals_acronyms_and_an_opening_verb():
    _, ex = _summary(
        "Nadia: We do the stock count on Fridays with the WMS export.",
        "Nadia: Finished the Holloway order yesterday, and Dr. Brandt from Kestrel Freight called.",
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert "Fridays" not in names and "WMS" not in names
    assert "Finished the Holloway" not in names and "Holloway" in names
    assert "Dr. Brandt" in names and "Kestrel Freight" in names


def test_a_title_before_a_name_ends_no_sentence():
    assert _sentences("We saw Dr. Brandt today. Mrs. Ode came too.") == [
        "We saw Dr. Brandt today.", "Mrs. Ode came too."]


def test_a_commitment_to_nothing_and_a_thing_that_will_happen_are_no_steps():
    s, _ = _summary(
        "Lotte: The north gate lock jammed again this morning.",
        "Pim: Rust will keep getting in until we cover it.",
        "Lotte: I'll have a think about a cover.",
        "Pim: Noor will order a new lock today.",
        "Noor: Fine, I'll see how the budget looks.",
    )
    assert s.action_items == ("Noor: Order a new lock today.",)


def test_so_as_an_adverb_and_a_chat_between_two_decide_nothing():
    s, _ = _summary(
        "Mara: I finally finished the half marathon on Sunday!",
        "Leon: So proud of you for sticking with the training.",
        "Mara: Thanks! We share everything about running, my sister and I.",
        "Leon: So the next one is in spring, right?",
    )
    assert s.decisions == ()
