"""Ids a client writes into a path, a body or a page's address: whatever the number (too
large for SQLite's int64, zero, negative, digits of another script), the answer is a 4xx
naming the field, never a 500. ``DELETE /v1/facts/2**64`` reached the store unchecked and
answered 500 (an OverflowError in SQLite's driver); so did ``/ui/facts/2**64/forget`` and
``/ui/sessions/²`` ('²'.isdigit() is true, int('²') fails)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.ingest.validate import INT64_MAX

ids = (st.integers(INT64_MAX + 1, 2**200) | st.integers(-(2**70), 0)
       | st.sampled_from([INT64_MAX + 1, 2**64, 10**30]))
id_texts = ids.map(str) | st.sampled_from(["²", "٣٣", "１", "0x1", "-0", "1e3"])

PATHS = ["/v1/sessions/{}", "/v1/packs/{}", "/ui/sessions/{}", "/ui/packs/{}",
         "/ui/facts/{}/forget"]
ACTIONS = [("sessions.show", "id"), ("facts.forget", "id"), ("packs.show", "id"),
           ("sessions.close", "session_id"), ("sessions.forget", "id")]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS + ["DELETE /v1/facts/{}", "DELETE /v1/sessions/{}"]), text=id_texts)
def test_an_id_in_a_path_is_refused_with_a_4xx(sqlite_service, path, text) -> None:
    method, _, template = path.rpartition(" ")
    with sqlite_service.client() as c:
        r = c.request(method or "GET", template.format(text))
    assert 400 <= r.status_code < 500, (path, text, r.status_code, r.text[:300])
    if template.startswith("/v1/"):
        assert r.json()["error"]["field"] == "id", r.text


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.sampled_from(ACTIONS), value=ids)
def test_an_id_in_an_action_is_refused_naming_it(sqlite_service, action, value) -> None:
    kind, field = action
    with sqlite_service.client() as c:
        r = c.post("/actions", json={"kind": kind, "input": {field: value}})
    assert r.status_code == 422, (kind, value, r.text)
    assert r.json()["error"]["field"] == f"input.{field}", r.text


def test_the_largest_id_sqlite_holds_is_a_404(sqlite_service) -> None:
    with sqlite_service.client() as c:
        for method, path in (("GET", "/v1/sessions/{}"), ("DELETE", "/v1/facts/{}"),
                             ("DELETE", "/v1/sessions/{}"), ("GET", "/v1/packs/{}")):
            r = c.request(method, path.format(INT64_MAX))
            assert r.status_code == 404, (path, r.text)
        assert c.get(f"/ui/facts/{INT64_MAX}/forget").status_code == 404


def test_a_scope_to_erase_that_is_no_scope_is_refused_naming_it(service) -> None:
    """``DELETE /v1/scopes/{scope}`` and ``scopes.forget`` on both backends: a scope no
    ``add_message`` could have written (a control character, past 256 characters) is a 4xx
    naming ``scope``, and nothing is erased (session 18)."""
    from urllib.parse import quote

    service.mem.add_message("keep", "user", "still here")
    with service.client(service.key("*")) as c:
        for bad in ("a\u0007b", "x" * 300):
            r = c.delete(f"/v1/scopes/{quote(bad, safe='')}")
            assert 400 <= r.status_code < 500 and r.json()["error"]["field"] == "scope", r.text
            r = c.post("/actions", json={"kind": "scopes.forget", "input": {"scope": bad}})
            assert r.status_code in (400, 422), r.text
            assert r.json()["error"]["field"] == "input.scope", r.text
    assert service.mem.stats()["messages"] == 1
