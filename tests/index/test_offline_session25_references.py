"""Session 25's reference classes, from heldout21's misses, on conversations written for these
tests and run through the offline backend (patterns alone and with the shipped model: the
references do not depend on it)."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import OfflineIntelligence
from memlane.types import Message

T0 = datetime(2024, 9, 2, 10, 0, tzinfo=UTC)
OFF = OfflineIntelligence(None)
_DIR = st.from_regex(r"[a-z][a-z0-9_-]{1,8}", fullmatch=True)


def _refs(*texts: str) -> tuple[str, ...]:
    msgs = [Message(i + 1, 1, "s", "user" if i % 2 == 0 else "assistant", t, T0 + timedelta(minutes=i), i + 1,
                    speaker=("Ana" if i % 2 == 0 else "Ben")) for i, t in enumerate(texts)]
    return OFF.summarize("s", msgs)[0].references


@settings(max_examples=60, deadline=None)
@given(dirs=st.lists(_DIR, min_size=1, max_size=3), stem=_DIR,
       ext=st.from_regex(r"[a-z]{7,10}", fullmatch=True), end=st.sampled_from(["", ".", ",", " today."]))
def test_a_path_with_a_long_extension_is_one_reference(dirs, stem, ext, end):
    """A path whose extension is seven to ten letters ("networking/terraform.tfstate",
    "out/merged.parquet") is a reference as a whole, as one with a short extension is."""
    path = "/".join([*dirs, f"{stem}.{ext}"])
    assert path in _refs(f"the state key has to differ, for example {path}{end}", "noted")


@pytest.mark.parametrize("text", ["we went 3.5 km/h slower.", "it costs 1.50 and/or more.", "see e.g. the docs."])
def test_no_path_without_a_slash_and_a_name(text):
    assert not [r for r in _refs(text, "ok") if "/" in r]


@settings(max_examples=60, deadline=None)
@given(first=_DIR, rest=st.lists(_DIR, max_size=2), slash=st.sampled_from(["", "/"]),
       end=st.sampled_from([" returns 404.", ".", ", then"]))
def test_a_rooted_path_from_a_hidden_folder_is_one_reference(first, rest, slash, end):
    """A path from the root whose first folder is hidden ("/.well-known/acme-challenge/")
    is a reference as a whole, as "/healthz" is."""
    path = "/" + "/".join([f".{first}", *rest]) + slash
    assert path in _refs(f"since the move {path}{end} every time", "noted")


_HEAD = st.from_regex(r"[A-Z][A-Z0-9]{0,5}", fullmatch=True) | st.from_regex(r"[0-9]{2,6}", fullmatch=True)


@settings(max_examples=80, deadline=None)
@given(head=_HEAD, parts=st.lists(st.from_regex(r"[0-9]{2,6}", fullmatch=True), min_size=1, max_size=3),
       sep=st.sampled_from(["/", "-"]), cue=st.sampled_from(["ref", "ref.", "Ref:", "reference", "crime reference",
                                                             "reference no."]),
       end=st.sampled_from(["", ".", ", for the record."]))
def test_a_code_named_as_a_reference_is_one(head, parts, sep, cue, end):
    """A code in parts joined by "/" or "-" after "ref" or "reference" ("ref LBC/24/0613",
    "crime reference 41/88213/24", "reference FLAT2B-RENT") is a reference as written."""
    if head.isdigit():
        sep = "/"  # digits and dashes after "reference" are the numbered kind, written with their noun
    code = sep.join([head, *parts])
    assert code in _refs(f"the council signed off the consent, {cue} {code}{end}", "great")


def test_a_reference_word_before_prose_names_no_code():
    assert _refs("for reference, the 2/3 split and a 10-12 day wait are fine.", "ok") == ()


@settings(max_examples=80, deadline=None)
@given(number=st.sampled_from(["01706 902 573", "07700 900461", "065 682 8127", "+44 20 7946 0958", "020 7946 0958",
                               "+353 1 555 0142", "0161 496 0000", "(01632) 960 001"]),
       before=st.sampled_from(["Please call them on ", "their number's ", "ring ", "it's "]),
       end=st.sampled_from(["", ".", " and quote the job reference.", ", any time after 9."]))
def test_a_telephone_number_in_groups_is_a_reference(number, before, end):
    """A telephone number written in groups, from its 0 or its country code, is a reference as
    written."""
    assert number in _refs(f"{before}{number}{end}", "thanks")


@pytest.mark.parametrize("text", ["we sold 1 200 300 tickets", "it was 10 to 12 people", "scores 07 and 08 stand",
                                  "the 2024 0613 run", "pay 0.50 100 times"])
def test_counts_and_years_are_no_telephone_numbers(text):
    assert _refs(text, "ok") == ()


def test_a_card_number_keeps_its_noun():
    assert _refs("Can I renew my two books again? Card 0045 3319 2207.", "Done.") == ("Card 0045 3319 2207",)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="0123456789 +()-./,a", max_size=40))
def test_the_phone_guard_passes_every_text_the_pattern_reads(text):
    """The cheap test before :data:`_PHONE` never skips a text the pattern finds a number in."""
    from memlane.index.offline import _PHONE, _may_hold_phone

    if _PHONE.search(text):
        assert _may_hold_phone(text)


@settings(max_examples=60, deadline=None)
@given(whose=st.sampled_from(["his", "her", "their", "your"]),
       noun=st.sampled_from(["book", "novel", "album", "podcast", "film"]),
       title=st.sampled_from(["Yokes", "Salt of the Earth", "The Night Ferry", "Low Tide Hymns"]),
       end=st.sampled_from(["", ".", ", page 12.", " last year."]))
def test_a_work_named_after_a_possessive_is_a_reference(whose, noun, title, end):
    """A title after "his / her / their / your <book|album|…>" is a reference, as after "my
    book" ("yes, from her book Yokes")."""
    refs = _refs(f"the pattern is from {whose} {noun} {title}{end}", "lovely")
    assert title in refs


