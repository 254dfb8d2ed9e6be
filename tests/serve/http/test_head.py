"""Every GET route answers HEAD with the GET's status and headers and no body (RFC 9110:
a general-purpose server must support HEAD). Found probing ``/v1/stats`` and ``/metrics``
with ``curl -I``: 405 Method Not Allowed (only the health probes answered HEAD)."""

from __future__ import annotations

def test_head_answers_as_get_without_a_body(service):
    mem = service.mem
    mem.add_message("s", "user", "I live in Lisbon")
    sid = mem.sessions(scope="s")[0].id
    pid = mem.pack("Lisbon", 100, scope="s").id
    fid = mem.add_fact("user", "lives_in", "Lisbon", scope="s").fact_id
    key = service.key("*")
    paths = ["/healthz", "/readyz", "/v1/stats", "/v1/sessions?scope=s", f"/v1/sessions/{sid}",
             "/v1/facts?scope=s", "/v1/facts/history?subject=user&predicate=lives_in&scope=s",
             "/v1/graph/Lisbon?scope=s", f"/v1/packs/{pid}", "/v1/packs/999999", "/metrics",
             "/ui/", f"/ui/sessions/{sid}", "/ui/facts?scope=s", "/ui/search", "/ui/packs",
             f"/ui/packs/{pid}", "/ui/health", f"/ui/facts/{fid}/forget", "/ui/login",
             "/openapi.json", "/v1/stats?bogus=1"]
    with service.client(key) as c:
        for path in paths:
            got, head = c.get(path), c.head(path)
            assert head.status_code == got.status_code, (path, head.status_code, got.status_code)
            assert head.content == b"", path
            assert head.headers.get("content-type") == got.headers.get("content-type"), path
        assert c.head("/v1/stats", headers={"Authorization": "Bearer nope"}).status_code == 401
        assert c.head("/state/memory?scope=s").status_code == 405  # a stream: no end to stop at
