"""A late message (and an import resuming a label) against a worker summarizing the session
it joins, on the PostgreSQL the tests start (session 25). The worker is held with the
store's own tracer after it deleted the session's old summary and before it inserts the
new; the other writer is seen waiting in ``pg_locks`` (bounded waits only)."""

from __future__ import annotations

import io
import json
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memlane.config import load_config
from memlane.ingest.importer import import_jsonl
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.pg_race import hold_summary_insert, lock_waits, race

T0 = datetime(2024, 6, 1, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=1)
TEXTS = ["I moved to Porto last week", "nice, the harbour?", "yes, my sister Ana lives there",
         "lovely"]


def _memory(url: str, tracer: Any = None) -> Memory:
    return Memory(url, config=load_config(environ={}), tracer=tracer,
                  embedder=HashingEmbedder(dim=64))


@pytest.mark.parametrize("how", ["add_message", "import"])
def test_a_late_message_waits_for_a_worker_summarizing_its_session(pg_url: str,
                                                                   how: str) -> None:
    """Session S (9:00-9:03, summarized) gets a late message at 9:01:30 (queued again); a
    worker summarizes S again: it has deleted S's old summary and facts and is about to
    insert the new. Another late message at 9:00:30 then joins S. It locked S's row, then
    renumbered S's items (the worker had deleted some: it waited for the worker), while
    the worker's inserts waited for S's row: a deadlock, and PostgreSQL failed the user's
    message. The message now takes the scope's facts lock first and waits for the worker.
    The same through an import resuming S's label."""
    held, go = threading.Event(), threading.Event()
    tracer = hold_summary_insert(held, go)

    lines = [{"scope": "chat", "role": "user" if i % 2 == 0 else "assistant", "text": text,
              "id": f"m{i}", "at": (T0 + timedelta(minutes=i)).isoformat(), "session": 1}
             for i, text in enumerate(TEXTS)]
    with _memory(pg_url) as mem, _memory(pg_url, tracer) as worker, _memory(pg_url) as writer:
        body = "".join(json.dumps(x) + "\n" for x in lines)
        import_jsonl(mem.store, mem.config.ingest, io.StringIO(body))
        mem.close_session("chat")
        mem.index(now=NOW)
        [s] = mem.sessions("chat")
        assert mem.store.session_items(s.id, kind="summary")
        mem.add_message("chat", "user", "and Ana has a boat", at=T0 + timedelta(seconds=90))
        late = T0 + timedelta(seconds=30)
        if how == "add_message":
            def write() -> None:
                writer.add_message("chat", "user", "we sailed to the islands", at=late)
        else:
            again = [*lines, {**lines[0], "text": "we sailed to the islands", "id": "late",
                              "at": late.isoformat()}]

            def write() -> None:
                report = import_jsonl(writer.store, writer.config.ingest, io.StringIO(
                    "".join(json.dumps(x) + "\n" for x in again)))
                assert not report.errors and report.imported == 1, report

        errors = race(lambda: worker.index(now=NOW), write, name="worker", held=held, go=go,
                      waiting=lambda: lock_waits(mem))
        assert errors == []
        [kept] = mem.sessions("chat")
        assert [x.text for x in mem.messages(kept.id)][:2] == [TEXTS[0],
                                                               "we sailed to the islands"]
        assert mem.index(now=NOW).sessions_summarized == 1
