"""Session 55 (ns55): the message a run failed with, in quotes ("the build died with 'OutOfMemory
Killed'"), is a reference, an apostrophe inside it and all (``_FAILED_WITH`` in
``memlane.index.offline``); a message someone "says" is a status, and stays out."""

from memlane.testing import offline_summary


def test_the_message_a_run_failed_with_is_a_reference():
    summary, _ = offline_summary(
        "user: The nightly export job failed with 'Can't open the spool file for writing' again.",
        "assistant: Check that the spool folder still belongs to the service account.",
        "user: It doesn't. I'll fix the owner tonight.")
    assert "Can't open the spool file for writing" in summary.references, summary.references


def test_a_status_someone_says_is_no_reference():
    summary, _ = offline_summary(
        "user: The parcel tracker says 'waiting at depot' since Monday.",
        "assistant: Ring the depot and ask them to release it.",
        "user: I'll ring them tomorrow.")
    assert "waiting at depot" not in summary.references, summary.references
