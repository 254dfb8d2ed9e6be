"""Session 39's reference classes, from heldout34's misses (docs/summary-eval.md, "Session 39:
next steps and references (ns39)")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _references
from memlane.testing import offline_summary

_SLASHED_KEY = st.one_of(
    st.from_regex(r"\A[A-Z]{2,4}/[0-9]{4}/[0-9]{3}\Z"),
    st.from_regex(r"\A[0-9]{2}/[0-9]{4,5}/[A-Z]{3}\Z"),
    st.from_regex(r"\A[A-Z]{2,4}/[0-9]{3,5}\Z"),
)


@settings(max_examples=60, deadline=None)
@given(key=_SLASHED_KEY,
       said=st.sampled_from(["our ref is {}", "the notice on the lamp post says {}.",
                             "Our tree is on order {} I think", "it's {}, the planning one"]))
def test_a_key_of_capitals_and_digits_joined_by_slashes_is_a_reference(key, said):
    assert key in set(_references(said.format(key))), list(_references(said.format(key)))


@pytest.mark.parametrize("text", [
    "my blood pressure was 145/92 again",  # a reading
    "we met on 12/03/2024 at the hall",  # a date
    "a universal 80/12 needle",  # a size in two numbers
    "TCP/IP over the A4/A3 boundary",  # capitals with no number of three digits
    "the AC/DC tribute band",
])
def test_a_reading_a_date_or_a_pair_of_names_is_no_slashed_key(text):
    assert not list(_references(text)), list(_references(text))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_slashed_keys_a_conversation_names_are_among_its_references(model):
    summary, _ = offline_summary(
        "Donna: The council wrote back about the pitches, our ref is STC/0193",
        "Kev: And the mast notice by the school says 24/01873/TEL",
        "Donna: I'll object online tonight", model=model)
    assert {"STC/0193", "24/01873/TEL"} <= set(summary.references), summary.references


@settings(max_examples=60, deadline=None)
@given(name=st.from_regex(r"\A[0-9a-f]{7,12}\Z").filter(
           lambda h: sum(c.isdigit() for c in h) > 1 and sum(c.isalpha() for c in h) > 1),
       said=st.sampled_from(["someone added it in commit {} to fix the resume", "submission was {}. will do",
                             "release it with force-unlock {}, then rerun", "reverting that bit of {}."]))
def test_a_short_hexadecimal_name_is_a_reference(name, said):
    assert name in set(_references(said.format(name))), list(_references(said.format(name)))


@pytest.mark.parametrize("text", [
    "the register at 0x1f2e3d4 flips",  # a number written in hexadecimal
    "the facade and the deadbeef test",  # words of the letters alone
    "turn on 2fa and stream at 1080p",
    "the id is a3f-9c21 in the table",  # a part of a longer name
])
def test_a_number_a_word_or_a_part_is_no_hexadecimal_name(text):
    assert not list(_references(text)), list(_references(text))


def test_a_colour_is_no_hash():
    assert "ff5733" not in set(_references("the colour is #ff5733 on the banner"))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_a_commit_a_conversation_names_is_among_its_references(model):
    summary, _ = offline_summary(
        "Amara: GitGuardian flagged a token in the public repo, commit 4f1c9e2",
        "Dan: I'll rotate it in the dashboard now", model=model)
    assert "4f1c9e2" in summary.references, summary.references


@settings(max_examples=40, deadline=None)
@given(title=st.sampled_from(["Setting up your Kettle after the 2.1 update", "Gene lists and Excel",
                              "Plan B draft 2", "Moving the archive to cold storage"]),
       said=st.sampled_from(["I'll write a help article, '{}'", "I'll add a page to the wiki, '{}'.",
                             "it's all in Google Docs, \"{}\". Have a look", "see RFC-014, \"{}\", for the why"]))
def test_a_work_named_in_quotes_after_its_kind_is_a_reference(title, said):
    assert title in set(_references(said.format(title))), list(_references(said.format(title)))


@pytest.mark.parametrize("text", [
    "a rule like, e.g. 'Hundred years, or hundred runs'",  # an example, no work
    "the page, 'it broke' he said",  # a quotation in small letters
    "it opens with 'I am writing to apply for'",  # what a text says, after no kind
])
def test_a_quotation_after_no_kind_of_work_is_no_such_title(text):
    assert not list(_references(text)), list(_references(text))
