"""Every resource route's path parameters, whatever text fills them (empty above all): an
error in the service's shape naming the parameter, after the key, never a 500.

``DELETE /v1/scopes/`` and ``GET /v1/graph/`` (an empty ``{name:path}``) were 500s: the
route built its input from the parameter in the handler, and pydantic's refusal of an
empty string escaped it (session 27)."""

from __future__ import annotations

import re
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http.rest import ROUTES

FILLS = st.sampled_from(["", " ", "  ", "/", "//", "a/", "%", "0", "-1", "1.5", "x", "\t"]) | st.text(
    st.characters(blacklist_categories=("Cs",)), max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), fill=FILLS, keyed=st.booleans())
def test_any_path_parameter_is_answered_in_shape_and_never_a_500(sqlite_service, data, fill,
                                                                  keyed) -> None:
    svc = sqlite_service  # ROUTES is filled once an app is made
    route = data.draw(st.sampled_from([(m, p) for m, p, _ in ROUTES if "{" in p]), label="route")
    if not svc.mem.store.has_api_keys():
        svc.mem.add_message("chat-1", "user", "I moved to Lisbon")
        svc.admin = svc.key("*")  # type: ignore[attr-defined]
    method, path = route
    url = re.sub(r"\{\w+\}", quote(fill, safe="/"), path)
    with svc.client(svc.admin if keyed else None) as c:  # type: ignore[attr-defined]
        r = c.request(method, url)
    assert r.status_code < 500, (method, url, r.status_code, r.text)
    if r.status_code in (307, 308):  # /v1/sessions/ is the listing's address with a slash
        assert r.headers["location"].endswith(url.rstrip("/")), (url, r.headers)
        return
    body = r.json()
    if r.status_code == 404 and body["error"]["field"] == "path":  # no route: /v1/sessions//0
        return
    if not keyed:
        assert r.status_code == 401 and body["error"]["field"] == "Authorization", (url, r.text)
        return
    if r.status_code >= 400:
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}
        if r.status_code in (400, 422):
            assert body["error"]["field"], (method, url, r.text)


def test_an_empty_scope_or_entity_is_a_422_naming_it(sqlite_service) -> None:
    key = sqlite_service.key("*")
    with sqlite_service.client(key) as c:
        for method, url, field in (("DELETE", "/v1/scopes/", "scope"),
                                   ("GET", "/v1/graph/", "entity"),
                                   ("GET", "/v1/graph/?scope=s", "entity")):
            r = c.request(method, url)
            assert r.status_code == 422, (url, r.text)
            assert r.json()["error"]["field"] == field, (url, r.text)
    with sqlite_service.client() as c:  # the key first
        assert c.delete("/v1/scopes/").status_code == 401
