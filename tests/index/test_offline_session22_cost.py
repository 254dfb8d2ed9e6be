"""Session 22's speed shortcuts give what the plain computation gives.

``cues.words_of`` (one cached word list of a sentence, shared by the small-talk test, the
content words, ``says_nothing`` and the sentence model's features) is held to the scan it
replaced, on the labelled conversations' sentences and on generated text, also once its
cache has turned over. (The whole summaries of thousands of sessions were compared byte for
byte, docs/summary-eval.md "Session 22: speed".)
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.run import FRESH, POOL, TRAIN, load_set
from memlane.index import cues, offline, sentmodel

SENTENCES = [s for name in (*POOL, *TRAIN, *FRESH)
             for conv in load_set(name) for _, text in conv.turns for s in offline._sentences(text)]
TEXT = st.lists(st.sampled_from(["Thanks!", "OK, ", "I'll", "don't", "İ", "K", "É", "x9", "'s", " ", "."])
                | st.text(max_size=8), max_size=12).map("".join)


def _plain_words(text: str) -> list[str]:
    return cues._WORD.findall(text.lower())


def _check(text: str) -> None:
    words = _plain_words(text)
    assert list(cues.words_of(text)) == words
    assert cues._content(text) == {w for w in words if w not in cues._STOP}
    assert cues.says_nothing(text) == (not {w for w in words if w not in cues.STOPWORDS} - cues._COURTESY)
    assert cues.is_courtesy(text) == cues._COURTESY.issuperset(words)


def test_the_shared_word_list_is_the_scan_on_the_labelled_sentences() -> None:
    assert len(SENTENCES) > 2 * 2048  # past the cache's size: answers after it turned over too
    for _ in range(2):
        for s in SENTENCES:
            _check(s)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_the_shared_word_list_is_the_scan_on_generated_text(text: str) -> None:
    _check(text)
    _check(text)  # the cached answer


def test_the_model_features_read_the_same_words() -> None:
    turns = [cues._Turn("user", "user", ["Should we go with Verbatim Partners?", "I'll call them."]),
             cues._Turn("assistant", "assistant", ["Thanks!", "Sure, I will."])]
    for ti, turn in enumerate(turns):
        for si, s in enumerate(turn.sentences):
            names = sentmodel.cheap_features(turns, ti, si, False)
            words = _plain_words(s)
            assert [n for n in names if n.startswith("m=")] == [
                f"m={w}" for w in dict.fromkeys(words) if w in sentmodel._MODALS or w in sentmodel._PERSON]
            assert ("courtesy" in names) == (len(s) <= cues._SHORT and cues._COURTESY.issuperset(words))


TAILS = st.lists(st.sampled_from(["then", "Then", "THEN", "anyway", "though", "Though", "too", "TOO", "thenn",
                                  ", ", " ", "\t", "\n", ".", "!", "?", "..", "OK", "we ship", "İ", "K", "ſ"])
                 | st.text(max_size=4), max_size=8).map("".join)


def _plain_clean(sentence: str) -> str:
    text = cues._LEAD.sub("", sentence.strip()).strip()
    text = cues._TAIL.sub(r"\1", text)
    if cues._NAME_FIRST.match(text):
        return text
    return text[:1].upper() + text[1:] if text else text


def test_no_text_the_tail_pattern_changes_fails_its_word_test() -> None:
    for s in SENTENCES:
        if cues._TAIL.search(s.strip()):
            assert cues._tail_word(s.strip()), s
        assert cues.clean(s) == _plain_clean(s), s


@settings(max_examples=600, deadline=None)
@given(TAILS)
def test_the_tail_word_test_on_generated_endings(text: str) -> None:
    stripped = text.strip()  # (clean strips the text first)
    assert cues._TAIL.search(stripped) is None or cues._tail_word(stripped)
    assert cues.clean(text) == _plain_clean(text)
