"""Session 11's rules, each on a small conversation written for these tests (docs/summary-
eval.md, "Session 11"): references named by their kind, addresses, titles of works, names
with "St", greetings and versions, two steps in one commitment, directives addressed by
name and what the service will do for the user."""

from memlane.index.offline import _references
from memlane.bench.summaries.run import scored_entities
from memlane.testing import offline_summary as _summary


def _entities(extraction) -> set[str]:
    return set(scored_entities(extraction))


def test_a_key_keeps_the_kind_of_paper_it_keys():
    s, _ = _summary(
        "user: I sent form TR-7 last week and my client number is QH-40118.",
        "assistant: Thanks, I can see form TR-7 under client number QH-40118.",
    )
    assert "form TR-7" in s.references and "client number QH-40118" in s.references
    assert "TR-7" not in s.references and "QH-40118" not in s.references  # inside the longer one


def test_an_address_is_a_reference_and_its_street_no_entity_but_its_town_is():
    s, x = _summary(
        "user: We're moving from 9 Rowan Close to 27C Harbour Road, Cobh on the 3rd.",
        "assistant: Noted, the new line goes to 27C Harbour Road, Cobh.",
    )
    assert {"9 Rowan Close", "27C Harbour Road, Cobh"} <= set(s.references)
    names = _entities(x)
    assert "Rowan Close" not in names and "Harbour Road" not in names
    assert "Cobh" in names


def test_a_year_before_a_street_is_no_address():
    assert list(_references("The 1989 Tiananmen Square protests were covered live.")) == []


def test_a_title_is_read_by_what_is_done_with_it_and_is_no_entity():
    s, x = _summary(
        "Ines: We rewatched Brief Encounter on Sunday and it still holds up.",
        "Tom: I've ordered eight copies of Small Island for the club.",
        "Ines: Next month Wolf Hall by Hilary Mantel, then.",
    )
    assert {"Brief Encounter", "Small Island", "Wolf Hall"} <= set(s.references)
    assert {"Brief Encounter", "Small Island", "Wolf Hall"}.isdisjoint(_entities(x))


def test_a_channel_an_acronym_or_a_headline_is_no_title():
    refs = [
        *_references("We mostly watch YouTube and watch TV after dinner."),
        *_references("Stronger Bones, Tried and Tested by Olympic Athletes."),
    ]
    assert refs == []


def test_a_saint_keeps_its_s_a_greeting_and_a_version_are_no_part_of_the_name():
    _, x = _summary(
        "Oona: The fair at St Bride's moves to the car park.",
        "Cheers Oona, I'll tell the parents.",
        "Oona: The booking app needs MySQL 8.4 on the server.",
    )
    names = _entities(x)
    assert "St Bride's" in names and "St Bride" not in names
    assert "Cheers Oona" not in names
    assert "MySQL" in names and "MySQL 8.4" not in names


def test_a_commitment_with_a_second_step_is_two_steps_unless_it_points_back():
    s, _ = _summary(
        "Rhea: The supplier moved the delivery of the oak panels to Thursday.",
        "Jonas: I'll update the install schedule for the Leeds site and email the client about the new date.",
        "Rhea: I'll ring the supplier and chase it.",
    )
    assert "Jonas: Update the install schedule for the Leeds site." not in s.action_items  # owner-first, as said
    assert "Jonas: I'll update the install schedule for the Leeds site." in s.action_items
    assert "Jonas: Email the client about the new date." in s.action_items
    assert "Rhea: I'll ring the supplier and chase it." in s.action_items  # "it": one step


def test_a_directive_addressed_to_a_participant_is_their_step():
    s, _ = _summary(
        "Mirela: The hotfix passed QA this morning.",
        "Dario: Good. Mirela, deploy the hotfix to the EU cluster before noon.",
    )
    assert "Mirela: Deploy the hotfix to the EU cluster before noon." in s.action_items


def test_a_name_that_is_no_participant_gets_no_step():
    s, _ = _summary(
        "Mirela: The hotfix passed QA this morning.",
        "Dario: Good. Paris, send the slides to the board.",
    )
    assert not any(item.startswith("Paris:") for item in s.action_items)


def test_what_the_service_will_do_for_the_user_is_a_step():
    s, _ = _summary(
        "user: My broadband has been down since Monday.",
        "assistant: An engineer is fixing the cabinet. We'll text you as soon as the line is back.",
    )
    assert "assistant: We'll text you as soon as the line is back." in s.action_items


def test_what_the_user_is_asked_to_do_first_is_theirs():
    s, _ = _summary(
        "user: The blender I ordered arrived cracked.",
        "assistant: Sorry! Please keep the box and we'll send you a prepaid returns label.",
    )
    assert "user: Please keep the box and we'll send you a prepaid returns label." in s.action_items
