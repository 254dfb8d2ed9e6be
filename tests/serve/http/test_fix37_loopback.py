"""The tests' loopback HTTP server (``tests/loopback.py``, session 37, fix37): what a test's
answer is given, an answer that raises, and a request still being answered when the block
ends (the two servers it replaced left that request running on past the test, unsaid)."""

from __future__ import annotations

import threading

import httpx
import pytest

from tests.loopback import Answer, answering


def test_the_answer_gets_the_method_path_and_body() -> None:
    seen: list[tuple[str, str, bytes]] = []

    def answer(method: str, path: str, body: bytes) -> Answer:
        seen.append((method, path, body))
        return 201, b'{"ok": true}', {"X-Seen": str(len(seen))}

    with answering(answer) as url, httpx.Client(base_url=url, timeout=30.0) as http:
        posted = http.post("/v1/x?y=1", content=b"hello")
        got = http.get("/healthz")
    assert seen == [("POST", "/v1/x?y=1", b"hello"), ("GET", "/healthz", b"")]
    assert posted.status_code == 201 and posted.json() == {"ok": True}
    assert posted.headers["Content-Type"] == "application/json"
    assert got.headers["X-Seen"] == "2"


def test_an_answer_that_raises_is_a_500_and_raised_again() -> None:
    def answer(method: str, path: str, body: bytes) -> Answer:
        raise KeyError("already_stored")

    with pytest.raises(KeyError, match="already_stored"), answering(answer) as url:
        res = httpx.post(url + "/actions", content=b"{}", timeout=30.0)
        assert res.status_code == 500 and "KeyError: 'already_stored'" in res.text, res.text


def test_a_request_still_answered_at_the_end_is_an_error_not_a_hang() -> None:
    started, release = threading.Event(), threading.Event()

    def answer(method: str, path: str, body: bytes) -> Answer:
        started.set()
        release.wait(60)
        return 200, b"{}", {}

    def ask(url: str) -> None:
        try:
            httpx.post(url, content=b"{}", timeout=60.0)
        except httpx.HTTPError:
            pass  # the server closed under it

    try:
        with pytest.raises(TimeoutError, match=r"1 request\(s\) still being answered"), \
                answering(answer, stop_timeout=0.2) as url:
            asker = threading.Thread(target=ask, args=(url,), daemon=True)
            asker.start()
            assert started.wait(60)
    finally:
        release.set()
        asker.join(60)
