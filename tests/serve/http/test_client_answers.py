"""``memlane.Client`` in front of something that is not memlane answering: a proxy's
``{"error": "Bad Gateway"}``, an HTML page, a Retry-After given as an HTTP date. Each came
out of the client as an AttributeError, a TypeError or a ValueError; now as the client's
``RemoteError`` with the status and what the answer said (served by a real loopback
server)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from memlane import Client
from memlane.client import RemoteError
from tests.loopback import Answer, answering

ANSWERS: dict[str, Answer] = {
    "error as a string": (502, json.dumps({"error": "Bad Gateway"}).encode(), {}),
    "html 503": (503, b"<html><body>upstream down</body></html>", {"Content-Type": "text/html"}),
    "retry-after date": (429, json.dumps({"error": {"code": "rate_limited",
                                                    "message": "slow down"}}).encode(),
                         {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),
    "retry-after junk": (429, b"{}", {"Retry-After": "soon"}),
    "html 200": (200, b"<html>please log in</html>", {"Content-Type": "text/html"}),
    "json 200 of another shape": (200, b'{"status": "ok"}', {}),
    "error code not a string": (400, json.dumps({"error": {"code": 7, "field": ["x"],
                                                           "message": "bad"}}).encode(), {}),
}


@pytest.fixture
def proxy() -> Iterator[tuple[str, dict[str, Answer]]]:
    current: dict[str, Answer] = {}
    with answering(lambda method, path, body: current["answer"]) as url:
        yield url, current


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_an_answer_that_is_not_memlanes_is_a_remote_error(proxy, name):
    url, current = proxy
    current["answer"] = ANSWERS[name]
    status = ANSWERS[name][0]
    with Client(url, key="k") as client:
        with pytest.raises(Exception) as info:
            client.search("anything", scope="s")
    err = info.value
    if status in (400, 422):
        assert type(err).__name__ == "ValidationError" and "bad" in str(err)
        return
    assert isinstance(err, RemoteError), repr(err)
    assert err.status == status
    if name == "error as a string":
        assert "Bad Gateway" in str(err)
    if name == "html 503":
        assert "upstream down" in str(err)
    if name == "retry-after date":
        assert err.retry_after == 0.0 and err.code == "rate_limited"  # a date long past
    if name == "retry-after junk":
        assert err.retry_after is None
    if status == 200:
        assert err.code == "bad_response"
