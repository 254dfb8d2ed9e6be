"""/state/memory over the change log's edge cases, read by a real SSE client: a position
the log has pruned gets ``reset`` and a new snapshot, and the stream works the same on
PostgreSQL, where concurrent writers commit out of order."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from httpx_sse import connect_sse

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve import live
from memlane.serve.http import create_app
from memlane.testing import HashingEmbedder
from memlane.testing.http import serving

SCOPE = "chat-live"


def _memory(url: str | Path, **overrides: Any) -> Memory:
    config = load_config(environ={}, overrides={"serve": {"stream_poll_seconds": 0.05},
                                                **overrides})
    return Memory(str(url), config=config, embedder=HashingEmbedder(dim=64))


def _read(url: str, target: Any, state: dict[str, Any] | None = None, last: str | None = None,
          ) -> tuple[list[str], dict[str, Any] | None, str | None]:
    """Events until the client's state equals ``target`` (a state, or a callable giving
    the state to wait for, or None while writes go on), resuming from ``state`` at
    ``last``: (event kinds, state, last id)."""
    kinds: list[str] = []
    headers = {"Last-Event-ID": last} if last is not None else {}
    with httpx.Client(timeout=httpx.Timeout(30.0)) as c, connect_sse(
            c, "GET", url + "/state/memory", params={"scope": SCOPE},
            headers=headers) as source:
        assert source.response.status_code == 200
        for event in source.iter_sse():
            kinds.append(event.event)
            if event.event == "snapshot":
                state = json.loads(event.data)
            elif event.event == "patch":
                assert state is not None
                state = jsonpatch.apply_patch(state, json.loads(event.data)["patch"])
            if event.id:
                last = event.id
            if state == (target() if callable(target) else target):
                return kinds, state, last
    raise AssertionError(f"the stream ended before reaching the target state: {kinds}")


def test_a_pruned_position_gets_reset_and_a_new_snapshot(tmp_path: Path) -> None:
    mem = _memory(tmp_path / "live.db", live={"keep_changes": 2})
    for i in range(5):
        mem.add_message(SCOPE, "user", f"message {i}", at=1_700_000_000 + i)
    with serving(create_app(mem)) as url:
        kinds, _, last = _read(url, live.snapshot(mem.store, SCOPE)[1])
        assert kinds == ["snapshot"] and last is not None
        for i in range(5, 9):
            mem.add_message(SCOPE, "user", f"message {i}", at=1_700_000_000 + i)
        mem.gc(now=1_700_000_000)  # keeps the newest 2 changes: the client's position is gone
        fresh = live.snapshot(mem.store, SCOPE)[1]
        kinds, state, _ = _read(url, fresh, {"stale": True}, last)
    assert kinds == ["reset", "snapshot"] and state == fresh
    mem.close()


def test_the_stream_on_postgres_with_concurrent_writers(pg_url: str) -> None:
    mem = _memory(pg_url)
    mem.upsert("the first vector creates the vector index", scope="elsewhere")
    with serving(create_app(mem)) as url:
        _, state, last = _read(url, live.snapshot(mem.store, SCOPE)[1])
        errors: list[BaseException] = []
        running = [3]
        lock = threading.Lock()

        def write(n: int) -> None:
            writer = _memory(pg_url)
            try:
                for i in range(15):
                    writer.upsert(f"note {n}-{i}", scope=SCOPE)
                    writer.add_message(SCOPE, "user", f"message {n}-{i}", at=1_700_000_000 + i)
                    writer.add_fact("user", "lives_in", f"city {(n + i) % 3}", scope=SCOPE)
                with lock:
                    running[0] -= 1
                    if not running[0]:  # the last one out writes a change the reader waits for
                        writer.upsert("all writers are done", scope=SCOPE, kind="decision")
            except BaseException as e:  # reported in the test's thread
                errors.append(e)
            finally:
                writer.close()

        threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
        for t in threads:
            t.start()

        def target() -> dict[str, Any] | None:  # the final state, once the writers are done
            if errors:
                raise errors[0]
            state = live.snapshot(mem.store, SCOPE)[1]
            return state if any(i["kind"] == "decision" for i in state["items"].values()) else None

        # read while they write: changes committed out of write order must all arrive
        kinds, got, _ = _read(url, target, state, last)
        for t in threads:
            t.join()
    assert not errors, errors
    assert got == live.snapshot(mem.store, SCOPE)[1] and "snapshot" not in kinds
    assert sum(1 for i in got["items"].values() if i["kind"] == "note") == 45
    mem.close()
