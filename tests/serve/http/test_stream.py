"""/state/memory read by a real SSE client (httpx-sse); patches applied with jsonpatch
equal a fresh snapshot, and Last-Event-ID resumes after a reconnect and a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from httpx_sse import connect_sse

from memlane.serve import live
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

SCOPE = "chat-live"


def _changes(mem: Any, n: int) -> None:
    """Messages, a closed and indexed session, facts (one superseded), an item, a pack."""
    for i in range(n):
        mem.add_message(SCOPE, "user" if i % 2 == 0 else "assistant",
                        f"turn {i}: I met Maria in Lisbon about the Acme launch",
                        f"2024-03-04T09:{i:02d}:00Z")
        mem.add_message("other-scope", "user", f"noise {i}", f"2024-03-04T09:{i:02d}:00Z")
    mem.close_session(SCOPE)
    mem.index()
    mem.add_fact("user", "lives_in", "Lisbon", scope=SCOPE)
    mem.add_fact("user", "lives_in", "Porto", scope=SCOPE)
    mem.upsert("Prefers tea", kind="preference", scope=SCOPE, topics=["drinks"])
    mem.pack("Maria", 100, scope=SCOPE)


class Reader:
    """Reads a stream, keeping the state the client would hold."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.last_id: str | None = None
        self.kinds: list[str] = []

    def read(self, url: str, target: dict[str, Any], *, stop_after: int | None = None,
             headers: dict[str, str] | None = None) -> None:
        """Read until the state equals ``target`` (or ``stop_after`` events)."""
        with httpx.Client(timeout=httpx.Timeout(20.0)) as c, connect_sse(
                c, "GET", url + "/state/memory", params={"scope": SCOPE},
                headers=headers or {}) as source:
            assert source.response.status_code == 200
            for n, event in enumerate(source.iter_sse(), start=1):
                self.kinds.append(event.event)
                if event.event == "snapshot":
                    self.state = json.loads(event.data)
                elif event.event == "patch":
                    assert self.state is not None
                    self.state = jsonpatch.apply_patch(self.state, json.loads(event.data)["patch"])
                if event.id:
                    self.last_id = event.id
                if self.state == target or (stop_after is not None and n >= stop_after):
                    return
        raise AssertionError("stream ended before reaching the target state")


@pytest.fixture
def mem(tmp_path: Path) -> Any:
    m = memory(tmp_path / "live.db", serve={"stream_poll_seconds": 0.05})
    yield m
    m.close()


def test_patches_applied_to_the_snapshot_equal_a_fresh_snapshot(mem) -> None:
    mem.add_message(SCOPE, "user", "first words", "2024-03-04T08:00:00Z")
    with serving(create_app(mem)) as url:
        reader = Reader()
        _, before = live.snapshot(mem.store, SCOPE)
        reader.read(url, before)
        assert reader.kinds == ["snapshot"]
        _changes(mem, 6)
        _, fresh = live.snapshot(mem.store, SCOPE)
        reader.read(url, fresh, headers={"Last-Event-ID": reader.last_id})
    assert reader.state == fresh
    assert fresh["facts"] and fresh["items"] and fresh["last_pack"]
    assert "snapshot" not in reader.kinds[1:]  # the resume sent patches only


def test_resume_after_reconnect_and_after_a_restart(mem, tmp_path: Path) -> None:
    with serving(create_app(mem)) as url:
        reader = Reader()
        _, start = live.snapshot(mem.store, SCOPE)
        reader.read(url, start)
        _changes(mem, 4)
        _, fresh = live.snapshot(mem.store, SCOPE)
        reader.read(url, fresh, stop_after=3, headers={"Last-Event-ID": reader.last_id})
        assert reader.state != fresh  # disconnected part-way
    # the service restarts on the same database; more changes happen meanwhile
    mem.add_message(SCOPE, "user", "after the restart", "2024-03-05T10:00:00Z")
    again = memory(tmp_path / "live.db", serve={"stream_poll_seconds": 0.05})
    try:
        with serving(create_app(again)) as url:
            _, fresh = live.snapshot(again.store, SCOPE)
            reader.read(url, fresh, headers={"Last-Event-ID": reader.last_id})
    finally:
        again.close()
    assert reader.state == fresh
    assert reader.kinds.count("snapshot") == 1


