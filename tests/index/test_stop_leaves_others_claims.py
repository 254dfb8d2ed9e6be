"""An orderly stop gives back only its own claims (session 25, where qa25c's release meets a
second worker).

Worker 1 claims the session and waits for its model longer than ``indexing.lease_seconds``;
worker 2 claims the session when the lease has run out and is summarizing it; worker 1 is
then stopped (Ctrl-C, ``KeyboardInterrupt`` in its model call) and gives back the claims it
holds. Its release names the lease its claim wrote, which worker 2's claim has replaced:
worker 2's lease and attempt stay, and worker 2 writes the session. Both stores, bounded
waits; the backends are plugins around the offline one (memlane's own backend for the
answer)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any


from memlane.backends.registry import offline_intelligence
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

LEASE = 0.5


class _Held:
    """A model that answers when ``go`` is set, or raises what ``stop`` holds."""

    name = "held"

    def __init__(self, config: Any) -> None:
        self.offline = offline_intelligence(config)
        self.called = threading.Event()
        self.go = threading.Event()
        self.stop: BaseException | None = None

    def summarize(self, scope: str, messages: Sequence[Any]) -> Any:
        self.called.set()
        assert self.go.wait(60)
        if self.stop is not None:
            raise self.stop
        return self.offline.summarize(scope, messages)


def _memory(url: str) -> tuple[Memory, _Held]:
    cfg = load_config(environ={}, overrides={"db": url, "indexing": {"lease_seconds": LEASE}})
    held = _Held(cfg)
    return Memory(config=cfg, embedder=HashingEmbedder(dim=64), intelligence=held), held


def _lease(mem: Memory, session_id: int) -> tuple[Any, int]:
    db = mem.store.db  # type: ignore[attr-defined]
    row = db.execute(db.portable("SELECT lease_until, attempts FROM sessions WHERE id = %s"),
                     (session_id,)).fetchone()
    return row[0], int(row[1])


def test_a_stopped_worker_gives_back_its_claim_not_the_one_that_replaced_it(db_url: str) -> None:
    (m1, model1), (m2, model2) = _memory(db_url), _memory(db_url)
    try:
        for i, text in enumerate(["I moved to Porto last week", "nice, the harbour?",
                                  "yes, my sister Ana lives there", "lovely"]):
            m1.add_message("a", "user" if i % 2 == 0 else "assistant", text,
                           at=f"2024-05-01T10:0{i}:00Z")
        m1.close_session("a")
        (session,) = m1.sessions(scope="a")
        errors: dict[str, BaseException] = {}

        def run(name: str, mem: Memory) -> None:
            try:
                mem.index(now="2024-06-01T00:00:00Z", scope="a")
            except BaseException as e:  # noqa: BLE001 - worker 1's stop is expected here
                errors[name] = e

        w1 = threading.Thread(target=run, args=("w1", m1), daemon=True)
        w1.start()
        assert model1.called.wait(60), "worker 1 never asked its model"
        first, attempts = _lease(m1, session.id)
        time.sleep(LEASE + 0.2)  # worker 1's lease runs out while it waits
        w2 = threading.Thread(target=run, args=("w2", m2), daemon=True)
        w2.start()
        assert model2.called.wait(60), "worker 2 never claimed the session"
        second, attempts2 = _lease(m1, session.id)
        assert second != first and attempts2 == attempts + 1
        model1.stop = KeyboardInterrupt()  # Ctrl-C in worker 1's model call
        model1.go.set()
        w1.join(60)
        assert not w1.is_alive() and isinstance(errors.get("w1"), KeyboardInterrupt)
        assert _lease(m1, session.id) == (second, attempts2)  # worker 2's claim untouched
        model2.go.set()
        w2.join(60)
        assert not w2.is_alive() and "w2" not in errors, errors
        assert m1.session(session.id).summarized
    finally:
        model1.go.set()
        model2.go.set()
        m1.close()
        m2.close()
