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

__all__ = ["ERROR_SCHEMA", "RESULTS", "install", "statuses_of"]

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
         "write with a read-only key",
    404: "the object addressed does not exist, or lives in a scope the key does not hold",
    409: "a message id or item already stored (field names it)",
    413: "a body over serve.max_body_bytes",
    422: "a request that does not match its schema, or a query parameter the route does "
         "not take (field names it)",
    429: "over serve.rate_limit (Retry-After says when to try again)",
    501: "the live stream is not available on this store",
    502: "the embedder or LLM backend failed",
    503: "the database failed",
}

_OPEN = {"/healthz", "/readyz"}
_NO_INPUT = {("get", "/metrics"), ("get", "/v1/stats")}  # no value for memlane to refuse
_BY_ID = 404
_CONFLICT = {("post", "/v1/messages"), ("post", "/v1/items"), ("post", "/actions")}
_BACKEND = {("post", p) for p in ("/v1/messages", "/v1/search", "/v1/pack", "/v1/items",
                                  "/v1/index", "/v1/sessions/close", "/actions")}
_NOT_FOUND = {("post", "/actions"), ("get", "/v1/sessions/{id}"),
              ("delete", "/v1/sessions/{id}"), ("delete", "/v1/facts/{id}"),
              ("get", "/v1/packs/{id}"), ("get", "/v1/graph/{entity}")}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


RESULTS: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/v1/search"): {
        "title": "SearchResult", "type": "object", "required": ["query", "hits", "notice"],
        "properties": {
            "query": {"type": "string"},
            "hits": {"type": "array", "items": _ref("Hit"),
                     "description": "Best first: each item, its session and its scores."},
            "notice": {"anyOf": [{"type": "string"}, {"type": "null"}],
                       "description": "Why nothing was found; null when something was."}}},
    ("post", "/v1/pack"): _ref("Pack"),
    ("post", "/v1/messages"): {
        "title": "AddResult", "type": "object", "required": ["messages"],
        "properties": {"messages": {"type": "array", "items": _ref("Message"),
                                    "description": "Each message as stored, in the order "
                                                   "sent (a message sent again: the stored "
                                                   "one)."}}},
}
"""The 200 body of the most used routes (session 22): FastAPI's document gave every 200 an
empty schema, as the handlers answer a ``JSONResponse`` built from the library's
dataclasses. The schemas of those dataclasses (``Message``, ``Hit`` with ``Item`` and
``Session``, ``Pack`` with ``PackEntry``) are pydantic's serialization schemas of them,
so they follow the types; ``tests/serve/http/test_openapi_results.py`` validates real
answers against them."""


def _result_schemas() -> dict[str, Any]:
    from pydantic import TypeAdapter

    from memlane.pack.packer import Pack
    from memlane.types import Hit, Message

    found: dict[str, Any] = {}
    for cls in (Message, Hit, Pack):
        schema = TypeAdapter(cls).json_schema(mode="serialization",
                                              ref_template="#/components/schemas/{model}")
        found.update(schema.pop("$defs", {}))
        found[cls.__name__] = schema
    return found


def statuses_of(method: str, path: str, has_body: bool) -> set[int]:
    """The error statuses ``method path`` can answer."""
    if path in _OPEN:
        return {503} if path == "/readyz" else set()
    found = {401, 403, 422, 429, 503}
    if (method, path) not in _NO_INPUT:
        found.add(400)
    if path == "/state/memory":
        found.add(501)
    if (method, path) in _NOT_FOUND:
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
    schemas.update(_result_schemas())
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in doc.get("paths", {}).items():
        for method, op in operations.items():
            responses = op.setdefault("responses", {})
            for status in list(responses):
                if status != "200" and status.isdigit() and int(status) >= 400:
                    del responses[status]
            for status in sorted(statuses_of(method, path, "requestBody" in op)):
                responses[str(status)] = {"description": _WHY[status], "content": ref}
            if (method, path) in RESULTS and "200" in responses:
                responses["200"]["content"] = {"application/json": {
                    "schema": RESULTS[(method, path)]}}
            if path not in _OPEN:
                op["security"] = [{"bearer": []}]
    app.openapi_schema = doc
    return doc


def install(app: FastAPI) -> None:
    """``app.openapi`` (and so ``/openapi.json`` and ``/docs``) answers the document above."""
    app.openapi = lambda: _document(app)  # type: ignore[method-assign]
