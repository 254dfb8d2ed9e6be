"""At-least-once delivery: the same message delivered twice is stored once, on every path
(session 22).

Before, a message whose id its scope held was a ``ConflictError`` (HTTP 409) whether it was
the same message delivered again (a client's retry after a timeout) or a different message
under a reused id: a client could not tell a harmless retry from a lost message, and a
batch retried after a timeout, or overlapping an earlier one, was refused whole (nothing of
it stored). An import met an id already stored with another message and counted it as a
duplicate without a word. Now the same message (same id, role, time, text, speaker, agent,
project) is stored once and the stored one is returned; a different message under a stored
id is an error naming the id, on the library, the HTTP API and ``memlane import``, on both
stores, from several clients at once.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ConflictError
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)


def _msg(i: int, **kw: Any) -> dict[str, Any]:
    return {"scope": "chat", "role": "user", "text": f"message {i}",
            "at": (T0 + timedelta(seconds=i)).isoformat(), "id": f"m-{i}", **kw}


def test_the_library_stores_a_message_delivered_twice_once(db_url: str) -> None:
    with memory(db_url) as mem:
        first = mem.add_message(**_msg(1))
        again = mem.add_message(**_msg(1))
        assert again == first
        # an id is one message: another text, time, role or speaker under it is refused
        for change in ({"text": "edited"}, {"at": (T0 + timedelta(hours=1)).isoformat()},
                       {"role": "assistant"}, {"speaker": "Ana"}):
            with pytest.raises(ConflictError) as e:
                mem.add_message(**{**_msg(1), **change})
            assert e.value.field == "id" and "'m-1'" in str(e.value)
        # a batch delivered twice, and one overlapping it, store each message once
        batch = [_msg(i) for i in range(2, 6)]
        stored = mem.add_messages(batch)
        assert mem.add_messages(batch) == stored
        overlap = mem.add_messages([_msg(i) for i in range(4, 8)])
        assert overlap[:2] == stored[2:] and [m.text for m in overlap[2:]] == ["message 6", "message 7"]
        # ...the same message twice in one batch too
        twice = mem.add_messages([_msg(8), _msg(8)])
        assert twice[0] == twice[1]
        # a batch with one clash stores none of it, naming the message and its id
        with pytest.raises(ConflictError) as e:
            mem.add_messages([_msg(9), {**_msg(3), "text": "not message 3"}])
        assert e.value.field == "messages.1.id" and "'m-3'" in str(e.value)
        assert mem.stats()["messages"] == 8
        (s,) = mem.sessions("chat")
        assert s.message_count == 8


def test_the_http_api_answers_a_retry_with_the_stored_message(db_url: str) -> None:
    with memory(db_url) as mem, serving(create_app(mem, worker=False)) as url, \
            httpx.Client(base_url=url, timeout=30.0) as c:
        one = c.post("/v1/messages", json=_msg(1))
        again = c.post("/v1/messages", json=_msg(1))
        assert one.status_code == again.status_code == 200
        # the same message; ``already_stored`` says which answer is the retry (session 35)
        assert again.json()["messages"] == one.json()["messages"]
        assert (one.json()["already_stored"], again.json()["already_stored"]) == ([False], [True])
        clash = c.post("/v1/messages", json={**_msg(1), "text": "other"})
        assert clash.status_code == 409
        assert clash.json()["error"]["field"] == "id" and "'m-1'" in clash.json()["error"]["message"]
        batch = {"messages": [_msg(i) for i in range(1, 4)]}
        assert c.post("/v1/messages", json=batch).status_code == 200
        retry = c.post("/v1/messages", json=batch)
        assert retry.status_code == 200 and len(retry.json()["messages"]) == 3
        bad = c.post("/v1/messages", json={"messages": [_msg(4), {**_msg(2), "text": "x"}]})
        assert bad.status_code == 409 and bad.json()["error"]["field"] == "messages.1.id"
        assert mem.stats()["messages"] == 3


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_an_import_refuses_an_id_stored_with_another_message(db_url: str, tmp_path: Path) -> None:
    with memory(db_url) as mem:
        mem.add_message(**_msg(1))
        rows = [_msg(0), _msg(2), {**_msg(1), "text": "a different message"}, _msg(5)]
        report = mem.import_file(_jsonl(tmp_path / "a.jsonl", rows))
        # the lines before it stay, the import stops there naming it
        assert (report.imported, report.skipped_duplicates, report.lines) == (2, 0, 3)
        ((line, error),) = report.errors
        assert line == 3 and "id: 'm-1' already exists in scope 'chat'" in error
        assert sorted(m.ext_id for s in mem.sessions("chat") for m in mem.messages(s.id)) == [
            "m-0", "m-1", "m-2"]
        # --strict: nothing of the file
        report = mem.import_file(_jsonl(tmp_path / "b.jsonl", [_msg(6), rows[2]]), strict=True)
        assert report.imported == 0 and report.errors[0][0] == 2
        assert mem.stats()["messages"] == 3
        # the same file again, fixed: each message once
        fixed = [_msg(1) if r["text"] == "a different message" else r for r in rows]
        report = mem.import_file(_jsonl(tmp_path / "c.jsonl", fixed))
        assert (report.imported, report.skipped_duplicates, report.errors) == (1, 3, ())


def test_the_cli_import_names_the_line_and_the_id(cli_run: Any, tmp_path: Path) -> None:
    cli_run("add", "hello", "--scope", "chat", "--id", "m-1", "--at", T0.isoformat())
    f = _jsonl(tmp_path / "in.jsonl", [{"scope": "chat", "role": "user", "text": "bye",
                                        "at": T0.isoformat(), "id": "m-1"}])
    r = cli_run("import", str(f), code=1)
    assert "line 1" in r.output and "'m-1'" in r.output


def test_several_clients_delivering_the_same_messages_store_each_once(db_url: str) -> None:
    """Four clients (each its own connection) deliver the same 30 messages at once, singly
    and in batches: 30 stored, one session, seq 1 to 30, no error."""
    with memory(db_url) as mem:
        mem.add_message("warm", "user", "opens the database")
        errors: list[BaseException] = []

        def deliver(k: int) -> None:
            try:
                with memory(db_url) as m:
                    if k % 2:
                        for i in range(30):
                            m.add_message(**_msg(i))
                    else:
                        for i in range(0, 30, 5):
                            m.add_messages([_msg(j) for j in range(i, i + 5)])
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=deliver, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        (s,) = mem.sessions("chat")
        msgs = mem.messages(s.id)
        assert s.message_count == 30 and [m.seq for m in msgs] == list(range(1, 31))
        assert sorted(m.ext_id for m in msgs) == sorted(f"m-{i}" for i in range(30))


def _unplaced(m: Any) -> Any:
    """A message but its place in its session (``seq`` moves when an earlier one arrives)."""
    return dataclasses.replace(m, seq=0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=1, max_size=20))
def test_any_redelivery_pattern_stores_each_message_once(tmp_path_factory: Any,
                                                         plan: list[tuple[int, bool]]) -> None:
    """Messages delivered any number of times in any order, singly or in batches: each id
    stored once with its content, and every call answers the stored message (its ``seq`` as
    it is now: an earlier message delivered since moved it down, session 23)."""
    db = tmp_path_factory.mktemp("redeliver") / "m.db"
    with memory(db) as mem:
        first: dict[str, Any] = {}
        pending: list[dict[str, Any]] = []
        for i, batched in plan:
            if batched:
                pending.append(_msg(i))
                continue
            if pending:
                for msg in mem.add_messages(pending):
                    assert _unplaced(first.setdefault(msg.ext_id, msg)) == _unplaced(msg)
                pending = []
            got = mem.add_message(**_msg(i))
            assert _unplaced(first.setdefault(got.ext_id, got)) == _unplaced(got)
        if pending:
            for msg in mem.add_messages(pending):
                assert _unplaced(first.setdefault(msg.ext_id, msg)) == _unplaced(msg)
        assert mem.stats()["messages"] == len({i for i, _ in plan}) == len(first)
