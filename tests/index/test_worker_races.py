"""Several workers over one database (docs/scaling.md, "Session 24: many processes"): what
one worker writes is never undone by another that finds its own reading stale.

Real workers on their own connections, a real loopback model server holding the first
worker's answer; SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any

from memlane.config import LLMServiceConfig, load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def test_a_stale_worker_leaves_the_summary_another_wrote_after_an_erase(db_url: str) -> None:
    """Worker A reads a session's messages and waits on the model; ``forget_item`` takes a
    turn back, which queues the session again; worker B summarises what is left. A's answer
    quotes the erased turn, so A writes nothing: B's summary must stay. A deleted it (the
    session's old intelligence is cleared before the check, in the transaction the check
    then committed), leaving a session marked summarized with no summary at all: seen in
    one of nine runs of writers, workers and an eraser on one PostgreSQL."""
    asked, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def reply(body: dict[str, Any]) -> str:
        calls.append(1)
        first = len(calls) == 1
        if first:
            asked.set()
            release.wait(60)
        place = "Vexmoorville" if first else "Porto"
        return json.dumps({
            "topic": f"Moving to {place}", "context": f"The user moved to {place}.",
            "decisions": [], "topic_tags": [place],
            "entities": [{"name": place, "type": "place", "context": "new home"}],
            "facts": [{"subject": "user", "predicate": "lives in", "object": place, "turn": 1}],
            "relations": [],
        })

    with ChatServer(reply) as srv:
        config = load_config(environ={}).replace(
            indexing={"backend": "llm", "service": "local", "max_attempts": 1},
            llm_services={"local": LLMServiceConfig(base_url=srv.base_url, model="m",
                                                    api_key_env="MEMLANE_TEST_NO_SUCH_KEY")})
        embedder = HashingEmbedder(dim=256, char_trigrams=True)
        mem, a, b = (Memory(db_url, config=config, embedder=embedder) for _ in range(3))
        try:
            add_sessions(mem, [(2, [("user", "I moved to Vexmoorville"), ("assistant", "splendid"),
                                    ("user", "I live in Porto now"), ("assistant", "nice"),
                                    ("user", "the harbour is close"), ("assistant", "lovely")])],
                         now=NOW, scope="alice", index=False)
            done: list[Any] = []
            thread = threading.Thread(target=lambda: done.append(a.index(now=NOW)))
            thread.start()
            assert asked.wait(60)  # A holds the session's six messages, waiting on the model
            [sid] = [s.id for s in mem.sessions("alice")]
            [turn] = [i.id for i in mem.store.session_items(sid, kind="turn")
                      if "Vexmoor" in i.text]
            mem.forget_item(turn)
            assert b.index(now=NOW).sessions_summarized == 1  # B: the five messages left
            release.set()
            thread.join(60)
            assert not thread.is_alive() and done
            store = mem.store
            assert store.get_session(sid).status == "summarized"
            summaries = store.session_items(sid, kind="summary")
            assert len(summaries) == 1 and "Porto" in summaries[0].text
            assert [f.object for f in store.list_facts("alice")] == ["Porto"]
            assert [e.name for e in store.scope_entities("alice")] == ["Porto"]
        finally:
            release.set()
            for m in (a, b, mem):
                m.close()