def test_stream_checks_the_key_and_the_id(mem) -> None:
    from memlane.serve.keys import create_key

    key = create_key(mem.store, "team-*").key
    with serving(create_app(mem)) as url:
        auth = {"Authorization": f"Bearer {key}"}
        r = httpx.get(url + "/state/memory", params={"scope": SCOPE}, headers=auth)
        assert r.status_code == 403 and r.json()["error"]["field"] == "scope"
        assert httpx.get(url + "/state/memory", params={"scope": "team-a"}).status_code == 401
        r = httpx.get(url + "/state/memory", headers=auth)
        assert r.status_code == 422 and r.json()["error"]["field"] == "scope"
        r = httpx.get(url + "/state/memory", params={"scope": "team-a"},
                      headers={**auth, "Last-Event-ID": "yesterday"})
        assert r.status_code == 422 and r.json()["error"]["field"] == "Last-Event-ID"


def test_a_quiet_scope_is_told_the_log_head_by_an_id_only_event(mem) -> None:
    """Only other scopes change: the stream sends no patch but, after some polls, an event
    with an id and no data, which moves the client's Last-Event-ID to the log's head;
    resuming from it sends the scope's next change and nothing else."""
    mem.add_message(SCOPE, "user", "first words", "2024-03-04T08:00:00Z")
    with serving(create_app(mem)) as url:
        seen: list[tuple[str, str, str]] = []
        with httpx.Client(timeout=httpx.Timeout(20.0)) as c, connect_sse(
                c, "GET", url + "/state/memory", params={"scope": SCOPE}) as source:
            for n, event in enumerate(source.iter_sse()):
                seen.append((event.event, event.id, event.data))
                if n == 0:
                    snapshot = event.data
                    for i in range(5):
                        mem.add_message("other-scope", "user", f"noise {i}")
                elif event.data == "":
                    break
                assert n < 5, seen
        head, _ = live.snapshot(mem.store, SCOPE)
        (kind, snapshot_id, _), *between, (_, mark, data) = seen
        assert kind == "snapshot" and data == "" and between == [], seen
        assert int(snapshot_id) < int(mark) == head
        mem.add_message(SCOPE, "user", "news in this scope", "2024-03-05T08:00:00Z")
        _, fresh = live.snapshot(mem.store, SCOPE)
        state, kinds = json.loads(snapshot), []
        with httpx.Client(timeout=httpx.Timeout(20.0)) as c, connect_sse(
                c, "GET", url + "/state/memory", params={"scope": SCOPE},
                headers={"Last-Event-ID": mark}) as source:
            for event in source.iter_sse():
                kinds.append(event.event)
                assert event.event == "patch" and int(event.id) > int(mark), kinds
                state = jsonpatch.apply_patch(state, json.loads(event.data)["patch"])
                if state == fresh:
                    break
    assert state == fresh


def test_a_resume_with_nothing_newer_is_told_the_log_head(mem) -> None:
    """A client resumes a quiet scope from an id other scopes' changes have passed, and the
    log then stands still: an id-only event gives it the head. The stream took the head as
    already told, so none came, and every reconnect re-read the other scopes' changes
    (or met its id pruned and got a whole snapshot again) (session 27)."""
    mem.add_message(SCOPE, "user", "first words", "2024-03-04T08:00:00Z")
    held, _ = live.snapshot(mem.store, SCOPE)
    for i in range(5):
        mem.add_message("other-scope", "user", f"noise {i}")
    head, _ = live.snapshot(mem.store, SCOPE)
    assert head > held
    with serving(create_app(mem)) as url:
        seen: list[tuple[str, str, str]] = []
        # 30 quiet polls of 0.05 s make the mark; the read timeout (under the 15 s between
        # the stream's pings) bounds the wait
        with httpx.Client(timeout=httpx.Timeout(20.0, read=10.0)) as c, connect_sse(
                c, "GET", url + "/state/memory", params={"scope": SCOPE},
                headers={"Last-Event-ID": str(held)}) as source:
            try:
                for event in source.iter_sse():
                    seen.append((event.event, event.id, event.data))
                    break
            except httpx.ReadTimeout:
                pass
    assert seen == [("message", str(head), "")], seen
