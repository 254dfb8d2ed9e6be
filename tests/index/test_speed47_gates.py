"""perf47's cheaper forms of the offline summarizer's passes (issue #17, the speed) pass every
text the forms they spare would act on, so no output changes (``tools/summary_dump.py --check``
holds whole summaries to the same output)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index import cues, offline
from memlane.testing import offline_summary

ECHO_PIECES = st.sampled_from(["Two nets", "per tenant", "Default keys", "x", ",", ", ", ";", ":", "?", "yes", "YES", "Yes",
                               "yeah", "yep", "fine", "FINE", "agreed", "yess", "eyes", "finer", ".", "!", "!!", "..", " ", "  ",
                               "\t", "\n", "\x1f", "\xa0", "é", "ı", "ſ", "\u212a"])


@settings(max_examples=4000, deadline=None)
@given(st.lists(ECHO_PIECES, max_size=10).map("".join))
def test_the_echo_gate_passes_every_sentence_its_pattern_matches(said: str) -> None:
    """``echoed_yes`` matches :attr:`_Reader._ECHO_YES` only where its gate passes: whatever the
    blanks at either end, the case, the marks after the word and the script (text not plain
    ASCII, the dotless ı and the long ſ that the case-blind pattern reads as i and s, always passes)."""
    if cues._Reader._ECHO_YES.match(said.strip()) is not None:
        assert cues._Reader._may_echo_yes(said)


def test_the_echo_gate_spares_a_sentence_not_ending_on_its_word() -> None:
    for said in ("Two nets, yes.", " Per tenant, YEAH! ", "Default keys, fine", "Monday, agreed."):
        assert cues._Reader._may_echo_yes(said) and cues._Reader._ECHO_YES.match(said.strip())
    for spared in ("Yes, two nets.", "Two nets yes.", "Two nets, yes!!", "Fine, I'll book it.", "It is fine, I think"):
        assert not cues._Reader._may_echo_yes(spared) and cues._Reader._ECHO_YES.match(spared.strip()) is None


def test_a_few_words_echoed_with_yes_still_take_up_the_proposal() -> None:
    summary, _ = offline_summary("Ana: For the river race this year two nets, one at the finish and a backup further down.",
                                 "Ben: Two nets, yes.", model=None)
    assert any("two nets" in d.lower() for d in summary.decisions), summary.decisions


DEPLOY_PIECES = st.sampled_from(["sessions", "callrec", "staging", "prod", "eu", "us", "api", "dev", "worker", "-", "--", "_",
                                 ".", "/", "@", "#", " ", "multi", "Prod", "PROD", "x1", "2", "export", "exports", "re"])


@settings(max_examples=4000, deadline=None)
@given(st.lists(DEPLOY_PIECES, max_size=10).map("".join))
def test_every_deployed_name_holds_a_part_after_its_hyphen(text: str) -> None:
    """:data:`offline._DEPLOYED` finds a name only in a text holding one of
    :data:`offline._DEPLOY_HYPHENED`, the gate ``_references`` now reads before it."""
    if offline._DEPLOYED.search(text) is not None:
        assert any(part in text for part in offline._DEPLOY_HYPHENED)


def test_a_deployed_name_is_still_a_reference_and_a_part_alone_is_not_searched() -> None:
    refs = set(offline._references("Restart sessions-prod and then callrec-prod-eu before the export."))
    assert {"sessions-prod", "callrec-prod-eu"} <= refs, refs
    assert not any(part in "We export the dev build to the US api." for part in offline._DEPLOY_HYPHENED)


def test_someone_doing_still_writes_a_named_persons_step_and_not_a_common_words() -> None:
    summary, _ = offline_summary("Ana: Flights and hotel for Porto next.", "Ravi: Ravi is doing the flights.",
                                 "Ana: Good, and Sophie will book the hotel.", "Ben: This is doing the rounds online.",
                                 "Sophie: Fine by me.", model=None)
    owners = [a.split(":", 1)[0] for a in summary.action_items]
    assert "Ravi" in owners and "This" not in owners, summary.action_items


UNKNOWN_PIECES = st.sampled_from(["I", "we", "We", "still", "don't", "dont", "really", "know", "KNOW", "not", "clear", "to me",
                                  "do", "does", "anyone", "any one", "did", "ever", "figure", "worked", "out", "haven't",
                                  "talked", "about", "yet", "whether", "WHETHER", "if", "If", "how", "what", "who", "when",
                                  "where", "which", "why", "ıf", "Whıch", "the", "rota", "pays", ",", ".", "?", "and", "but",
                                  "nobody knows", "who knows", "\t", "\n"])


@settings(max_examples=4000, deadline=None)
@given(st.lists(UNKNOWN_PIECES, max_size=14).map(" ".join))
def test_the_unknown_gate_passes_every_sentence_its_patterns_match(s: str) -> None:
    """``unknown`` searches :data:`cues._UNKNOWN` and :data:`cues._UNKNOWN_FRONTED` only where
    :func:`cues._may_ask_unknown` passes: whatever the case and the script (the dotless ı, which
    the case-blind patterns read as i, is not plain ASCII and always passes)."""
    if cues._UNKNOWN.search(s) is not None or cues._UNKNOWN_FRONTED.match(s) is not None:
        assert cues._may_ask_unknown(s)


def test_what_nobody_knows_yet_is_still_an_open_question() -> None:
    assert not cues._may_ask_unknown("I know the area well.")
    summary, _ = offline_summary("Ana: The hall is booked for the quiz night.",
                                 "Ben: We still don't know whether the caterer can do forty people.", model=None)
    assert any("caterer" in q for q in summary.open_questions), summary.open_questions
