"""How a ``/state/memory`` stream opens, for the tests of what it refuses before it starts."""

from __future__ import annotations

import httpx


def opening(c: httpx.Client, scope: str = "chat-42",
            headers: dict[str, str] | None = None) -> tuple[int, str]:
    """The status and the first event's name (or, for a refusal, its body); "quiet" for a
    resume with nothing newer (the stream then waits for changes), "" for a stream that
    ended with no event."""
    try:
        with c.stream("GET", "/state/memory", params={"scope": scope}, headers=headers or {},
                      timeout=httpx.Timeout(30, read=3)) as r:
            if r.status_code != 200:
                r.read()
                return r.status_code, r.text
            for line in r.iter_lines():
                if line.startswith("event:"):
                    return 200, line.partition(":")[2].strip()
    except httpx.ReadTimeout:
        return 200, "quiet"
    return 200, ""
