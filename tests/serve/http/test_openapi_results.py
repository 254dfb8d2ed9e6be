"""The 200 answers of the most used routes against ``/openapi.json`` (session 22
follow-up): the document gave every 200 an empty schema (``{}``), so a generated client
had no model for a search hit, a pack or a stored message. Now ``POST /v1/search``,
``/v1/pack`` and ``/v1/messages`` name their result, and real answers validate against it
(jsonschema, which the MCP SDK already requires)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator, ValidationError

ROUTES = ("/v1/messages", "/v1/search", "/v1/pack")


def _validate(spec: dict[str, Any], path: str, body: Any) -> None:
    schema = spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"][
        "schema"]
    assert schema, f"{path}: the 200 answer has an empty schema"
    Draft202012Validator({**schema, "components": spec["components"]}).validate(body)


def test_search_pack_and_messages_answer_what_the_document_says(sqlite_service) -> None:
    url = sqlite_service.url
    spec = httpx.get(f"{url}/openapi.json", timeout=30).json()
    for path in ROUTES:
        assert spec["paths"][path]["post"]["responses"]["200"]["content"][
            "application/json"]["schema"], path
    answers: list[tuple[str, Any]] = []

    def post(path: str, body: dict[str, Any]) -> None:
        r = httpx.post(url + path, json=body, timeout=60)
        assert r.status_code == 200, r.text
        answers.append((path, r.json()))

    post("/v1/messages", {"scope": "s", "role": "user", "id": "m-1",
                          "text": "I moved to Lisbon last spring", "at": "2024-05-01T10:00:00Z"})
    post("/v1/messages", {"messages": [
        {"scope": "s", "role": "assistant", "text": "Lisbon is lovely in May",
         "at": "2024-05-01T10:01:00Z", "speaker": "bot"},
        {"scope": "s", "role": "user", "text": "my sister lives in Porto",
         "at": "2024-05-01T10:02:00Z", "agent": "Zoé", "project": "home"}]})
    post("/v1/messages", {"scope": "s", "role": "user", "id": "m-1",  # sent again
                          "text": "I moved to Lisbon last spring", "at": "2024-05-01T10:00:00Z"})
    assert httpx.post(url + "/v1/sessions/close", json={"scope": "s"}, timeout=60
                      ).status_code == 200
    assert httpx.post(url + "/v1/index", json={}, timeout=120).status_code == 200
    post("/v1/search", {"query": "where does the user live", "scope": "s"})
    post("/v1/search", {"query": "quantum chromodynamics", "scope": "nowhere"})  # no hits
    post("/v1/pack", {"query": "where does the user live", "scope": "s"})
    post("/v1/pack", {"query": "quantum chromodynamics", "scope": "nowhere"})
    assert answers[3][1]["hits"], answers[3]  # hits (and their sessions) were validated
    for path, body in answers:
        _validate(spec, path, body)
    # the schemas say something: a hit whose item id is text is refused
    path, body = answers[3]
    body["hits"][0]["item"]["id"] = "17"
    with pytest.raises(ValidationError):
        _validate(spec, path, body)
