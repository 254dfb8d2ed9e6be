"""``/openapi.json`` as the service answers: FastAPI's generated document said every route
answers 200 or 422, the 422 in FastAPI's own shape (``{"detail": [{"loc", "msg",
"type"}]}``), and named no key. The service answers every error as ``{"error": {"code",
"message", "field"}}`` (``errors.py``), with 400, 401, 403, 404, 409, 413, 429, 502 and
503 besides; a client generated from the document had no model for any of them, and one
for a 422 body that never comes.

``install(app)`` replaces ``app.openapi``: each operation lists the error statuses it can
answer, each with the ``Error`` schema, and the routes behind a key carry the bearer
security scheme (``/healthz``, ``/readyz`` and ``/openapi.json`` need none).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

__all__ = ["ERROR_SCHEMA", "install", "statuses_of"]

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {
        "type": "object",
        "required": ["code", "message", "field"],
        "additionalProperties": False,
        "properties": {
            "code": {"type": "string", "enum": [
                "invalid", "unauthorized", "forbidden", "not_found", "method_not_allowed",
                "conflict", "too_large", "invalid_request", "rate_limited", "not_supported",
                "backend_error", "unavailable", "internal"]},
            "message": {"type": "string"},
            "field": {"anyOf": [{"type": "string"}, {"type": "null"}],
                      "description": "The field, parameter or header at fault, dotted as "
                                     "sent (input.k, messages.3.text, scope, "
                                     "Authorization); null when no one field is."},
        },
    }},
}

_WHY = {
    400: "a value memlane refuses (field names it)",
    401: "no API key, or an unknown or revoked one (field: Authorization)",
    403: "a scope the key does not hold, a request spanning every scope without '*', or a "
         "write with a read-only key or to a read-only database",
    404: "the object addressed does not exist, or lives in a scope the key does not hold",
    409: "a message id or item already stored (field names it)",
    413: "a body over serve.max_body_bytes (field: Content-Length, or body when sent "
         "without one)",
    422: "a request that does not match its schema, or a query parameter the route does "
         "not take (field names it)",
    429: "over serve.rate_limit (Retry-After says when to try again)",
    501: "the live stream is not available on this store",
    502: "the embedder or LLM backend failed",
    503: "the database failed (Retry-After says when to try again)",
}

_OPEN = {"/healthz", "/readyz"}
_NO_INPUT = {("get", "/metrics"), ("get", "/v1/stats")}  # no value for memlane to refuse
_BY_ID = 404
_CONFLICT = {("post", "/v1/messages"), ("post", "/v1/items"), ("post", "/actions")}
_BACKEND = {("post", p) for p in ("/v1/messages", "/v1/search", "/v1/pack", "/v1/items",
                                  "/v1/index", "/v1/sessions/close", "/actions")}


def _not_found() -> set[tuple[str, str]]:
    """The routes that answer 404: ``/actions`` and each route of an action that finds a
    stored object (``Action.finds``). Listed by hand apart from the actions, ``POST
    /v1/sessions/close`` (its ``session_id``) was left out: it answered a 404 its document
    did not list (session 27)."""
    from memlane.serve.http.actions import ACTIONS
    from memlane.serve.http.rest import ROUTES

    return {("post", "/actions")} | {(method.lower(), path) for method, path, kind in ROUTES
                                     if ACTIONS[kind].finds}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _results() -> tuple[dict[tuple[str, str], dict[str, Any]], dict[str, Any]]:
    """The 200 body of every route (``results.py``), by ``(method, path)``, and the schemas
    they refer to. Session 22 named search, pack and messages; the rest had ``{}``."""
    from memlane.serve.http import results
    from memlane.serve.http.rest import ROUTES

    named, components = results.schemas()
    found = {(method.lower(), path): named[results.BY_KIND[kind]]
             for method, path, kind in ROUTES}
    found.update({route: named[name] for route, name in results.BY_ROUTE.items()})
    kinds = sorted(set(results.BY_KIND.values()))
    found[("post", "/actions")] = {
        "title": "ActionResponse", "type": "object", "required": ["ok", "result", "timings"],
        "properties": {
            "ok": {"const": True},
            "result": {"anyOf": [named[k] for k in kinds],
                       "description": "The kind's result: what its REST route answers "
                                      "(memory.search: SearchResult, stats: Stats, …)."},
            "timings": {"type": "object", "additionalProperties": {"type": "number"},
                        "description": "Milliseconds of each stage (request_ms: the whole)."},
        }}
    return found, components


_TEXT = {
    ("get", "/metrics"): ("text/plain", "Prometheus' text exposition format (version 0.0.4)."),
    ("get", "/state/memory"): ("text/event-stream", "Server-Sent Events: snapshot (data: the "
                               "scope's state), patch (data: {topic, patch: [RFC 6902 "
                               "operations]}), reset, and id-only events (docs/live.md)."),
}
"""The routes whose 200 is not JSON: its media type and what it holds."""


def statuses_of(method: str, path: str, has_body: bool) -> set[int]:
    """The error statuses ``method path`` can answer."""
    if path in _OPEN:
        return {503} if path == "/readyz" else set()
    found = {401, 403, 422, 429, 503}
    if (method, path) not in _NO_INPUT:
        found.add(400)
    if path == "/state/memory":
        found.add(501)
    if (method, path) in _not_found():
        found.add(_BY_ID)
    if (method, path) in _CONFLICT:
        found.add(409)
    if (method, path) in _BACKEND:
        found.add(502)
    if has_body:
        found.add(413)
    return found


def _document(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, summary=app.summary,
                      description=app.description, routes=app.routes)
    components = doc.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    components["securitySchemes"] = {"bearer": {
        "type": "http", "scheme": "bearer",
        "description": "An API key (memlane keys create). While no key was ever created "
                       "the service is open to loopback clients and needs none."}}
    results, found = _results()
    clash = {n for n in set(found) & set(schemas) if n != "ActionResponse"}
    assert not clash, f"result schemas named as input models: {sorted(clash)}"
    schemas.update(found)
    schemas.pop("ActionResponse", None)  # FastAPI's, whose result was open
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in doc.get("paths", {}).items():
        for method, op in operations.items():
            responses = op.setdefault("responses", {})
            for status in list(responses):
                if status != "200" and status.isdigit() and int(status) >= 400:
                    del responses[status]
            for status in sorted(statuses_of(method, path, "requestBody" in op)):
                responses[str(status)] = {"description": _WHY[status], "content": ref}
            if (method, path) in results and "200" in responses:
                responses["200"]["content"] = {"application/json": {
                    "schema": results[(method, path)]}}
            elif (method, path) in _TEXT and "200" in responses:
                media, what = _TEXT[(method, path)]
                responses["200"]["content"] = {media: {"schema": {"type": "string",
                                                                  "description": what}}}
            if path not in _OPEN:
                op["security"] = [{"bearer": []}]
    app.openapi_schema = doc
    return doc


def install(app: FastAPI) -> None:
    """``app.openapi`` (and so ``/openapi.json`` and ``/docs``) answers the document above."""
    app.openapi = lambda: _document(app)  # type: ignore[method-assign]