_ODD = st.from_regex(r"[a-z]{2,4}[0-9_][a-z0-9_]{2,8}", fullmatch=True) | st.sampled_from(["src", "ci", "pg-fts", "prisma"])
_PLAIN = st.sampled_from(["migrations", "billing", "networking", "templates", "render", "credit-bump"])


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(_ODD | _PLAIN, min_size=2, max_size=4).filter(lambda ps: any(p in ("src", "ci", "pg-fts", "prisma")
                                                                                   or not p.replace("-", "").isalpha()
                                                                                   for p in ps)
                                                                       and max(map(len, ps)) >= 4
                                                                       and (len(ps) > 2 or not all(map(str.isalpha, ps)))),
       end=st.sampled_from(["", ".", ", so it is inside the package.", " today"]))
def test_names_joined_by_slashes_with_a_word_no_dictionary_spells_are_a_reference(parts, end):
    """Lower-case names joined by "/" without an extension or a trailing slash, one of them no
    plain English word ("prisma/migrations/20250611_orders_cursor_idx", "ci/pin-poetry"), are a
    reference."""
    name = "/".join(parts)
    assert name in _refs(f"I'll put it in its own place, {name}{end}", "fine")


@pytest.mark.parametrize("cue", ["on branch", "in a branch,", "branch called", "pushed to branch"])
def test_a_branch_is_a_reference_in_plain_words(cue):
    assert "infra/networking" in _refs(f"I'll do the move {cue} infra/networking and get a review", "ok")


@pytest.mark.parametrize("text", ["we own the go/no-go on the flag", "it is and/or more", "gradient boosting on hour/stop/weather",
                                  "at 80 km/h and 5 mg/kg", "n/a for now", "either mac/linux or tcp/udp"])
def test_plain_words_joined_by_slashes_are_no_reference(text):
    assert _refs(text, "ok") == ()


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["Ceilidh", "2024", "Helpers", "Summer", "Camp", "RA", "Q3", "Budget"]),
                      min_size=1, max_size=4),
       last=st.sampled_from(["Helpers", "RA", "Final", "V2"]), ext=st.sampled_from(["xlsx", "docx", "pdf", "csv"]),
       before=st.sampled_from(["It was in ", "start from ", "see "]), end=st.sampled_from(["", " on the drive.", "."]))
def test_a_file_named_in_capitalised_words_is_one_reference(words, last, ext, before, end):
    """A file whose name is capitalised words and numbers with blanks ("Ceilidh 2024
    Helpers.xlsx") is one reference, the whole name, not its last word alone."""
    name = " ".join([*words, f"{last}.{ext}"])
    refs = _refs(f"{before}{name}{end}", "ok")
    assert name in refs
    assert f"{last}.{ext}" not in refs


def test_a_stopword_before_a_file_is_no_part_of_its_name():
    assert _refs("In Budget.xlsx the totals are wrong.", "ok") == ("Budget.xlsx",)
