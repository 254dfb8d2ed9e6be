"""Keys, the open mode, 401/403/413/429 and the JSON error shape, on a real server."""

from __future__ import annotations

import html

import time

import httpx
import pytest

from memlane.errors import NotFoundError
from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving
from memlane.serve.http.auth import Principal
from memlane.serve.http.errors import ApiError
from memlane.serve.keys import create_key


def test_health_and_ready(service) -> None:
    with service.client() as c:
        assert c.get("/healthz").json() == {"ok": True}
        ready = c.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["backend"] == service.mem.store.backend


def test_open_until_a_key_exists_then_every_request_needs_one(service) -> None:
    with service.client() as c:
        assert c.get("/v1/stats").status_code == 200
    key = service.key("*")
    with service.client() as c:
        r = c.get("/v1/stats")
        assert r.status_code == 401
        assert r.json()["error"]["code"] == "unauthorized"
        assert r.json()["error"]["field"] == "Authorization"
    with service.client("ml_wrong") as c:
        assert c.get("/v1/stats").status_code == 401
    with service.client(key) as c:
        assert c.get("/v1/stats").status_code == 200


@pytest.mark.parametrize(("path", "body"), [
    ("/actions", {"kind": "memory.search", "input": {"query": "", "k": -1}}),
    ("/actions", {"kind": "no.such.kind"}),
    ("/actions", ["not", "an", "object"]),
    ("/v1/search", {"query": "x", "k": "many"}),
    ("/v1/messages", {"scope": "a"}),
])
def test_authentication_comes_before_input_validation(sqlite_service, path, body) -> None:
    """Handlers authenticate in their own thread, which invalid input never reaches; the
    caller without a valid key still gets 401, never a description of its input's faults."""
    key = sqlite_service.key("*")
    for token in (None, "ml_wrong"):
        with sqlite_service.client(token) as c:
            r = c.post(path, json=body)
        assert r.status_code == 401, (token, r.text)
        assert r.json()["error"]["field"] == "Authorization"
    with sqlite_service.client(key) as c:
        r = c.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"


def test_revoked_key_is_refused_and_service_stays_closed(service) -> None:
    key = service.key("*")
    (row,) = service.mem.store.api_keys()
    with service.mem.store.atomic():
        assert service.mem.store.revoke_api_key(row["id"], time.time())
    with service.client(key) as c:
        assert c.get("/v1/stats").status_code == 401
    with service.client() as c:  # every key revoked: still closed, never open again
        assert c.get("/v1/stats").status_code == 401
    with pytest.raises(NotFoundError):
        service.mem.store.revoke_api_key(999, time.time())


def test_malformed_authorization_header(sqlite_service) -> None:
    with sqlite_service.client() as c:
        r = c.get("/v1/stats", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401
    assert "Bearer" in r.json()["error"]["message"]


def test_principal_patterns_and_checks() -> None:
    p = Principal(1, "t", ("team-*", "alex"), False)
    assert p.allows("team-red") and p.allows("alex")
    assert not p.allows("alexa") and not p.allows("bob") and not p.allows(None)
    p.check("team-blue", write=True)
    with pytest.raises(ApiError) as e:
        p.check("bob", write=False)
    assert e.value.status == 403 and e.value.field == "scope"
    ro = Principal(2, "ro", ("*",), True)
    ro.check(None, write=False)
    with pytest.raises(ApiError) as e:
        ro.check("anything", write=True)
    assert e.value.status == 403 and "read-only" in e.value.message


def test_unknown_route_is_json(sqlite_service) -> None:
    with sqlite_service.client() as c:
        r = c.get("/no/such/route")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_body_over_the_cap_is_413(sqlite_service) -> None:
    with sqlite_service.client() as c:
        r = c.post("/actions", content=b'{"kind": "stats", "input": {"x": "' + b"a" * 5000 + b'"}}',
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "too_large"
        # chunked upload without Content-Length is counted as it arrives
        r = c.post("/actions", content=iter([b"{" + b" " * 3000, b" " * 3000 + b"}"]),
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413


def test_rate_limit_answers_429_with_retry_after(tmp_path) -> None:
    mem = memory(tmp_path / "limited.db", serve={"rate_limit": 0.5, "rate_burst": 3})
    try:
        with serving(create_app(mem)) as url:
            key, other = (create_key(mem.store, "*").key for _ in range(2))
            codes = [httpx.get(url + "/v1/stats", headers={"Authorization": f"Bearer {key}"})
                     for _ in range(5)]
            # a bucket per key: the other key is not limited
            assert httpx.get(url + "/v1/stats",
                             headers={"Authorization": f"Bearer {other}"}).status_code == 200
    finally:
        mem.close()
    assert [r.status_code for r in codes] == [200, 200, 200, 429, 429]
    assert int(codes[3].headers["Retry-After"]) >= 1
    assert codes[3].json()["error"]["code"] == "rate_limited"


def test_a_scoped_key_refused_a_request_that_always_spans_every_scope_is_told_why(
        sqlite_service) -> None:
    """/metrics, stats, index and closing idle sessions take no scope; a scoped key was told
    to 'pass a scope', which none of them takes. Now the refusal says a key holding '*' is
    needed; a request that can take a scope still says to pass one."""
    key = sqlite_service.key("team-*", name="team")
    with sqlite_service.client(key) as c:
        refused = [c.get("/metrics"), c.get("/v1/stats"), c.post("/v1/index", json={}),
                   c.post("/v1/sessions/close", json={"idle": True}),
                   c.post("/actions", json={"kind": "stats"}),
                   c.get("/ui/health", headers={"Accept": "text/html"})]
        for r in refused:
            assert r.status_code == 403, (r.request.url, r.text)
            text = (html.unescape(r.text) if r.request.url.path.startswith("/ui/")
                    else r.json()["error"]["message"])
            assert "pass a scope" not in text and "holding '*'" in text, (r.request.url, text)
        search = c.post("/v1/search", json={"query": "anything"})
        assert search.status_code == 403 and "pass a scope" in search.json()["error"]["message"]
