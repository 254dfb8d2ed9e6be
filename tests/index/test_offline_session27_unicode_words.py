"""Session 27: the offline backend reads a word of any script whole ("Nações", "café", "Dvořák");
until then its word pattern was ASCII's, and a summary's topics read "caf culture" for "café
culture"."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence, _words
from memlane.testing import offline_summary

_LETTERS = st.characters(categories=("Ll", "Lu"), exclude_characters="İẞ")
"""Letters of any script ("İ" and "ẞ" lower-case to more than one letter)."""


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(_LETTERS, min_size=1, max_size=10).filter(lambda w: not w.isascii()),
                      min_size=1, max_size=6),
       ascii_words=st.lists(st.from_regex(r"\A[a-z]{1,8}\Z"), max_size=3))
def test_a_word_of_any_script_is_read_whole(words, ascii_words):
    said = [*words, *ascii_words]
    assert _words(" ".join(said) + ".") == [w.lower() for w in said]


@settings(max_examples=80, deadline=None)
@given(word=st.sampled_from(["café", "Zürich", "Nações", "Dvořák", "São", "crème", "Łódź", "smörgåsbord"]),
       joined=st.sampled_from(["-", "'"]), tail=st.from_regex(r"\A[a-z]{2,6}\Z"))
def test_a_joined_word_keeps_its_letters(word, joined, tail):
    assert _words(f"the {word}{joined}{tail} again") == ["the", f"{word}{joined}{tail}".lower(), "again"]


@pytest.mark.parametrize("model", [None, "shipped"])
def test_topics_name_a_word_with_an_accent_whole(model):
    summary, _ = offline_summary(
        "user: We love the café culture here, we want to open a café near the river.",
        "assistant: The café culture of the old town is strong; a café by the river gets walkers.",
        "user: Café culture it is then. What about the café licence?",
        model=model)
    said = {"café", "culture", "river", "town", "walkers", "licence"}
    assert any("café" in t.split() for t in summary.topic_tags), summary.topic_tags
    assert {w for t in summary.topic_tags for w in t.split()} <= said, summary.topic_tags


@pytest.mark.parametrize("model", [None, "shipped"])
def test_heldout18_rehearsal_topic_names_dvorak(model):
    conv = next(c for c in load_set("heldout18") if c.id == "h18-dvorak-rehearsal")
    summary = OfflineIntelligence(model).summarize(conv.id, messages_of(conv))[0]
    assert "dvořák finale" in summary.topic_tags
