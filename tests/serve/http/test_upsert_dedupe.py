"""``dedupe`` (POST /v1/items, memory.upsert) finds the same memory within its own scope.

Found driving the service with two tenants' keys: the dedupe hash is of (agent, project,
kind, text) and the lookup ignored the scope, so tenant B upserting a text tenant A had
stored, with ``dedupe: true``, got A's item back (its id, text and scope in the answer)
and nothing was stored in B's scope: a cross-tenant read, an oracle for A's texts, and a
write B believed done and that never happened."""

from __future__ import annotations

import pytest

from memlane.testing import memory


def test_dedupe_never_answers_another_scopes_item(service):
    a, b = service.key("team-a"), service.key("team-b")
    note = {"text": "The payroll export runs at 02:00 from host pay-7", "kind": "note",
            "dedupe": True}
    with service.client(a) as ca, service.client(b) as cb:
        first = ca.post("/v1/items", json={**note, "scope": "team-a"})
        assert first.status_code == 200, first.text
        again = ca.post("/v1/items", json={**note, "scope": "team-a"})
        assert again.json()["id"] == first.json()["id"]  # the same scope: deduplicated
        theirs = cb.post("/v1/items", json={**note, "scope": "team-b"})
        assert theirs.status_code == 200, theirs.text
        got = theirs.json()
        assert got["id"] != first.json()["id"]
        assert got["item"]["scope"] == "team-b"
        hits = cb.post("/v1/search", json={"query": "payroll export", "scope": "team-b"}).json()
        assert [h["item"]["id"] for h in hits["hits"]] == [got["id"]]
        assert cb.post("/v1/items", json={**note, "scope": "team-b"}).json()["id"] == got["id"]


@pytest.mark.parametrize("scopes", [("s", None), (None, "s"), ("s", "t")])
def test_memory_upsert_dedupes_per_scope(tmp_path, scopes):
    with memory(tmp_path / "m.db") as mem:
        first = mem.upsert("Prefer window seats", kind="preference", scope=scopes[0], dedupe=True)
        second = mem.upsert("Prefer window seats", kind="preference", scope=scopes[1], dedupe=True)
        assert first != second
        assert mem.item(second).scope == scopes[1]
        assert mem.upsert("Prefer window seats", kind="preference", scope=scopes[1],
                          dedupe=True) == second


def test_an_item_stored_with_the_old_unscoped_hash_is_still_its_scopes_duplicate(tmp_path):
    """Items stored before session 20 carry the hash without the scope: an upsert in their
    scope still finds them; one in another scope stores its own item."""
    from memlane.index.upsert import dedupe_hash

    with memory(tmp_path / "m.db") as mem:
        old = dedupe_hash(None, None, "note", "Deploys go out on Tuesdays", scoped=False)
        with mem.store.atomic():
            (legacy,) = mem.store.insert_items([{
                "kind": "note", "text": "Deploys go out on Tuesdays", "at": 1000.0,
                "scope": "s", "dedupe_hash": old}])
        assert mem.upsert("Deploys go out on Tuesdays", scope="s", dedupe=True) == legacy
        other = mem.upsert("Deploys go out on Tuesdays", scope="t", dedupe=True)
        assert other != legacy and mem.item(other).scope == "t"
