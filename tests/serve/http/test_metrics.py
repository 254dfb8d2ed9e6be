"""/metrics parsed with prometheus_client's own parser, after real traffic."""

from __future__ import annotations

import re

from prometheus_client.parser import text_string_to_metric_families


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_metrics_after_traffic(service) -> None:
    with service.client() as c:
        msgs = [{"scope": "m-1", "text": f"message number {i} about tea"} for i in range(5)]
        assert c.post("/v1/messages", json={"messages": msgs}).status_code == 200
        assert c.post("/v1/sessions/close", json={"scope": "m-1"}).status_code == 200
        assert c.post("/v1/index", json={}).status_code == 200
        assert c.post("/v1/search", json={"query": "tea", "scope": "m-1"}).status_code == 200
        assert c.get("/v1/sessions/999").status_code == 404
        text = c.get("/metrics")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    s = _samples(text.text)
    assert s[("memlane_http_requests_total",
              (("method", "GET"), ("route", "/v1/sessions/{id}"), ("status", "404")))] == 1
    assert s[("memlane_http_requests_total",
              (("method", "POST"), ("route", "/v1/search"), ("status", "200")))] == 1
    assert s[("memlane_http_request_seconds_count",
              (("method", "POST"), ("route", "/v1/messages")))] == 1
    assert s[("memlane_messages_ingested_total", ())] == 5
    assert s[("memlane_events_total", (("event", "sessions_indexed"),))] == 1
    assert s[("memlane_search_stage_seconds_count", (("stage", "lexical"),))] == 1
    assert s[("memlane_messages", ())] == 5
    assert ("memlane_summary_queue", (("state", "pending"),)) in s
    # no scope, key or query ever becomes a label
    labels = {v for _, lab in s for _, v in lab}
    assert not labels & {"m-1", "tea", "999"}


def test_metrics_need_a_key_holding_every_scope(service) -> None:
    scoped = service.key("m-*")
    reader = service.key("*", read_only=True)
    with service.client(scoped) as c:
        assert c.get("/metrics").status_code == 403
    with service.client(reader) as c:
        assert c.get("/metrics").status_code == 200
    with service.client() as c:
        assert c.get("/metrics").status_code == 401


def test_routes_outside_fastapis_own_are_labelled_by_their_path(sqlite_service) -> None:
    """/mcp, /docs and /openapi.json are plain Starlette routes: their requests were
    counted as route="unmatched", with the 404s of paths that exist nowhere."""
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"}}}
    with sqlite_service.client() as c:
        assert c.get("/openapi.json").status_code == 200
        assert c.get("/docs").status_code == 200
        r = c.post("/mcp", json=hello, headers={"Accept": "application/json, text/event-stream"})
        assert r.status_code == 200, r.text
        assert c.get("/no/such/path").status_code == 404
        s = _samples(c.get("/metrics").text)
    total = "memlane_http_requests_total"
    assert s[(total, (("method", "GET"), ("route", "/openapi.json"), ("status", "200")))] == 1
    assert s[(total, (("method", "GET"), ("route", "/docs"), ("status", "200")))] == 1
    assert s[(total, (("method", "POST"), ("route", "/mcp"), ("status", "200")))] == 1
    assert s[(total, (("method", "GET"), ("route", "unmatched"), ("status", "404")))] == 1
    assert not [k for k in s if k[0] == total and ("route", "unmatched") in k[1]
                and ("status", "200") in k[1]]


def test_the_health_probes_answer_head(sqlite_service) -> None:
    """Uptime monitors and some load balancers probe with HEAD: /healthz and /readyz
    answered it 405 (and a probe reading 405 as down takes the service out)."""
    with sqlite_service.client() as c:
        for path in ("/healthz", "/readyz"):
            r = c.head(path)
            assert r.status_code == 200 and r.content == b"", (path, r.status_code)
            assert c.get(path).json()["ok"] is True


def test_a_client_cannot_grow_the_series_with_made_up_methods_or_paths(tmp_path) -> None:
    """On a server whose parser takes any method token (uvicorn's h11), each made-up method
    was a series of its own in the request counter and the latency histogram: 200 requests
    were 200 more series. Every label value now comes from a fixed set (the route template
    or ``unmatched``, the standard methods or ``other``, the status)."""
    import uuid

    import httpx

    from memlane.serve.http import create_app
    from memlane.testing import memory
    from memlane.testing.http import serving

    mem = memory(tmp_path / "m.db")
    try:
        with serving(create_app(mem, worker=False), http="h11") as url, \
                httpx.Client(base_url=url, timeout=30) as c:
            for _ in range(40):
                tag = uuid.uuid4().hex[:8].upper()
                c.request(f"X{tag}", "/v1/stats")
                c.request(f"Y{tag}", f"/nowhere/{tag}")
                c.get(f"/v1/sessions/{tag}")
                c.get(f"/ui/sessions/{tag}")
            text = c.get("/metrics").text
    finally:
        mem.close()
    methods: set[str] = set()
    routes: set[str] = set()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            methods.add(s.labels.get("method", "GET"))
            routes.add(s.labels.get("route", "/"))
    assert methods <= {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"}
    assert "other" in methods
    assert not any(r.startswith(("/nowhere/", "/v1/sessions/X", "/ui/sessions/")) and "{" not in r
                   for r in routes), routes
    assert len(routes) < 10, routes


def test_every_metric_the_service_exports_is_named_in_the_readme(sqlite_service) -> None:
    """``/metrics`` served ``memlane_messages``, ``memlane_sessions_unindexed`` and
    ``memlane_store_up`` (the one an alert on a database outage reads), and the README's
    Metrics paragraph, the list users build dashboards from, named none of them."""
    from pathlib import Path

    readme = (Path(__file__).parents[3] / "README.md").read_text()
    start = readme.index("**Metrics.**")
    paragraph = readme[start:readme.index("\n\n", start)]
    with sqlite_service.client() as c:
        assert c.post("/v1/messages", json={"scope": "m", "text": "tea"}).status_code == 200
        assert c.post("/v1/search", json={"query": "tea", "scope": "m"}).status_code == 200
        text = c.get("/metrics").text
    families = {f.name for f in text_string_to_metric_families(text)  # not the client's own _created
                if f.name.startswith("memlane_") and not f.name.endswith("_created")}
    assert len(families) >= 10, families
    missing = sorted(name for name in families if not re.search(rf"`{name}(_total)?[{{`]", paragraph))
    assert not missing, f"README's Metrics paragraph lacks {missing}"
