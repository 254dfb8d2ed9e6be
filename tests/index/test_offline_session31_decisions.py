"""Session 31's decision class, from heldout27's misses, both ways the offline backend runs: a
terse choice ("Narex then.") is written with the sentence that posed it, and of that sentence
only the clause naming the choice ("For chisels, Narex are good value; 6, 12 and 20 mm are the
useful sizes" gives "Narex — For chisels, Narex are good value") (``_Reader.posed``)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.testing import offline_summary

WAYS = [None, "shipped"]
_OTHER = ["6, 12 and 20 mm are the useful sizes", "the cheaper sets go blunt within a month",
          "most shops stock them in three widths"]


@pytest.mark.parametrize("model", WAYS)
@settings(max_examples=30, deadline=None)
@given(brand=st.sampled_from(["Narex", "Stanley", "Kirschen"]), other=st.sampled_from(_OTHER),
       lead=st.sampled_from(["", "ok, ", "right, "]))
def test_a_terse_choice_keeps_only_the_clause_that_named_it(model, brand, other, lead):
    summary, _ = offline_summary(
        "user: I want to get into woodworking. what chisels should I buy first?",
        "assistant: A Japanese pull saw and three chisels go a long way for small boxes.",
        "user: ok, the saw and the chisels then. the marking gauge can wait",
        f"assistant: For chisels, {brand} are good value; {other}.",
        f"user: {lead}{brand} then.",
        model=model)
    mine = [d for d in summary.decisions if brand.lower() in d.lower()]
    assert mine, summary.decisions
    assert not any(other.split()[-1] in d for d in mine), mine


@pytest.mark.parametrize("model", WAYS)
def test_heldout27_woodworking_decides_narex_in_the_words_that_posed_it(model):
    conv = next(c for c in load_set("heldout27") if c.id == "h27-woodworking-starter-tools")
    decisions = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0].decisions
    assert any("narex" in d.lower() and "sizes" not in d for d in decisions), decisions
