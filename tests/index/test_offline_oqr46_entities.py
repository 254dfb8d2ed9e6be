"""Session 46's entity rules (docs/summary-eval.md, "Session 46: heldout41's open questions,
references and entities read (oqr46)"), on conversations written for these tests, with the
patterns alone and with the shipped sentence model."""

import pytest

from memlane.testing import offline_names

MODELS = ("shipped", None)


@pytest.mark.parametrize("model", MODELS)
def test_a_count_opening_the_sentence_is_no_part_of_the_name(model):
    names = offline_names(
        "user: My nephew wants a card trick for the school fair.",
        "assistant: A self-working trick is safest with nerves.",
        "user: Two Bicycle decks then, both red. Three Pentax lenses came with Gran's camera too.",
        model=model,
    )
    assert {"Bicycle", "Pentax"} <= names, names
    assert not {"Two Bicycle", "Three Pentax"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_the_name_after_an_opening_count_is_named_in_the_singular(model):
    names = offline_names(
        "Priya: Four Brompton bikes are parked by the door. Two Vajdas came to the fitting.",
        "Oskar: fine, the Brompton ones stay inside tonight.",
        model=model,
    )
    assert "Vajda" in names, names
    assert not {"Two Vajdas", "Vajdas"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_comparative_of_age_or_a_word_of_pity_opening_the_sentence_is_no_part_of_the_name(model):
    names = offline_names(
        "Priya: the new build crashes on some tablets. Older Kindle models show a blank page.",
        "Oskar: Poor Dariusz spent all weekend on it. Old Trafford tickets are his reward.",
        model=model,
    )
    assert {"Kindle", "Dariusz", "Old Trafford"} <= names, names
    assert not {"Older Kindle", "Poor Dariusz"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_standard_named_by_a_word_is_no_entity(model):
    names = offline_names(
        "Priya: The kiosk in Leeds drops off the Wi-Fi every evening, so Zoltan wired it with Ethernet.",
        "Oskar: And the signage app still can't show Unicode names, Cyrillic ones come out as boxes.",
        model=model,
    )
    assert {"Leeds", "Zoltan"} <= names, names
    assert not {"Wi-Fi", "Ethernet", "Unicode", "Cyrillic"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_day_of_the_church_or_lunar_calendar_or_a_sales_day_is_a_date_not_a_name(model):
    names = offline_names(
        "Helen: The lilies go in St Brigid's porch for Holy Week, and Maureen does the altar on Palm Sunday.",
        "Ann: The shop shuts for Lunar New Year, and Black Friday is when Argos sends the vases.",
        model=model,
    )
    assert {"Maureen", "Argos"} <= names, names
    assert not {"Holy Week", "Palm Sunday", "Lunar New Year", "Black Friday"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_tax_a_scheme_or_a_documents_kind_named_in_capitals_is_no_entity(model):
    names = offline_names(
        "user: I sell candles on Folksy and I've never filed a Self Assessment. Do I pay National Insurance too?",
        "assistant: Over £1,000 of trading income you register with HMRC; Capital Gains Tax is separate.",
        "user: And my Lifetime ISA and the Attendance Allowance my mum gets don't count, right?",
        model=model,
    )
    assert {"Folksy", "HMRC", "Attendance Allowance"} <= names, names
    assert not {"Self Assessment", "National Insurance", "Capital Gains Tax", "Lifetime ISA"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_month_written_short_without_a_number_is_no_entity(model):
    names = offline_names(
        "Priya: The Kielder trip moved from Feb to Mar, the Nov one stays.",
        "Jun: Fine, I'll tell Oskar. Jan can drive.",
        model=model,
    )
    assert {"Kielder", "Oskar", "Jan"} <= names, names
    assert not {"Feb", "Mar", "Nov"} & names, names


@pytest.mark.parametrize("model", MODELS)
def test_a_file_known_by_its_conventional_name_is_no_entity(model):
    names = offline_names(
        "user: Our Dockerfile copies the whole repo before pip install, so every build on Buildkite is slow.",
        "assistant: Copy requirements.txt first and install, then copy the rest; the Makefile target can stay.",
        model=model,
    )
    assert "Buildkite" in names, names
    assert not {"Dockerfile", "Makefile"} & names, names
