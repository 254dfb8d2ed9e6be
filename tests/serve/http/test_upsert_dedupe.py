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


def test_clients_upserting_the_same_memory_at_once_all_get_its_id(service):
    """Eight clients upsert one text with ``dedupe`` at the same moment, ten times over:
    every request is answered 200 with the one item's id, and one item is stored per text.
    Before, both of two racing writers looked, found nothing and inserted; the second met
    the first's row in the unique index and the client got 503 'the database failed:
    UNIQUE constraint failed: items.dedupe_hash' (found retrying upserts from 8 threads)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    clients, rounds = 8, 10
    key = service.key("team-a")
    barrier = threading.Barrier(clients)

    def one(i: int) -> tuple[int, int, object]:
        with httpx.Client(base_url=service.url, timeout=60,
                          headers={"Authorization": f"Bearer {key}"}) as c:
            out = []
            for r in range(rounds):
                barrier.wait(timeout=60)
                got = c.post("/v1/items", json={"text": f"Deploys go out on Tuesdays, rule {r}",
                                                "scope": "team-a", "dedupe": True})
                out.append((r, got.status_code,
                            got.json()["id"] if got.status_code == 200 else got.text))
            return out

    with ThreadPoolExecutor(clients) as pool:
        answers = [a for part in pool.map(one, range(clients)) for a in part]
    assert all(status == 200 for _, status, _ in answers), [a for a in answers if a[1] != 200][:3]
    for r in range(rounds):
        assert len({got for rr, _, got in answers if rr == r}) == 1, r
    (n,) = service.mem.store._run("SELECT count(*) FROM items WHERE scope = 'team-a'").fetchone()
    assert n == rounds
