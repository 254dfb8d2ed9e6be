"""Clients upserting notes of one topic at once: the topic keeps one story thread, and
every note is among its children.

Found with eight clients each posting a note of a new topic at the same moment, five
times: on PostgreSQL each writer looked for the topic's thread, found none and made one
(36 threads for 5 topics), and two links to one thread each wrote back the children list
they had read, losing the other's note. A scope's links are now written under its lock."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx


def test_one_story_thread_per_topic_holding_every_note(service):
    clients, rounds = 8, 5
    key = service.key("team-a")
    barrier = threading.Barrier(clients)

    def one(i: int) -> list[int]:
        with httpx.Client(base_url=service.url, timeout=60,
                          headers={"Authorization": f"Bearer {key}"}) as c:
            ids = []
            for r in range(rounds):
                barrier.wait(timeout=60)
                got = c.post("/v1/items", json={"text": f"note {i} of round {r}",
                                                "scope": "team-a", "topics": [f"travel {r}"]})
                assert got.status_code == 200, got.text
                ids.append(got.json()["id"])
            return ids

    with ThreadPoolExecutor(clients) as pool:
        notes = [ids for ids in pool.map(one, range(clients))]
    rows = service.mem.store._run(
        "SELECT id, extra, children FROM items WHERE lane = 'story_thread'").fetchall()
    threads: dict[str, list[int]] = {}
    for _, extra, children in rows:
        topic = (json.loads(extra) if isinstance(extra, str) else extra)["topic"]
        assert topic not in threads, f"two threads for {topic}"
        threads[topic] = json.loads(children) if isinstance(children, str) else children
    assert sorted(threads) == [f"travel-{r}" for r in range(rounds)]
    for r in range(rounds):
        assert sorted(threads[f"travel-{r}"]) == sorted(ids[r] for ids in notes), r
        assert sorted(i.id for i in service.mem.thread(f"travel {r}", scope="team-a")
                      if i.lane != "story_thread") == sorted(ids[r] for ids in notes)
