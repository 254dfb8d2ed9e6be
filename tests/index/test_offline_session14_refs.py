"""Session 14's candidate reference rules, each on a small conversation written for these
tests (docs/summary-eval.md, "Session 14: references"): order numbers written in groups of
digits, places in an app's menus, numbered parts of a text, coordinates, a resource's name
after what it is, and one reference per thing said twice."""

from memlane.testing import offline_summary as _summary


def _refs(*turns: str) -> set[str]:
    return set(_summary(*turns)[0].references)


def test_an_order_number_in_groups_of_digits_is_a_reference_but_a_date_is_not():
    refs = _refs(
        "user: My order 4410-2277 came with the wrong lid, and booking 20260514 is the hotel.",
        "assistant: Sorry about that. Invoice 2026-05-14 is the date it left us, not its number.",
    )
    assert {"order 4410-2277", "booking 20260514"} <= refs
    assert not any("2026-05-14" in r for r in refs)


def test_a_place_in_an_apps_menus_is_a_reference_but_a_comparison_is_not():
    refs = _refs(
        "user: Where do I turn off the weekly digest? Honestly Signal > WhatsApp for this.",
        "assistant: In the app, go to Profile > Email preferences > Digest and untick it.",
        "user: Found it under Account > Notifications too.",
    )
    assert {"Profile > Email preferences > Digest", "Account > Notifications"} <= refs
    assert not any("Signal" in r for r in refs)


def test_a_numbered_section_clause_or_article_is_a_reference():
    refs = _refs(
        "Ines: Clause 12 caps the liability, and section 4.2 of the lease says the deposit comes back in 30 days.",
        "Marek: Article 17 covers erasure. I left a note in the comments section 2 days ago.",
    )
    assert {"Clause 12", "section 4.2 of the lease", "Article 17"} <= refs
    assert not any(r.startswith("section 2") for r in refs)


def test_coordinates_are_a_reference():
    refs = _refs(
        "Ola: The hide is at 57.1204 N, 3.6621 W, past the second gate.",
        "Finn: Great, I'll bring the long lens.",
    )
    assert "57.1204 N, 3.6621 W" in refs


def test_a_resource_named_after_what_it_is_is_a_reference_but_an_adjective_is_not():
    refs = _refs(
        "user: Our builds hang. Org is tallow-labs, and the bucket tallow-build-cache is full.",
        "assistant: The topic is well-defined then: clear tallow-build-cache's old objects first.",
    )
    assert {"tallow-labs", "tallow-build-cache"} <= refs
    assert "well-defined" not in refs


def test_one_reference_per_thing_said_twice():
    refs = _refs(
        "user: Claim number 77-30418 was denied. Article 9 says they must explain.",
        "assistant: I've reopened claim 77-30418. Under article 9 they have 30 days.",
    )
    assert len([r for r in refs if "77-30418" in r]) == 1
    assert len([r for r in refs if r.lower() == "article 9"]) == 1
