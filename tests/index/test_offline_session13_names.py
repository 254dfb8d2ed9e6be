"""Session 13's reference and entity rules, each on a small conversation written for these
tests (docs/summary-eval.md, "Session 13: references and entities"): paths from the root or
the home directory; a name after "The" or a possessive, a thing a name has after it, a word
of amount before a number, a step verb before a name, a tier named anywhere in the
conversation, a code a reference holds, and names opening with a short lower-case prefix."""

from memlane.bench.summaries.run import scored_entities
from memlane.testing import offline_summary as _summary


def _entities(extraction) -> set[str]:
    return set(scored_entities(extraction))


def test_a_path_from_the_root_or_the_home_directory_is_a_reference():
    s, _ = _summary(
        "Noor: The readiness check on /status/ready times out, and the dump goes to ~/dumps/nightly.tar.",
        "Piet: Then mount /srv/exports read-only\nand keep ~/keys out of it. The API moved to /v3/ too.",
        "Noor: Fine, and/or we raise the timeout to 24/7 polling.",
    )
    assert {"/status/ready", "~/dumps/nightly.tar", "/srv/exports", "~/keys", "/v3/"} <= set(s.references)
    assert not any(r in ("/or", "/7") for r in s.references)


def test_a_name_after_the_or_a_possessive_is_a_name_but_a_quoted_title_is_not():
    _, x = _summary(
        "Wren: The Old Boathouse quoted 300 for the night. Our Mailchimp account lapses in June.",
        "Odile: Ask them about parking at The Boathouse, then. I'm reading \"The Glass Orchard\" meanwhile.",
    )
    names = _entities(x)
    assert {"Old Boathouse", "Boathouse", "Mailchimp"} <= names
    assert "Glass Orchard" not in names


def test_a_thing_a_name_has_is_no_part_of_it_but_a_product_word_is():
    _, x = _summary(
        "user: My Lebara SIM stopped working after I updated, and Tomasz's PR broke the Strava API client.",
        "assistant: Restart with the Lebara SIM in, and watch it on Apple TV later if you like.",
    )
    names = _entities(x)
    assert {"Lebara", "Tomasz", "Strava"} <= names
    assert {"Lebara SIM", "Tomasz's PR", "Strava API"}.isdisjoint(names)
    assert "Apple TV" in names


def test_a_word_of_amount_before_a_number_is_no_name():
    _, x = _summary(
        "Hedda: The export is huge. Roughly 40 thousand rows per tenant, and it runs on Debian 12.",
        "Jonas: Around 9 of them time out. Nearly 3 hours some nights.",
    )
    names = _entities(x)
    assert not {"Roughly 40", "Around 9", "Nearly 3"} & names
    assert "Debian 12" in names


def test_a_step_verb_opening_the_sentence_is_no_part_of_the_name():
    _, x = _summary(
        "user: I have two pensions, one with Standard Life and one with Legal and General.",
        "assistant: Email Standard Life for a transfer value first. Ping Hargreaves Lansdown after that.",
    )
    names = _entities(x)
    assert {"Email Standard Life", "Ping Hargreaves Lansdown"}.isdisjoint(names)
    assert "Standard Life" in names and "Hargreaves Lansdown" in names


def test_a_tier_named_once_is_no_name_anywhere_in_the_conversation():
    _, x = _summary(
        "user: We're on the Growth plan of Pipewell and want SSO. I also pay for my Spotify subscription here.",
        "assistant: SSO comes with Growth as an add-on; the Scale tier includes it. Spotify billing is separate.",
    )
    names = _entities(x)
    assert {"Growth", "Scale"}.isdisjoint(names)
    assert "Pipewell" in names


def test_a_code_a_reference_holds_is_no_entity():
    s, x = _summary(
        "user: I sent form QP-12 last week and form TR9 before that.",
        "assistant: QP-12 arrived; TR9 is still being processed by Harwick Council.",
    )
    assert {"form QP-12", "form TR9"} <= set(s.references)
    names = _entities(x)
    assert {"QP-12", "TR9"}.isdisjoint(names)
    assert "Harwick Council" in names


def test_a_name_opening_with_a_short_lower_case_prefix_is_a_name_but_code_is_not():
    _, x = _summary(
        "user: I sold my old iPad on eBay and now the onClick handler in my app calls useState twice.",
        "assistant: That's fine for the iPad sale. For the handler, move getUser out of the render.",
    )
    names = _entities(x)
    assert {"iPad", "eBay"} <= names
    assert {"onClick", "useState", "getUser"}.isdisjoint(names)
