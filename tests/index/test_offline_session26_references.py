"""Session 26's reference class, from heldout22's misses: a number a thing of some kind is known by
("employee number 40672", "juror number 4471-208") is a reference, the number as written."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence, _references
from memlane.testing import offline_summary


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(["employee", "juror", "Student", "patient", "licence", "Registration", "tenancy"]),
       number=st.from_regex(r"\A[1-9]\d{3,7}(?:-\d{2,4})?\Z"),
       end=st.sampled_from(["", ".", ", Stockport branch", " if you need it"]))
def test_a_number_after_its_kind_is_the_reference(kind, number, end):
    assert number in set(_references(f"my {kind} number {number}{end}"))


@pytest.mark.parametrize("text", [
    "we live at number 2234 on the hill",  # a house
    "my phone number 0770-900461",  # a telephone, read as one (session 25)
    "room number 12 on the left",  # too short to look up
    "they sold a number 2024-25 of them",
    "the number 4471 is in the budget",
])
def test_what_is_no_kinds_number_is_not_read_as_one(text):
    assert not {r for r in _references(text) if r[:1].isdigit() and " " not in r}, list(_references(text))


def test_the_numbered_kinds_keep_their_own_form():
    assert list(_references("order number 40917 came")) == ["order number 40917"]


@pytest.mark.parametrize("model", [None, "shipped"])
def test_heldout22_jury_summons_names_the_juror_number(model):
    conv = next(c for c in load_set("heldout22") if c.id == "h22-jury-summons-deferral")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "4471-208" in conv.expected["references"]
    assert "4471-208" in summary.references
    assert not [e for e in summary.entities if "4471" in e]


def test_a_summary_lists_the_number_once():
    summary = offline_summary("Kwame: my overtime is missing, employee number 40672.",
                              "Hannah: thanks, I'll look at employee number 40672 today.")[0]
    assert summary.references.count("40672") == 1, summary.references
