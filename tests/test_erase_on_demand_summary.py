"""A summary written on demand (``summarize_recent`` + ``store_summary``) quotes a window
of messages that can reach back into an earlier session than its own: erasing that
earlier session left the summary, its text quoting the erased messages and its
``extra.message_ids`` naming them. And a draft confirmed after its messages were erased
stored their text again."""

from __future__ import annotations

import pytest

from memlane.config import load_config
from memlane.errors import ConflictError, NotFoundError
from memlane.memory import Memory
from memlane.testing import HashingEmbedder


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


def _two_sessions(mem: Memory) -> int:
    mem.add_message("s", "user", "My secret code word is PINEAPPLE", "2024-05-01T10:00:00Z")
    mem.add_message("s", "assistant", "Noted the PINEAPPLE word", "2024-05-01T10:01:00Z")
    first = mem.close_session("s")
    assert first is not None
    mem.add_message("s", "user", "Let us talk about cars now", "2024-05-01T12:00:00Z")
    mem.add_message("s", "assistant", "Cars are nice", "2024-05-01T12:01:00Z")
    return first.id


def test_erasing_a_session_erases_summaries_quoting_it(db_url: str) -> None:
    with _memory(db_url) as mem:
        first = _two_sessions(mem)
        draft = mem.summarize_recent("s", 4)
        assert draft.session_id != first  # the summary belongs to the newer session
        item_id = mem.store_summary(draft)
        assert "PINEAPPLE" in mem.item(item_id).text
        report = mem.forget_session(first)
        assert report.counts["items"] >= 1
        with pytest.raises(NotFoundError):
            mem.item(item_id)
        assert not [h for h in mem.search("PINEAPPLE code word", scope="s")
                    if "PINEAPPLE" in h.item.text]
        # a summary of the newer session's own messages stays
        kept = mem.store_summary(mem.summarize_recent("s", 2))
        assert mem.item(kept).session_id == draft.session_id


def test_a_draft_of_erased_messages_is_refused(db_url: str) -> None:
    with _memory(db_url) as mem:
        first = _two_sessions(mem)
        draft = mem.summarize_recent("s", 4)
        mem.forget_session(first)
        before = mem.stats()["items"]
        with pytest.raises(ConflictError, match=r"draft: message \d+ of scope 's' was erased"):
            mem.store_summary(draft)
        assert mem.stats()["items"] == before


def test_a_draft_stays_valid_while_the_chat_goes_on(db_url: str) -> None:
    with _memory(db_url) as mem:
        _two_sessions(mem)
        draft = mem.summarize_recent("s", 2)
        mem.add_message("s", "user", "and one more thing", "2024-05-01T12:02:00Z")
        assert mem.item(mem.store_summary(draft)).extra["message_ids"] == list(draft.message_ids)
