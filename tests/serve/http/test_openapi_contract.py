"""``/openapi.json`` against what the service answers (session 22). FastAPI's document said
every route answers 200 or 422, the 422 in FastAPI's shape (``{"detail": [...]}``), and
named no key: the service answers ``{"error": {"code", "message", "field"}}`` with 400,
401, 403, 404, 409, 413, 429, 502 and 503 besides. Now every error a route answers is in
its ``responses`` with the ``Error`` schema, the keyed routes carry the bearer scheme, and
the README's table of routes is the document's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[3]
CODES = {"invalid", "unauthorized", "forbidden", "not_found", "method_not_allowed", "conflict",
         "too_large", "invalid_request", "rate_limited", "not_supported", "backend_error",
         "unavailable", "internal"}  # memlane.serve.http.errors


def _error_shape(body: Any) -> None:
    """``body`` is an ``Error`` (checked by hand: jsonschema is no dependency)."""
    assert set(body) == {"error"}, body
    err = body["error"]
    assert set(err) == {"code", "message", "field"}, body
    assert err["code"] in CODES, body
    assert isinstance(err["message"], str) and err["message"]
    assert err["field"] is None or isinstance(err["field"], str)


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, ops in spec["paths"].items()
            for method, op in ops.items()]


def test_every_error_of_the_document_has_the_services_shape(sqlite_service) -> None:
    spec = httpx.get(f"{sqlite_service.url}/openapi.json", timeout=30).json()
    text = json.dumps(spec)
    assert "HTTPValidationError" not in text and '"detail"' not in text
    assert spec["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
    error = spec["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert set(error["properties"]["error"]["properties"]["code"]["enum"]) == CODES
    for method, path, op in _operations(spec):
        errors = {s: r for s, r in op["responses"].items() if s[0] in "45"}
        for status, response in errors.items():
            assert response["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"}, (method, path, status)
        if path in ("/healthz", "/readyz"):
            assert "security" not in op
            continue
        assert op["security"] == [{"bearer": []}], (method, path)
        assert {"401", "403", "422", "429"} <= set(errors), (method, path, sorted(errors))


def _fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def test_every_error_a_route_answers_is_in_its_responses(sqlite_service) -> None:
    """Bad requests of every kind at every route of the document (no key, a revoked one, a
    key of another scope, a read-only key, an unknown parameter, ids of nothing, 0 and
    text, bodies empty, malformed and over the limit, a stored message id again): each
    status answered is one the route's ``responses`` lists, in the ``Error`` shape."""
    svc = sqlite_service
    spec = httpx.get(f"{svc.url}/openapi.json", timeout=30).json()
    keys = {"all": svc.key("*"), "other": svc.key("other"), "ro": svc.key("*", read_only=True)}
    seen: dict[tuple[str, str], set[int]] = {}
    big = json.dumps({"messages": [{"scope": "s", "text": "x" * 5000}]})
    with svc.client(keys["all"]) as c:
        ok = c.post("/v1/messages", json={"messages": [
            {"scope": "s", "text": "hello", "id": "m-1"}]})
        assert ok.status_code == 200, ok.text
    bodies: list[Any] = [None, {}, {"scope": "s"}, "not json", big,
                         {"messages": [{"scope": "s", "text": "hi", "id": "m-1"}]},
                         {"scope": "s", "query": "hello"}, {"scope": "bad\nscope"},
                         {"kind": "sessions.show", "input": {"id": 999_999}},
                         {"kind": "memory.add", "input": {"messages": [
                             {"scope": "s", "text": "hi", "id": "m-1"}]}},
                         {"kind": "stats", "input": {}}, {"kind": "nope", "input": {}}]
    clients = {who: httpx.Client(base_url=svc.url, timeout=30, headers={
        "Content-Type": "application/json", **({"Authorization": f"Bearer {secret}"}
                                               if secret else {})})
        for who, secret in (("none", None), ("revoked", "ml_revoked"), *keys.items())}
    try:
        for method, path, op in _operations(spec):
            if path == "/state/memory":  # a stream: its errors come before it starts
                targets = [path + "?scope=s&zz=1", path, path + "?scope=s&last_event_id=abc"]
            elif "{" in path:
                targets = [_fill(path, v) for v in ("999999", "0", "x")]
            else:
                targets = [path]
            targets += [targets[0] + ("&" if "?" in targets[0] else "?") + "zz=1"]
            takes = "requestBody" in op
            plan = {"none": (targets[:1], [None]), "revoked": (targets[:1], [None]),
                    "other": (targets, bodies[5:] if takes else [None]),
                    "ro": (targets[:1], bodies[5:] if takes else [None]),
                    "all": (targets, bodies if takes else [None])}
            for who, (where, sent) in plan.items():
                for target in where:
                    for body in sent:
                        content = body if isinstance(body, str) else (
                            json.dumps(body) if body is not None else None)
                        r = clients[who].request(method.upper(), target, content=content)
                        seen.setdefault((method, path), set()).add(r.status_code)
                        if r.status_code >= 400:
                            _error_shape(r.json())
    finally:
        for c in clients.values():
            c.close()
    for (method, path), statuses in seen.items():
        documented = {int(s) for s in spec["paths"][path][method]["responses"]}
        assert statuses <= documented, (method, path, sorted(statuses - documented))
    hit = {s for statuses in seen.values() for s in statuses}
    assert {200, 401, 403, 404, 409, 413, 422} <= hit, sorted(hit)


