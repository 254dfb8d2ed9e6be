"""``memlane.Client`` in front of a memlane service older than its own (session 36, rev36).

Session 35 added ``already_stored`` to the service's answer to ``memory.add`` and read it in
``Client.add_message`` / ``add_messages`` as ``res["already_stored"]``: in front of a
session-34 service (an upgrade of the clients before the service) every add raised
``KeyError: 'already_stored'`` after the service had stored the message, and a caller's
retry of it was a second request for a message it thought lost. The answer of that service
is served here by a real loopback server from a real ``Memory``'s message."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import Client
from memlane.serve.render import message_dict
from memlane.testing import memory
from tests.loopback import Answer, answering


@pytest.fixture
def older_service(tmp_path: Path) -> Iterator[tuple[str, list[dict[str, object]]]]:
    """A loopback server answering ``memory.add`` as session 34's service did: the stored
    messages and nothing else (stored for real, in a SQLite file)."""
    mem = memory(str(tmp_path / "m.db"))
    asked: list[dict[str, object]] = []
    lock = threading.Lock()

    def answer(method: str, path: str, body: bytes) -> Answer:
        sent = json.loads(body)
        asked.append(sent)
        inp = sent["input"]
        with lock:
            if "messages" in inp:
                stored = mem.add_messages(inp["messages"])
            else:
                stored = [mem.add_message(inp["scope"], inp["role"], inp["text"],
                                          inp.get("at"), id=inp.get("id"))]
        return 200, json.dumps({"result": {"messages": [message_dict(s) for s in stored]},
                                "timings": {}}).encode(), {}

    try:
        with answering(answer) as url:
            yield url, asked
    finally:
        mem.close()


def test_adds_in_front_of_a_service_that_does_not_say_already_stored(older_service) -> None:
    url, asked = older_service
    with Client(url, key="k") as client:
        one = client.add_message("s", "user", "hello", id="m-1")
        assert one.ext_id == "m-1" and one.text == "hello"
        assert client.last_already_stored == ()  # the service did not say
        two = client.add_messages([{"scope": "s", "role": "user", "text": "a", "id": "m-2"},
                                   {"scope": "s", "role": "user", "text": "b", "id": "m-3"}])
        assert [m.ext_id for m in two] == ["m-2", "m-3"]
        assert client.last_already_stored == ()
    assert len(asked) == 2  # one request each: nothing was sent again
