"""Session 42's reference classes (docs/summary-eval.md, "Session 42: references (refs42)"): a work
named right after its kind and a comma or "called", or by a season of it; a day or a month alone
is no title; more kinds of file by their extension, and with two parts before it; a number given
as what a thing's number is; a company named by its capitalised domain is none; an
underscored name just after its kind."""

import pytest

from memlane.index.offline import _references
from memlane.testing import offline_summary


@pytest.mark.parametrize(("text", "title"), [
    ("Did you see the new Korean film, Night Ferry, at the Odeon?", "Night Ferry"),
    ("I've drafted a short novel, The Lamplighter's Son, about 60,000 words.", "The Lamplighter's Son"),
    ("we started a podcast called Soil Matters last spring", "Soil Matters"),
    ("my cousin writes a newsletter titled Quiet Rivers", "Quiet Rivers"),
    ("just finished season 2 of Harbour Lights, no spoilers", "Harbour Lights"),
    ("Series 3 of The Long Field was better", "The Long Field"),
])
def test_a_work_after_its_kind_and_a_comma_or_called_is_a_reference(text, title):
    assert title in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "that film, honestly, was too long",  # no capital after the comma: no title
    "the album, which I loved, came out in May",
    "a show called off at the last minute",
    "season 2 of the allotment is nearly over",
])
def test_no_work_where_no_capitalised_title_follows(text):
    assert not [r for r in _references(text) if r[:1].isupper()], list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_conversations_work_after_its_kind_is_its_reference_not_an_entity(model):
    summary, _ = offline_summary(
        "Priya: For the club night, what about the Kurosawa film, Red Beard? It's three hours though",
        "Tom: Three hours is fine if we start at 7. I'll check the licence", model=model)
    assert "Red Beard" in summary.references, summary.references
    assert "Red Beard" not in summary.entities, summary.entities


@pytest.mark.parametrize("model", [None, "shipped"])
@pytest.mark.parametrize("word", ["Tomorrow", "Tonight", "Yesterday", "Sunday", "March"])
def test_a_day_or_a_month_alone_is_no_title(model, word):
    summary, _ = offline_summary(
        f"Ola: I've read {word} twice already, and I've read Piranesi once",
        "Jun: Then Piranesi it is for the club", model=model)
    assert word not in summary.references, summary.references
    assert "Piranesi" in summary.references, summary.references


@pytest.mark.parametrize("name", ["thesis.bib", "orders.db", "cache.sqlite3", "build.gradle", "rota_2026.ods",
                                  "backup.timer", "nav.xhtml", "photos-2019.zip", "cert.pem", "talk.mp4",
                                  "vite.config.base.ts", "app.settings.local.json"])
def test_a_file_by_its_extension_is_a_reference(name):
    text = f"ok I'll look at {name} tonight"
    assert name in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "the db is slow again", "we sat in the pub. service was fine", "zip it up and send it", "a tar pit"])
def test_an_extension_word_alone_is_no_file(text):
    assert not list(_references(text)), list(_references(text))


@pytest.mark.parametrize(("text", "number"), [
    ("your account number's 4417-220-19, in case they ask", "4417-220-19"),
    ("ok, customer number is 55012984", "55012984"),
    ("The membership number is 3391 0042 17.", "3391 0042 17"),
])
def test_a_number_given_as_what_a_things_number_is_is_a_reference(text, number):
    assert number in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", ["the number is 1500 people", "my phone number is 07700 900461",
                                  "the number is 2025 so far", "her mobile number's 0770-900461"])
def test_no_count_and_no_cut_telephone_number_is_a_given_number(text):
    refs = set(_references(text))
    assert not refs & {"1500", "07700", "2025", "0770-900461"}, refs


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_company_named_by_its_capitalised_domain_is_no_reference(model):
    summary, _ = offline_summary(
        "Mara: Most guests still come through Hostelworld.com, which takes 15%",
        "Jon: Then put the house rules on Tripnest.io/rules and on staylist.co.uk too", model=model)
    refs = set(summary.references)
    assert "Hostelworld.com" not in refs, refs
    assert {"staylist.co.uk", "Tripnest.io/rules"} <= refs, refs


@pytest.mark.parametrize(("text", "name"), [
    ("the Airflow DAG weekly_ledger_export failed again", "weekly_ledger_export"),
    ("roll it back with the feature flag checkout_v2 instead", "checkout_v2"),
    ("there's a replication slot called cdc_trial left over", "cdc_trial"),
    ("the dbt model stg_payments is live now", "stg_payments"),
    ("grant the role analytics_ro read access", "analytics_ro"),
])
def test_an_underscored_name_after_its_kind_is_a_reference(text, name):
    assert name in set(_references(text)), list(_references(text))


@pytest.mark.parametrize("text", [
    "the key column is tenant_id on both sides",  # a column's name: not one of the kinds
    "pass the parameter retry_count as 3",
    "the table has created_at and updated_at",  # no name straight after the kind
    "the flag is_active(user) decides it",  # a call
])
def test_no_underscored_name_after_other_words_or_as_a_call(text):
    assert not [r for r in _references(text) if "_" in r], list(_references(text))
