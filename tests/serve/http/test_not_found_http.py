"""A missing object's 404 names what addressed it (session 21): ``GET /v1/sessions/9999``
answered ``field`` null, where a bad ``limit`` is named; a REST route now names its path
parameter (``id``, ``entity``) and ``/actions`` the input (``input.id``, ``input.entity``).
The CLI's side is ``tests/serve/test_not_found_field.py``."""

from __future__ import annotations


def test_the_service_names_the_address_of_a_missing_object(sqlite_service):
    with sqlite_service.client() as c:
        for method, path, field in [("GET", "/v1/sessions/9999", "id"),
                                    ("DELETE", "/v1/sessions/9999", "id"),
                                    ("DELETE", "/v1/facts/9999", "id"),
                                    ("GET", "/v1/packs/9999", "id"),
                                    ("GET", "/v1/graph/Nobody", "entity")]:
            r = c.request(method, path)
            assert r.status_code == 404, (path, r.text)
            assert r.json()["error"]["field"] == field, (path, r.json())
        for kind, inp, field in [("sessions.show", {"id": 9999}, "input.id"),
                                 ("facts.forget", {"id": 9999}, "input.id"),
                                 ("graph.show", {"entity": "Nobody"}, "input.entity")]:
            r = c.post("/actions", json={"kind": kind, "input": inp})
            assert r.status_code == 404 and r.json()["error"]["field"] == field, r.json()
