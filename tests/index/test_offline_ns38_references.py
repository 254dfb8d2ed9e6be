"""Session 38's reference classes, from heldout33's misses (docs/summary-eval.md, "Session 38:
heldout33's next steps and references classed")."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.offline import _references
from memlane.testing import offline_summary

_PART_NAME = st.one_of(
    st.builds("{} {}".format, st.sampled_from(["Appendix", "appendix", "Annex"]),
              st.one_of(st.from_regex(r"\A[A-H]\Z"), st.integers(1, 40).map(str))),
    st.builds("rule {}.{}".format, st.integers(1, 30), st.integers(1, 20)),
    st.builds("Table {}{}".format, st.sampled_from("SAB"), st.integers(1, 12)),
    st.builds("Schedule {}, para {}".format, st.integers(1, 9), st.integers(1, 12)),
)


@settings(max_examples=60, deadline=None)
@given(name=_PART_NAME,
       said=st.sampled_from(["it's all in {} of the conditions", "that's a forfeit under {}, not a penalty",
                             "I made {} from the CSV", "the wording's vague. {}. I'll forward it",
                             "see {}."]))
def test_a_numbered_part_of_a_document_is_a_reference(name, said):
    assert name in set(_references(said.format(name))), list(_references(said.format(name)))


@pytest.mark.parametrize("text", [
    "Table 12 wants their bill",  # a restaurant's table, a place
    "we booked table 4 for eight",
    "the rule 4 thing again",  # a rule said by one number in passing
    "section 9 of the book",
])
def test_a_table_or_a_rule_said_in_passing_is_no_reference(text):
    assert not list(_references(text)), list(_references(text))


_FORM_KEY = st.from_regex(r"\A[A-Z]{1,4}[0-9]{1,4}\Z")


@settings(max_examples=60, deadline=None)
@given(key=_FORM_KEY,
       said=st.sampled_from(["I'll fill in the {} form tonight", "the form is {}. do I need a copy?",
                             "ask what they said on the {} property information form",
                             "post the {} claim form back"]))
def test_a_form_known_by_its_key_is_a_reference(key, said):
    assert key in set(_references(said.format(key))), list(_references(said.format(key)))


@pytest.mark.parametrize("model", [None, "shipped"])
def test_the_parts_and_forms_a_conversation_names_are_among_its_references(model):
    summary, _ = offline_summary(
        "Tom: The council's letter is in. The permit costs £90 and the rules are in Appendix C",
        "Ria: Does the new layout break rule 6.1 on access?",
        "Tom: No. I'll send the HP4 form back tomorrow", model=model)
    refs = set(summary.references)
    assert {"Appendix C", "rule 6.1", "HP4"} <= refs, summary.references


_LAW = st.builds("{} Act {}".format,
                 st.sampled_from(["Treasure", "Party Wall etc.", "Data Protection", "Children", "Housing Health"]),
                 st.integers(1900, 2030))


@settings(max_examples=40, deadline=None)
@given(law=_LAW, said=st.sampled_from(["you must serve notice under the {} first", "Under the {} you report it",
                                       "the {}, section 17, covers it", "is that in the {}?"]))
def test_a_law_by_its_name_and_year_is_a_reference(law, said):
    assert law in set(_references(said.format(law))), list(_references(said.format(law)))


@pytest.mark.parametrize("text", ["The Act 1996 says so", "Act 2 of the play is long", "an Act of Parliament"])
def test_an_act_without_a_name_and_a_year_is_no_reference(text):
    assert not [r for r in _references(text) if "Act" in r], list(_references(text))
