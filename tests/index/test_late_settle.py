"""A burst of late messages into one summarized session costs one summary, not one a message
(session 23).

Before, each late message queued its session again due at once (``next_attempt_at = 0``): a
background worker polling while an app replayed its outbox into last week's session
summarized it again at nearly every poll (tools/late_burst.py: 500 late messages at 5 a
second, the worker polling every second: 76 summaries). Now the session waits
``indexing.late_settle_seconds`` after the first late message of the burst before the
worker summarizes it again; an explicit ``index()`` still summarizes it at once. Both
stores (PostgreSQL: ``memlane_add_late``, migration 0016).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memlane.config import load_config
from memlane.index.offline import OfflineIntelligence
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, memory
from memlane.types import Message

NOW = datetime(2024, 6, 10, 12, 0, tzinfo=UTC)
WEEK_AGO = NOW - timedelta(days=7)


class Counting(OfflineIntelligence):
    """The offline backend, counting the sessions it summarizes; ``late_url``: the first
    time, another client delivers a late message to the session being read."""

    def __init__(self, late_url: str | None = None) -> None:
        super().__init__()
        self.calls, self.late_url = 0, late_url

    def summarize(self, scope: str, messages: Sequence[Message]) -> Any:
        self.calls += 1
        if self.late_url is not None:
            url, self.late_url = self.late_url, None
            with memory(url) as other:
                other.add_message(scope, "user", "and my dog Biscuit came along",
                                  at=messages[0].at + timedelta(seconds=30))
        return super().summarize(scope, messages)


def _memory(url: str, intel: Counting, settle: float) -> Memory:
    return Memory(config=load_config(environ={}, overrides={
        "db": url, "indexing": {"late_settle_seconds": settle}}),
        embedder=HashingEmbedder(dim=256, char_trigrams=True), intelligence=intel)


def _last_week(mem: Memory) -> int:
    sid = 0
    for i, text in enumerate(["I moved to Porto last month", "How do you like it?",
                              "I love the river walks", "Sounds lovely."]):
        sid = mem.add_message("chat", "user" if i % 2 == 0 else "assistant", text,
                              at=WEEK_AGO + timedelta(minutes=i)).session_id
    mem.close_session("chat")
    return sid


def test_a_burst_of_late_messages_while_the_worker_polls_costs_one_summary(db_url: str) -> None:
    intel = Counting()
    with _memory(db_url, intel, settle=3600) as mem:
        sid = _last_week(mem)
        mem.index(now=NOW)
        assert intel.calls == 1 and mem.session(sid).summarized
        for k in range(20):  # the app replays its outbox; the worker polls between messages
            mem.add_message("chat", "user", f"late note {k} about the roses",
                            at=WEEK_AGO + timedelta(minutes=2, seconds=k))
            mem.work_once(NOW)
        s = mem.session(sid)
        assert intel.calls == 1, intel.calls  # before: 21
        # the new turns are indexed at once (searchable); the summary waits for the burst
        assert s.indexed and not s.summarized and s.message_count == 24
        assert len(mem.store.session_items(sid, kind="turn")) == 24
        mem.index(now=NOW)  # an explicit index summarizes it at once, with every message
        assert intel.calls == 2 and mem.session(sid).summarized


def test_with_no_settle_the_worker_summarizes_at_its_next_poll(db_url: str) -> None:
    intel = Counting()
    with _memory(db_url, intel, settle=0) as mem:
        sid = _last_week(mem)
        mem.work_once(NOW)
        mem.add_message("chat", "user", "late", at=WEEK_AGO + timedelta(minutes=2, seconds=5))
        mem.work_once(NOW)
        assert intel.calls == 2 and mem.session(sid).summarized


def test_a_late_message_during_the_workers_summary_waits_for_the_settle(db_url: str) -> None:
    """The worker summarizes last week's session; meanwhile a late message joins it: the
    summary is not marked done (session 22), and the session waits like any burst instead of
    being summarized again at the next poll."""
    intel = Counting(late_url=db_url)
    with _memory(db_url, intel, settle=3600) as mem:
        sid = _last_week(mem)
        mem.work_once(NOW)
        assert intel.calls == 1
        s = mem.session(sid)
        assert s.message_count == 5 and not s.summarized
        mem.work_once(NOW)
        assert intel.calls == 1 and mem.session(sid).indexed  # before: 2
        mem.index(now=NOW)
        assert intel.calls == 2 and mem.session(sid).summarized
