"""A body that json.loads refuses without a JSONDecodeError (bytes that are not UTF-8,
arrays nested past the parser's limit) got FastAPI's bare 400 "There was an error parsing
the body", field null, before the key was checked (no key: 400, not 401). Now the key comes
first and the answer is the 422 every other invalid body gets, saying what is wrong."""

from __future__ import annotations

import pytest

BAD = {
    "not UTF-8": (b'{"scope": "team-a", "text": "caf\xe9"}', "not UTF-8 text (byte 0xe9"),
    "nested": (b"[" * 1900 + b"]" * 1900, "nested too deeply"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_body_json_cannot_read_is_a_422_saying_why_after_the_key(sqlite_service, name):
    body, why = BAD[name]
    key = sqlite_service.key("team-*")
    headers = {"Content-Type": "application/json"}
    with sqlite_service.client() as anonymous:
        r = anonymous.post("/v1/messages", content=body, headers=headers)
        assert r.status_code == 401, r.text
    with sqlite_service.client(key) as c:
        for path in ("/v1/messages", "/actions", "/v1/search"):
            r = c.post(path, content=body, headers=headers)
            assert r.status_code == 422, r.text
            err = r.json()["error"]
            assert err["code"] == "invalid_request"
            assert err["message"].startswith("request: the body is not valid JSON: " + why), err
    assert sqlite_service.mem.stats()["messages"] == 0
