"""Session 53 (ref53): a quoted title may hold a possessive ("'The Anarchist's Tool Chest'") or an
ampersand ("'Water & Society'"), and a one-word work in quotes after "of" ("the chorus of
'Edelweiss'") is a reference; a one-word quotation elsewhere ("tick 'Subfolders'") is none
(``_QUOTED``, ``_quoted_title`` and ``_OF_QUOTED`` in ``memlane.index.offline``)."""

from memlane.testing import offline_summary


def test_a_quoted_title_with_a_possessive_is_one_reference():
    summary, _ = offline_summary(
        "Dara: I want to start with hand tools, which book should I read first?",
        "Sam: A book helps too. 'The Carpenter's Workshop Manual' covers sharpening and planes.",
        "Dara: Good, I'll order it tonight.")
    assert "The Carpenter's Workshop Manual" in summary.references, summary.references
    assert not any(r.startswith("The Carpenter'") and r != "The Carpenter's Workshop Manual"
                   for r in summary.references), summary.references


def test_a_quoted_title_with_an_ampersand_is_a_reference():
    summary, _ = offline_summary(
        "Mira: The journal title \"Rivers & Towns\" breaks the bibliography.",
        "Owen: I'll escape the ampersand tonight.")
    assert "Rivers & Towns" in summary.references, summary.references


def test_a_one_word_work_in_quotes_after_of_is_a_reference_and_elsewhere_none():
    summary, _ = offline_summary(
        "Lena: The printed copy is missing the last verse of 'Harbourlight'.",
        "Tom: Then we reprint page 12 and tick 'Subfolders' in the export dialog.")
    assert "Harbourlight" in summary.references, summary.references
    assert "Subfolders" not in summary.references, summary.references
