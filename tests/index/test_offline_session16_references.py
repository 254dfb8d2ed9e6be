"""Session 16's reference rules, on conversations written for these tests and run through the
offline backend: a path through an app's menus is one reference and its items are no
entities; an order's number in dashed groups and a receipt's number are references as
written; a street address keeps the postcode after its comma."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import OfflineIntelligence
from memlane.types import Message

T0 = datetime(2024, 9, 2, 10, 0, tzinfo=UTC)
OFF = OfflineIntelligence()


def _msgs(texts):
    return [Message(i + 1, 1, "s", "user" if i % 2 == 0 else "assistant", t, T0 + timedelta(minutes=i), i + 1)
            for i, t in enumerate(texts)]


def test_a_menu_path_is_one_reference_and_its_items_are_not_entities():
    summary, ex = OFF.summarize("s", _msgs([
        "My thermostat from Hivewell keeps dropping off the network since Tuesday.",
        "Go to Settings > Device > Wi-Fi and forget the network, then join it again.",
        "Done. And where do I claim the single person discount?",
        "In the council app, under Council tax > Discounts, rather than by phone.",
    ]))
    assert "Settings > Device > Wi-Fi" in summary.references
    assert "Council tax > Discounts" in summary.references
    names = {e.name for e in ex.entities}
    assert not names & {"Settings", "Device", "Wi-Fi", "Council", "Discounts"}
    assert "Hivewell" in names


def test_a_comparison_is_no_menu_path():
    summary, _ = OFF.summarize("s", _msgs(["Is 3 > 2 here, and is x > y in the test?", "Yes, both hold."]))
    assert not any(">" in r for r in summary.references)


def test_dashed_order_numbers_and_receipt_numbers_are_references_as_written():
    summary, _ = OFF.summarize("s", _msgs([
        "My glasses from order 7731-4408 came with the wrong lenses.",
        "Sorry about that. Do you have the receipt?",
        "Yes, receipt number 5530-1189. I'd also like to order 10-12 cleaning cloths, booking 2025-03-14 is fine.",
    ]))
    assert "order 7731-4408" in summary.references
    assert "receipt number 5530-1189" in summary.references
    assert not any("10-12" in r or "2025-03-14" in r for r in summary.references)


def test_an_address_keeps_its_postcode():
    summary, ex = OFF.summarize("s", _msgs([
        "The sofa is at 14 Harrow Road, NG8 1FL if you want to collect it on Saturday.",
        "Great, I'll come by at ten.",
    ]))
    assert "14 Harrow Road, NG8 1FL" in summary.references
    assert "14 Harrow Road" not in summary.references
    assert "NG8" not in {e.name for e in ex.entities}


_ITEM = st.sampled_from(["Settings", "Account", "Billing", "Privacy", "Members", "Help", "Charges",
                         "Payments", "Device", "Wi-Fi", "Notifications", "Security"])
_SECOND = st.sampled_from(["", " tax", " settings", " details", " Centre"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_ITEM, _SECOND), min_size=2, max_size=4),
       st.sampled_from(["Open {} and change it.", "It's under {}, I think.", "Try {} rather than the website.",
                        "Go to {}."]))
def test_any_menu_path_is_found_whole(items, sentence):
    path = " > ".join(a + b for a, b in items)
    summary, ex = OFF.summarize("s", _msgs(["My card keeps getting declined on the Brightpay app.",
                                             sentence.format(path)]))
    assert path in summary.references
    words = {w.lower() for a, b in items for w in (a + b).split()}
    assert not {e.name.lower() for e in ex.entities if e.type not in ("date", "reference")} & words


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(100, 9_999_999), min_size=2, max_size=3), st.sampled_from(["order", "Order", "invoice"]))
def test_any_number_in_dashed_groups_after_an_order_is_one_reference(groups, kind):
    number = "-".join(str(g) for g in groups)
    summary, _ = OFF.summarize("s", _msgs([f"The parcel for {kind} {number} never arrived.", "Let me check."]))
    assert f"{kind} {number}" in summary.references


def test_a_one_word_channel_posted_in_is_a_reference_and_code_is_not():
    summary, _ = OFF.summarize("s", _msgs([
        "The release cut moves to Thursday; I'll post it in #release and tell support in #helpdesk.",
        "Fine. The crash guard stays as it is: if #available(iOS 17, *) we use the new picker.",
        "We're #blessed with a quiet week otherwise.",
    ]))
    assert {"#release", "#helpdesk"} <= set(summary.references)
    assert not {"#available", "#blessed"} & set(summary.references)


# Session 18: a version of three parts, or a directory, that ends a sentence is still one
# (the full stop after it was read as part of a longer dotted name: "4.1.2." and "db/migrations/.")


def test_a_version_or_a_directory_ending_a_sentence_is_a_reference():
    summary, _ = OFF.summarize("s", _msgs([
        "The parser regressed again. Can't reproduce it on Windows 11 with 4.1.2.",
        "Then we pin 0.9.14. The fixtures live in tests/fixtures/ and the seeds in db/seeds/.",
        "Fine, I'll tag v2.0.3. Done.",
    ]))
    assert {"4.1.2", "0.9.14", "v2.0.3", "tests/fixtures/", "db/seeds/"} <= set(summary.references)


def test_an_address_or_a_longer_dotted_number_is_no_version():
    summary, _ = OFF.summarize("s", _msgs([
        "The NAS is at 192.168.1.40. The old one was 10.0.0.12.",
        "Section 4.2.1.3 of the lease covers it.",
    ]))
    refs = set(summary.references)
    assert not refs & {"192.168.1", "168.1.40", "10.0.0", "0.0.12", "4.2.1", "2.1.3"}


@settings(max_examples=60, deadline=None)
@given(st.tuples(*(st.integers(0, 999),) * 3), st.sampled_from(["with", "pinned to", "since"]))
def test_any_three_part_version_ending_a_sentence_is_a_reference(parts, before):
    version = ".".join(str(p) for p in parts)
    summary, _ = OFF.summarize("s", _msgs([f"It broke {before} {version}.", "Let me check."]))
    assert version in summary.references


def test_a_domain_under_any_listed_ending_is_a_reference_alone_in_its_message():
    # session 18: the cheap test before the domain pattern knew ten endings of the pattern's
    # twenty, so a message naming only "aka.ms/…" or "….is" was never read for domains
    summary, _ = OFF.summarize("s", _msgs([
        "Sign in at aka.ms/mfasetup and scan the code.",
        "Road conditions are on umferdin.is every morning.",
        "help.brightdesk.example/brand-kits explains both setups. The shop is kaffihus.de now.",
        "The pods can't resolve idp.internal, and the printer at printer.local is down.",
    ]))
    assert {"aka.ms/mfasetup", "umferdin.is", "help.brightdesk.example/brand-kits", "kaffihus.de",
            "idp.internal", "printer.local"} <= set(summary.references)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["is", "ms", "de", "es", "ca", "eu", "example"]),
       st.sampled_from(["It works. {} it fine?", "We waited 40 {} for it.", "That {} all, thanks."]))
def test_a_word_after_a_full_stop_and_a_blank_is_no_domain(ending, sentence):
    summary, _ = OFF.summarize("s", _msgs([sentence.format(ending), "Fine, Harlow can wait."]))
    assert not any(r.endswith("." + ending) for r in summary.references)


def test_a_host_named_by_itself_is_kept_beside_an_address_at_it():
    summary, _ = OFF.summarize("s", _msgs([
        "I want to move kettleandcrow.com to another registrar. The NAS is at 192.168.1.40 too.",
        "Fine. Mail hello@kettleandcrow.com first, and the backup goes to you@192.168.1.40:/volume1/photos nightly.",
    ]))
    refs = set(summary.references)
    assert {"kettleandcrow.com", "hello@kettleandcrow.com", "192.168.1.40"} <= refs


def test_a_longer_dotted_number_or_a_number_past_255_is_no_address():
    summary, _ = OFF.summarize("s", _msgs([
        "Clause 7 covers it, and 10.4.300.2 is a typo; the firmware is 1.2.3.4.5.",
        "Noted.",
    ]))
    # (a section numbered in four parts, "4.2.1.3", has an address's shape and is read as one)
    assert not {"10.4.300.2", "4.300.2", "1.2.3.4", "2.3.4.5"} & set(summary.references)


def test_go_modules_env_files_and_terraform_files_are_file_names():
    summary, _ = OFF.summarize("s", _msgs([
        "Pin v1.8.3 in go.mod, keep the token in prod.env and the bucket in storage.tf.",
        "Done, and the modem is in the hall.",
    ]))
    assert {"go.mod", "prod.env", "storage.tf"} <= set(summary.references)


def test_a_wiki_path_after_under_is_one_reference_and_its_parts_are_no_entities():
    summary, ex = OFF.summarize("s", _msgs([
        "The new pager setup is in the wiki under On-call/Setup, and the welcome email under People/Onboarding.",
        "Thanks. The timezone is Europe/Paris and we run an A/B test on the TCP/IP page.",
    ]))
    refs = set(summary.references)
    assert {"On-call/Setup", "People/Onboarding"} <= refs
    assert not refs & {"Europe/Paris", "A/B", "TCP/IP"}
    names = {e.name for e in ex.entities if e.type not in ("date", "reference")}
    assert not names & {"On-call", "Setup", "People", "Onboarding"}


def test_a_directory_named_by_itself_is_kept_beside_a_file_in_it():
    summary, _ = OFF.summarize("s", _msgs([
        "We use Alembic, migrations live in db/migrations/.",
        "Here's db/migrations/0042_unpaid_idx.py with the index.",
    ]))
    assert {"db/migrations/", "db/migrations/0042_unpaid_idx.py"} <= set(summary.references)


@settings(max_examples=40, deadline=None)
@given(prefix=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=5),
       number=st.integers(1, 999_999), host=st.sampled_from(["wiki.corvid.io/pm", "jira.example.com/browse"]))
def test_a_key_named_on_its_own_stays_beside_a_url_holding_it(prefix, number, host):
    """'the postmortem for INC-2291' and, later, 'https://wiki.corvid.io/pm/INC-2291': the key
    was folded into the URL as its part and lost (session 18). A key a message names on its
    own is kept; one only ever said inside the URL is still the URL's part."""
    key = f"{prefix}-{number}"
    summary, _ = OfflineIntelligence().summarize("s", _msgs([
        f"ok let's do the postmortem for {key}, the outage on Thursday.",
        f"I'll write the action items up in the doc, https://{host}/{key}"]))
    assert {key, f"https://{host}/{key}"} <= set(summary.references)
    alone, _ = OfflineIntelligence().summarize("s", _msgs([
        "ok let's do the postmortem on Thursday.",
        f"I'll write the action items up in the doc, https://{host}/{key}"]))
    assert key not in alone.references