def test_the_readmes_routes_are_the_documents(sqlite_service) -> None:
    """The README's table of routes names every route of the document and no other, and
    its Actions paragraph every action kind."""
    from memlane.serve.http.actions import ACTIONS

    spec = httpx.get(f"{sqlite_service.url}/openapi.json", timeout=30).json()
    documented = {(m.upper(), p) for m, p, _ in _operations(spec)}
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| `POST /v1/messages`") - 200:readme.index("**Keys and tenancy.**")]
    listed: set[tuple[str, str]] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", table, re.M):
        for method, path in re.findall(r"`(GET|POST|DELETE|PUT|PATCH) ([^`?]+)", cell):
            listed.add((method, path.strip()))
    listed = {x for x in listed if not x[1].startswith("/mcp")}
    if "`POST /actions` takes" in readme:  # described above the table
        listed.add(("POST", "/actions"))
    assert listed == documented, (sorted(listed - documented), sorted(documented - listed))
    actions = readme[readme.index("**Actions.**"):readme.index("**Resources**")]
    assert {k for k in ACTIONS if f"`{k}`" not in actions} == set()


def _addressing_nothing(model: Any) -> dict[str, Any]:
    """An input of ``model`` whose every address (``id``, ``session_id``, ``entity``)
    names nothing stored, with its other required fields filled."""
    out: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name in ("id", "session_id") and "MessageIn" not in repr(field.annotation):
            out[field.alias or name] = 999_999
        elif name == "entity":
            out[name] = "nobody"
        elif field.is_required():
            out[field.alias or name] = "s"
    return out


def test_a_route_addressing_nothing_answers_a_status_its_document_lists(sqlite_service) -> None:
    """Every resource route, sent an input whose addresses find nothing (an action reads
    the object it names, then answers 404): the status is among the route's ``responses``.
    ``POST /v1/sessions/close {"session_id": 999999}`` answered a 404 its document did not
    list (the 404s were a hand-kept list of routes; session 27)."""
    from memlane.serve.http.actions import ACTIONS
    from memlane.serve.http.rest import ROUTES

    svc = sqlite_service
    spec = httpx.get(f"{svc.url}/openapi.json", timeout=30).json()
    found: dict[tuple[str, str], int] = {}
    with svc.client(svc.key("*")) as c:
        for method, path, kind in ROUTES:
            inp = _addressing_nothing(ACTIONS[kind].model)
            url = re.sub(r"\{(\w+)\}", lambda g: str(inp.pop(g[1])), path)
            if method == "POST":
                r = c.post(url, json=inp)
            else:
                r = c.request(method, url, params=inp)
            found[(method, path)] = r.status_code
            documented = {int(s) for s in spec["paths"][path][method.lower()]["responses"]}
            assert r.status_code in documented, (method, url, inp, r.status_code, r.text)
    assert found[("POST", "/v1/sessions/close")] == 404, found
    assert found[("GET", "/v1/packs/{id}")] == 404, found


def test_an_unknown_query_parameter_is_told_the_ones_the_document_lists(sqlite_service) -> None:
    """Every operation, sent a query parameter it does not take: 422 naming it and listing
    the query parameters the document gives the operation. The routes whose parameters a
    model declares (``GET /v1/sessions``, ``/v1/facts``, ``/v1/facts/history``) said
    "Extra inputs are not permitted" instead (session 27)."""
    svc = sqlite_service
    spec = httpx.get(f"{svc.url}/openapi.json", timeout=30).json()
    with svc.client(svc.key("*")) as c:
        for method, path, op in _operations(spec):
            if path in ("/healthz", "/readyz"):
                continue
            names = sorted(p["name"] for p in op.get("parameters", []) if p["in"] == "query")
            takes = ", ".join(names) or "no query parameters"
            r = c.request(method.upper(), _fill(path, "1"), params={"zz": "1"})
            assert r.status_code == 422, (method, path, r.text)
            assert r.json()["error"] == {
                "code": "invalid_request", "field": "zz",
                "message": f"zz: unknown query parameter (this route takes {takes})"}, (method, path)
