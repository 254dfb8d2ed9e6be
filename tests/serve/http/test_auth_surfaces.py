"""Keys against the surfaces ``/openapi.json`` does not describe (session 25): the live stream,
``/metrics``, the MCP endpoint and the inspector's pages and forms, each with the key in the
header and in the inspector's cookie. ``test_fuzz_schema.py`` walks the documented routes.

Every key kind: none, an unknown one, a revoked one, a key of another scope, a read-only key
of the scope, the scope's key, ``*``. As the README documents: 401 for no, unknown or revoked
keys (the inspector's pages send a browser to sign in instead), 403 for a scope the key does
not hold, for a request that spans every scope (``/metrics``, the Health page) without
``*`` and for a write with a read-only key (an MCP tool error, the MCP way); another
scope's object addressed by id is missing (404); the cookie is taken for reads and for the
inspector's forms with their CSRF token, never for a JSON or MCP write. After each refused
write, nothing was stored and nothing erased. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import httpx
import pytest

from memlane.errors import NotFoundError
from tests.serve.http.conftest import Service

# this walk sends every refused key to every surface from one address, dozens of failed
# authentications a second: not slowed here (test_failed_auth_limit.py tests the limit)
SERVICE_CONFIG = {"serve": {"failed_auth_limit": 0}}
KINDS = ["none", "unknown", "revoked", "other", "read-only", "scope", "all"]
REFUSED = {"none", "unknown", "revoked"}


def _keys(service: Service) -> dict[str, str | None]:
    from memlane.serve.keys import create_key

    revoked = create_key(service.mem.store, "a")
    service.mem.store.revoke_api_key(revoked.id, time.time())
    return {"none": None, "unknown": "ml_" + "x" * 43, "revoked": revoked.key,
            "other": service.key("b"), "read-only": service.key("a", read_only=True),
            "scope": service.key("a"), "all": service.key("*")}


def _client(service: Service, key: str | None, carrier: str) -> httpx.Client:
    if key is None:
        return httpx.Client(base_url=service.url, timeout=30)
    if carrier == "header":
        return httpx.Client(base_url=service.url, timeout=30,
                            headers={"Authorization": f"Bearer {key}"})
    return httpx.Client(base_url=service.url, timeout=30, cookies={"memlane_key": key})


def _seeded(service: Service) -> int:
    """A message in scope a and a fact about it; the fact's id."""
    mem = service.mem
    mem.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
    mem.close_session("a")
    mem.index(now="2024-06-01T00:00:00Z")
    return int(mem.add_fact("user", "lives_in", "Lisbon", scope="a").fact_id)


def _stored(service: Service) -> tuple[int, int]:
    """(messages, items) of the store: what a refused request must not change."""
    s = service.mem.store.stats()
    return s["messages"], sum(s["items"].values())


