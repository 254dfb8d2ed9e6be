"""``GET /v1/graph/{entity}`` takes an entity whose name holds a slash (``CI/CD``,
``TCP/IP``, ``A/B testing``), sent as ``%2F``, as ``graph.show`` does.

Found asking the service for the graph of ``CI/CD``: the route's parameter stopped at the
first slash, so the request matched no route and was a bare 404 'Not Found' (field null),
while ``POST /actions`` (and ``memlane.Client.graph``) answered the entity."""

from __future__ import annotations

from urllib.parse import quote


def test_an_entity_with_a_slash_has_its_graph(service):
    mem = service.mem
    mem.add_message("team-a", "user", "We moved CI/CD to GitHub Actions last week")
    mem.close_session("team-a")
    mem.index()
    key = service.key("team-*")
    with service.client(key) as c:
        for entity in ("CI/CD", "a/b/c", "/leading"):
            via_action = c.post("/actions", json={"kind": "graph.show", "input": {
                "entity": entity, "scope": "team-a"}})
            via_route = c.get(f"/v1/graph/{quote(entity, safe='')}",
                              params={"scope": "team-a"})
            assert via_route.status_code == via_action.status_code, (entity, via_route.text)
            if via_action.status_code == 200:
                assert via_route.json() == via_action.json()["result"]
            else:
                assert via_route.json()["error"]["message"] == \
                    via_action.json()["error"]["message"], entity
