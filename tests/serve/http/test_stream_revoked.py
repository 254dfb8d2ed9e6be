"""A live stream is authenticated again as it runs: a key revoked while its
/state/memory stream was open kept receiving its scope's changes for as long as the
connection lasted (the key was checked once, at the start). Now the stream ends at its
next poll once the key is gone (``serve.key_cache_seconds``, as for every request), and
the reconnect is refused."""

from __future__ import annotations

import threading
import time

import httpx

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving


def test_a_revoked_keys_open_stream_ends_and_cannot_reconnect(db_url):
    mem = memory(db_url, serve={"key_cache_seconds": 0, "stream_poll_seconds": 0.05})
    try:
        key = create_key(mem.store, "team-*", name="leaked")
        with serving(create_app(mem, worker=False)) as url:
            headers = {"Authorization": f"Bearer {key.key}"}
            lines: list[str] = []
            opened, ended = threading.Event(), threading.Event()

            def listen() -> None:
                try:
                    with httpx.stream("GET", f"{url}/state/memory", params={"scope": "team-a"},
                                      headers=headers, timeout=httpx.Timeout(10, read=60)) as r:
                        for line in r.iter_lines():
                            lines.append(line)
                            if line.startswith("event: snapshot"):
                                opened.set()
                finally:
                    ended.set()

            t = threading.Thread(target=listen, daemon=True)
            t.start()
            assert opened.wait(30)
            with mem.store.atomic():
                assert mem.store.revoke_api_key(key.id, time.time())
            for i in range(200):  # changes keep coming; the stream must end, not carry them
                if ended.is_set():
                    break
                mem.add_message("team-a", "user", f"after the revocation {i}")
                ended.wait(0.1)
            assert ended.is_set(), "the revoked key's stream is still open"
            t.join(10)
            assert "event: patch" not in lines  # no change reached the revoked key
            r = httpx.get(f"{url}/state/memory", params={"scope": "team-a"}, headers=headers)
            assert r.status_code == 401
    finally:
        mem.close()