def _mcp(c: httpx.Client, name: str, arguments: dict[str, Any]) -> tuple[int, Any]:
    """``initialize``, then ``tools/call``: the HTTP status of the first refused step, or
    the call's result."""
    accept = {"Accept": "application/json, text/event-stream"}
    init = c.post("/mcp", headers=accept, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-03-26", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}})
    if init.status_code != 200:
        return init.status_code, init.json()
    sid = init.headers.get("mcp-session-id")
    headers = {**accept, **({"mcp-session-id": sid} if sid else {})}
    c.post("/mcp", headers=headers, json={"jsonrpc": "2.0",
                                          "method": "notifications/initialized"})
    r = c.post("/mcp", headers=headers, json={"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                              "params": {"name": name, "arguments": arguments}})
    data = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    return r.status_code, json.loads(data[-1] if data else r.text)["result"]


def _csrf(key: str) -> str:
    """The inspector's form token for a browser signed in with ``key`` (signin.csrf_token)."""
    return hashlib.sha256(b"memlane-inspector-csrf:" + key.encode()).hexdigest()[:40]


def _expect_401(r: httpx.Response) -> None:
    assert r.status_code == 401, r.text
    assert r.json()["error"]["field"] == "Authorization"


@pytest.mark.parametrize("carrier", ["header", "cookie"])
def test_every_key_on_the_surfaces_the_document_does_not_describe(
        service: Service, carrier: str) -> None:
    fact_id = _seeded(service)
    keys = _keys(service)
    before = _stored(service)
    for kind in KINDS:
        key = keys[kind]
        with _client(service, key, carrier) as c:
            # the live stream: a read of scope a
            with c.stream("GET", "/state/memory", params={"scope": "a"}) as r:
                if kind in REFUSED:
                    r.read()
                    _expect_401(r)
                elif kind == "other":
                    r.read()
                    assert r.status_code == 403 and r.json()["error"]["field"] == "scope"
                else:
                    assert r.status_code == 200, (kind, carrier)
                    assert r.headers["content-type"].startswith("text/event-stream")
            # /metrics spans every scope: '*' only
            r = c.get("/metrics")
            if kind in REFUSED:
                _expect_401(r)
            else:
                assert r.status_code == (200 if kind == "all" else 403), (kind, r.text)
            # the inspector: a browser without a good key is sent to sign in
            r = c.get("/ui/", params={"scope": "a"})
            if kind in REFUSED:
                assert r.status_code == 303 and r.headers["location"].startswith("/ui/login")
            else:
                assert r.status_code == (403 if kind == "other" else 200), (kind, r.text[:200])
            r = c.get("/ui/health")
            if kind not in REFUSED:
                assert r.status_code == (200 if kind == "all" else 403), kind
            r = c.get(f"/ui/facts/{fact_id}/forget")
            if kind not in REFUSED:
                want = {"other": 404, "read-only": 403}.get(kind, 200)
                assert r.status_code == want, (kind, r.status_code)
            # a JSON write: the header only, never the cookie alone
            r = c.post("/v1/messages", json={"scope": "a", "role": "user", "text": "written"})
            if kind in REFUSED or carrier == "cookie":
                _expect_401(r)
            else:
                want = {"other": 403, "read-only": 403}.get(kind, 200)
                assert r.status_code == want, (kind, r.text)
                if want == 403:
                    assert r.json()["error"]["field"] in ("scope", "Authorization")
            # MCP: the header only; a refused tool call is a tool error naming why
            status, result = _mcp(c, "remember", {"text": "an MCP note", "scope": "a"})
            if kind in REFUSED or carrier == "cookie":
                assert status == 401 and result["error"]["field"] == "Authorization", (kind, result)
            else:
                assert status == 200
                text = result["content"][0]["text"]
                if kind in ("other", "read-only"):
                    assert result["isError"], (kind, text)
                    assert ("read-only" if kind == "read-only" else "scope") in text, text
                else:
                    assert not result["isError"], (kind, text)
                status, result = _mcp(c, "recall", {"query": "Lisbon", "scope": "a"})
                assert status == 200 and result["isError"] == (kind == "other"), (kind, result)
        # the inspector's form to forget the fact: a browser of that key with its token
        if key is not None and kind not in ("scope", "all"):
            with httpx.Client(base_url=service.url, timeout=30, cookies={"memlane_key": key}) as b:
                r = b.post(f"/ui/facts/{fact_id}/forget", data={"csrf": _csrf(key)})
                want = {"other": 404, "read-only": 403}.get(kind, 303)  # 303: sign in
                assert r.status_code == want, (kind, r.status_code)
                if want == 303:
                    assert r.headers["location"].startswith("/ui/login")
                # without the token, even the scope's own browser is refused
                r = b.post(f"/ui/facts/{fact_id}/forget", data={})
                assert r.status_code == 403, (kind, r.status_code)
    # every refusal stored and erased nothing: what was written came from the two keys
    # that may write scope a with the header (a JSON message and an MCP note each)
    writers = 2 if carrier == "header" else 0
    assert _stored(service) == (before[0] + writers, before[1] + writers), before
    assert service.mem.store.get_fact(fact_id).object == "Lisbon"
    key = keys["scope"] or ""
    with httpx.Client(base_url=service.url, timeout=30, cookies={"memlane_key": key}) as b:
        r = b.post(f"/ui/facts/{fact_id}/forget", data={"csrf": _csrf(key)})
        assert r.status_code == 303, r.text[:300]  # the form itself works: the refusals meant it
    with pytest.raises(NotFoundError):
        service.mem.store.get_fact(fact_id)


def test_over_the_rate_every_surface_says_when_to_come_back(tmp_path: Any) -> None:
    """``serve.rate_limit`` on the surfaces the document does not describe: 429 with
    ``Retry-After`` (the inspector's page of the 429 had none)."""
    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing import memory
    from memlane.testing.http import serving

    mem = memory(tmp_path / "limited.db", serve={"rate_limit": 0.001, "rate_burst": 1})
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem)) as url, httpx.Client(
                base_url=url, timeout=30, headers={"Authorization": f"Bearer {key}"}) as c:
            assert c.get("/v1/stats").status_code == 200  # the one request of the burst
            for method, path in [("GET", "/ui/"), ("GET", "/ui/health"), ("GET", "/metrics"),
                                 ("GET", "/state/memory?scope=a"), ("POST", "/mcp")]:
                r = c.request(method, path, json={} if method == "POST" else None)
                assert r.status_code == 429, (path, r.status_code)
                assert int(r.headers["retry-after"]) >= 1, (path, dict(r.headers))
    finally:
        mem.close()
