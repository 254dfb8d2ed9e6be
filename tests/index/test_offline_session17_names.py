"""Session 17's entity and reference rules, on conversations written for these tests and
run through the offline backend, with the patterns alone and with the shipped sentence
model: a well-known package's name written in lower case ("structlog", "pytest-xdist") is
an entity, unless an English word spells it ("requests") or it sits in a path, a flag or
a call; a quoted title in title case ("'The Salt Orchard'") is a reference and no entity,
a quoted message or a quoted word is neither."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.propernames import PROPER_NAMES
from memlane.index.software import SOFTWARE
from memlane.testing import checked_summary, offline_names, offline_summary

MODELS = ("shipped", None)


_names = offline_names


@pytest.mark.parametrize("model", MODELS)
def test_lower_case_package_names_are_entities(model):
    names = _names(
        "Ines: Our service logs are plain text, should we switch to structlog?",
        "Tomasz: Yes, and run the suite with pytest-xdist, it takes twelve minutes on Jenkins.",
        "Ines: We're already on httpx for the client, so no new dependency there.",
        model=model,
    )
    assert {"structlog", "pytest-xdist", "httpx", "Jenkins", "Ines", "Tomasz"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_english_words_paths_flags_and_calls_are_no_package_names(model):
    names = _names(
        "Ines: The requests pile up and black mould is back in the server room.",
        "Tomasz: Check /etc/httpx/conf and the --structlog flag, then call structlog() again.",
        "Ines: Fine, I'll read httpx.Timeout in the docs before Friday.",
        model=model,
    )
    assert not names & {"requests", "black", "httpx", "structlog"}
    assert {"Ines", "Tomasz"} <= names


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SOFTWARE)))
def test_every_listed_package_name_is_an_entity_or_a_reference(name):
    # a name ending in a version-like part ("mypy-boto3-s3", "nvidia-nccl-cu12") is a
    # resource's name to the reference patterns (session 12's slugs), and then no entity
    summary, ex = offline_summary(f"Priya: We moved the worker to {name} last week, Castleford saw no errors.",
                                  "Omar: Good.", model=None)
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert (name in names) != (name in summary.references)
    assert {"Castleford", "Priya"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_quoted_title_is_a_reference_and_no_entity(model):
    turns = ("Fenella: So the launch for 'The Salt Orchard' is 3 April at Hartwell Books.",
             "Joel: Yes, the reading worked for \"Low Tide Hymns\" last year. Let's do that.",
             "Fenella: I've put the poster on the page 'Launch v2' and I'll print it.")
    summary = checked_summary(model, *turns)
    assert {"The Salt Orchard", "Low Tide Hymns", "Launch v2"} <= set(summary.references)
    names = _names(*turns, model=model)
    assert not names & {"The Salt Orchard", "Salt Orchard", "Low Tide Hymns", "Launch v2"}
    assert {"Hartwell Books", "Fenella", "Joel"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_quoted_message_or_word_is_no_title(model):
    # a message printed, not one a run "fails with" (a reference since session 55, _FAILED_WITH)
    summary = checked_summary(
        model,
        "user: terraform apply prints 'Error acquiring the state lock' on the Harlow stack.",
        "assistant: Someone holds the lock. The trademark search for 'Kindling' can wait.",
        "user: And the app says 'Who sang Take On Me' every time.",
    )
    assert not set(summary.references) & {"Error acquiring the state lock", "Kindling",
                                          "Who sang Take On Me"}


@pytest.mark.parametrize("model", MODELS)
def test_a_word_and_a_number_opening_a_sentence_is_no_name(model):
    names = _names(
        "Cerys: Routes 4 and 7 both cross the bridge at Halton.",
        "Dom: Forklift 3 is still out. Average 38 on Mill Lane is too fast.",
        "Cerys: Fine, the Garmin GPSMAP 67 goes with Dom and we update Windows 11 on the laptop.",
        model=model,
    )
    assert not names & {"Routes 4", "Forklift 3", "Average 38", "Routes", "Forklift", "Average"}
    assert {"Halton", "Mill Lane", "Garmin GPSMAP 67", "Windows 11", "Cerys", "Dom"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_flag_or_a_name_glued_to_a_colon_is_no_name(model):
    names = _names(
        "user: The Harlow worker runs Java 17 with -Xmx1g and gets killed by Kubernetes.",
        "assistant: Drop -Xmx and set -XX:MaxRAMPercentage=75, or wrap it in tokio::sync::Mutex.",
        "user: Fine, an ex-Google engineer at Harlow said the same, and so does Priya.",
        model=model,
    )
    assert not names & {"Xmx1g", "Xmx", "MaxRAMPercentage", "Mutex"}
    assert {"Harlow", "Java 17", "Kubernetes", "Google", "Priya"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_numbers_and_literals_in_code_are_no_names(model):
    names = _names(
        "user: My mum is 84 and my dad Reggie drives her to Sainsbury's.",
        "Jakub: Keep 200 to match Flask, and the helper returns True when Wen's upload passes.",
        "Wen: Then default=None in the Flask config and we're done.",
        model=model,
    )
    assert not names & {"84", "200", "True", "None"}
    assert {"Reggie", "Flask", "Jakub", "Wen"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_work_finished_or_sung_is_a_reference(model):
    turns = ("Rhys: Just finished Tomorrow, and Tomorrow, and Tomorrow for the Harbour Street book club.",
             "Ffion: The quiz asked who sang Take On Me, and we were singing Blue Monday all week.",
             "Rhys: I finished the washing up and listened to Ffion, so that's done.")
    summary = checked_summary(model, *turns)
    assert {"Tomorrow, and Tomorrow, and Tomorrow", "Take On Me", "Blue Monday"} <= set(summary.references)
    assert "Ffion" not in summary.references  # "listened to Ffion": a person, so "listen to" is no cue
    names = _names(*turns, model=model)
    assert not names & {"Take On Me", "Blue Monday"}
    assert {"Rhys", "Ffion"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_in_code_is_no_entity_unless_named_in_words(model):
    names = _names(
        "user: The Harlow fetcher hangs. I do `tz = zoneinfo.ZoneInfo()` and nothing else.",
        "assistant: Pass `aiohttp.ClientTimeout(total=30)` and use httpx.HTTPTransport(retries=3) or Rc<RefCell<Cache>>.",
        "user: Our Stripe client already has a ZoneInfo per worker, says Priya.",
        model=model,
    )
    assert not names & {"ClientTimeout", "HTTPTransport", "RefCell"}
    # (session 18: not "ClientSession", whose "Session" makes it a type in code wherever it is named)
    assert {"Harlow", "Stripe", "ZoneInfo", "Priya"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_name_with_a_capital_inside_is_a_name_opening_a_sentence(model):
    names = _names(
        "Ngozi: PagerDuty paged me twice last night about the Harlow disk.",
        "Tariq: OpenSearch lags too. Applying the fix now. Honestly it was fine.",
        model=model,
    )
    assert {"PagerDuty", "OpenSearch", "Harlow", "Ngozi", "Tariq"} <= names
    assert not names & {"Applying", "Honestly"}


# Session 18: organisations known by their letters, and operating systems written with a
# small letter first, with a version beside them or not.

SQL_AND_SHOUTING = ("SELECT", "UPDATE", "WHERE", "CREATE", "ORDER", "INDEX", "PLEASE", "ASAP", "URGENT",
                    "NEVER", "API", "CPU", "JSON", "PR", "GP", "HR", "SRE", "DNS", "QA", "NAS", "PDF", "SQL")


@pytest.mark.parametrize("model", MODELS)
def test_an_organisation_known_by_its_letters_is_an_entity(model):
    names = _names(
        "Bronwen: HMRC sent me a letter about the payments on account, and the DVLA wants my logbook.",
        "Idris: The parcel went with DHL, and IKEA says the wardrobe ships on Friday.",
        "Bronwen: Then I'll ring HMRC tomorrow and ask the BBC about the licence.",
        model=model,
    )
    assert {"HMRC", "DVLA", "DHL", "IKEA", "BBC", "Bronwen", "Idris"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_keywords_shouting_and_technical_letters_are_no_organisations(model):
    names = _names(
        "Ola: PLEASE run SELECT count(*) FROM orders WHERE status = 'late' ASAP, the API is slow.",
        "Femi: The CPU is at 90 and the JSON export is stuck. My GP says rest, and HR agrees.",
        "Ola: URGENT: the SRE on call owns the DNS and the QA box.",
        model=model,
    )
    assert not names & set(SQL_AND_SHOUTING)
    assert {"Ola", "Femi"} <= names


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SQL_AND_SHOUTING), st.sampled_from(["{} now.", "We need {} before Friday.",
                                                            "Send it to the {} queue.", "the {} said no"]))
def test_no_keyword_shouted_word_or_technical_acronym_is_a_name(word, sentence):
    names = _names(f"Lowri: {sentence.format(word)}", "Sion: Noted, Carmarthen can wait.", model=None)
    assert word not in names
    assert {"Carmarthen", "Lowri", "Sion"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_an_operating_system_written_small_first_is_an_entity_with_its_version(model):
    names = _names(
        "Aled: The crash is only on iOS 17, and the macOS build for the Harlow app is green.",
        "Nia: My old iPhone 11 runs iOS fine, but the photo picker crashes on iOS 17.2 only.",
        model=model,
    )
    # "iOS" beside "iOS 17" is one entity, as "Windows" beside "Windows 11" is
    assert {"iOS 17", "macOS", "iPhone 11", "Harlow", "Aled", "Nia"} <= names
    assert not names & {"iOS 17.2", "17.2"}


@pytest.mark.parametrize("model", MODELS)
def test_a_proper_name_no_word_spells_is_a_name_opening_a_sentence(model):
    names = _names(
        "Lowri: Rotterdam is done, Hamburg is half written.",
        "Emrys: Daniel cries at old photos. Singapore covers the night shift.",
        "Lowri: Will you book it? Bill says yes. Monday works. Applying the patch now.",
        model=model,
    )
    assert {"Rotterdam", "Hamburg", "Daniel", "Singapore", "Lowri", "Emrys"} <= names
    assert not names & {"Will", "Bill", "Monday", "Applying"}  # English words too, a day, a gerund


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(PROPER_NAMES)))
def test_a_listed_proper_name_opening_a_sentence_is_read_as_inside_one(name):
    # opening the sentence or not, a listed name is a name or not alike (a day, a month, a
    # language or an acronym's plural stays none either way)
    assert name.isalpha() and len(name) > 2 and name[0].isupper() and name[1].islower()
    opening = _names(f"Gwilym: {name} is on the list now.", "Sian: Noted, Carmarthen too.", model=None)
    inside = _names(f"Gwilym: We put {name} on the list now.", "Sian: Noted, Carmarthen too.", model=None)
    assert (name in opening) == (name in inside)
    assert {"Carmarthen", "Gwilym", "Sian"} <= opening


@pytest.mark.parametrize("model", MODELS)
def test_a_day_after_a_word_is_no_part_of_a_name(model):
    _, ex = offline_summary(
        "Mared: We open Oakridge Mondays and Central evenings. Spent Saturday at the allotment.",
        "Bryn: Rehearsal Wednesday at the Unit, then. Black Friday is the 28th and Easter Monday is off.",
        model=model,
    )
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert not names & {"Oakridge Mondays", "Oakridge Monday", "Spent Saturday", "Spent", "Rehearsal Wednesday",
                        "Rehearsal", "Easter"}
    assert {"Oakridge", "Unit", "Mared", "Bryn"} <= names and "Black" not in names
    # a holiday is read whole, and since session 20 as a date, not an entity; so is a sales' day
    # since session 46 ("Black Friday": the labelled sets name it an entity once in its 5 mentions)
    assert {"Easter Monday", "Black Friday"} <= {e.name for e in ex.entities if e.type == "date"}


@pytest.mark.parametrize("model", MODELS)
def test_a_type_in_code_is_no_entity_and_a_product_with_a_capital_inside_is(model):
    names = _names(
        "user: Mounting an HTTPAdapter with retries on the session didn't help, and the ClusterIssuer is Ready.",
        "assistant: Return a StreamingResponse instead, and keep the GlyphCache out of the ProductCard.",
        "user: Fine. I'll tell Gareth on LinkedIn and page the team through PagerDuty and HubSpot.",
        model=model,
    )
    assert not names & {"HTTPAdapter", "ClusterIssuer", "StreamingResponse", "GlyphCache", "ProductCard"}
    assert {"LinkedIn", "PagerDuty", "HubSpot", "Gareth"} <= names


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["Stream", "Glyph", "Cluster", "HTTP", "Product", "Client", "Max"]),
       st.sampled_from(["Adapter", "Issuer", "Response", "Cache", "Card", "Session", "Size", "Handler"]))
def test_any_word_ending_in_a_kind_of_object_in_code_is_no_entity(head, tail):
    names = _names(f"Olwen: We swapped the old one for {head}{tail} in the Harlow service.",
                   "Iolo: Noted.", model=None)
    assert f"{head}{tail}" not in names
    assert {"Harlow", "Olwen", "Iolo"} <= names


@pytest.mark.parametrize("model", MODELS)
def test_a_speaker_named_with_a_title_is_the_name(model):
    summary, ex = offline_summary("Gran Maeve: Thank you all for the flowers!", "Coach Lorna: Training moves to Ridgeway.",
                                  "Saoirse: Happy birthday!", model=model)
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert {"Maeve", "Lorna", "Saoirse"} <= names
    assert not names & {"Gran Maeve", "Coach Lorna"}
    assert "Gran Maeve" in summary.participants  # who spoke is still named as written