def test_a_version_or_a_file_named_alone_is_still_the_longer_references_part():
    summary, _ = OfflineIntelligence().summarize("s", _msgs([
        "Roll back to 2.17.3 please.", "Pinned: checkout-api v2.17.3 in deploy/pins/checkout.yaml",
        "and bump poetry.lock too", "done: services/api/poetry.lock"]))
    assert "2.17.3" not in summary.references and "poetry.lock" not in summary.references


@settings(max_examples=30, deadline=None)
@given(letter=st.sampled_from("QRCKX"), number=st.integers(1000, 99_999_999), tail=st.sampled_from(["", "-7712"]))
def test_one_letter_before_four_digits_is_a_key_not_a_name(letter, number, tail):
    """'Q-55810 is the quartz one' gave an entity 'Q-55810' and no reference (session 18)."""
    key = f"{letter}-{number}{tail}"
    summary, ex = OfflineIntelligence().summarize("s", _msgs([
        f"Got the quotes back. {key} is the quartz one.", "I'll ring them tomorrow and accept it."]))
    assert key in summary.references
    assert key not in {e.name for e in ex.entities}
    short, _ = OfflineIntelligence().summarize("s", _msgs(["Row A-12 near the stage, seat B-3.", "ok"]))
    assert not {"A-12", "B-3"} & set(short.references)
