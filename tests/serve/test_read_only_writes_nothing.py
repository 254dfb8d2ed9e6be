"""A read-only server or key writes nothing (session 31): an MCP ``context`` call on a
read-only server, and a read-only key's ``POST /v1/pack``, each wrote a row of the pack
journal (and a search recorded the facts it returned as accessed), where a read-only
database writes neither (session 22). Now "read-only" means one thing on every surface:
the reads run as on a read-only database (``Memory.reading_only``)."""

from __future__ import annotations

import sqlite3

from mcp import Client
from prometheus_client.parser import text_string_to_metric_families

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

from tests.serve.test_mcp import call, server, talk


def _dump(db: str, but: str = "") -> list[str]:
    """Every row of the database file (but the table ``but``'s)."""
    with sqlite3.connect(db) as con:
        return [row for row in con.iterdump() if not (but and row.startswith(f'INSERT INTO "{but}"'))]


def test_a_read_only_mcp_server_writes_nothing(tmp_path, db) -> None:
    before = _dump(db)
    asked = {"question": "where does the user live?", "scope": "alice-assistant"}

    async def reading(c: Client) -> None:
        text = await call(c, "context", asked)
        assert "Lisbon" in text and "-- pack " not in text, text  # no journal id to give
        assert "Lisbon" in await call(c, "recall", {"query": "where does the user live",
                                                    "scope": "alice-assistant"})

    talk(server(tmp_path, db, "--read-only"), reading)
    assert _dump(db) == before  # not a row written: the journal, the facts' access times

    async def writing(c: Client) -> None:  # a writing server journals its context, as before
        assert "-- pack 1 · " in await call(c, "context", asked)

    talk(server(tmp_path, db), writing)
    assert _dump(db) != before


def _events(client, name: str) -> float:
    for family in text_string_to_metric_families(client.get("/metrics").text):
        for s in family.samples:
            if s.name == "memlane_events_total" and s.labels == {"event": name}:
                return float(s.value)
    return 0.0


def test_a_read_only_keys_pack_is_not_journaled(tmp_path, db) -> None:
    import httpx

    with memory(db) as mem, serving(create_app(mem, worker=False)) as url:
        reader = create_key(mem.store, "*", read_only=True).key
        writer = create_key(mem.store, "*").key
        before = _dump(db, but="api_keys")  # a key's last use is kept (keys list shows it)
        body = {"query": "where does the user live?", "scope": "alice-assistant"}
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {reader}"},
                          timeout=30.0) as c:
            got = c.post("/v1/pack", json=body)
            assert got.status_code == 200, got.text
            assert got.json()["id"] is None and "Lisbon" in got.json()["text"], got.json()
            assert c.post("/v1/search", json={"query": "Lisbon"}).status_code == 200
            assert c.post("/actions", json={"kind": "memory.pack", "input": body}
                          ).json()["result"]["id"] is None
            assert _events(c, "packs") == 0
        assert _dump(db, but="api_keys") == before
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {writer}"},
                          timeout=30.0) as c:
            got = c.post("/v1/pack", json=body)
            assert got.json()["id"] is not None, got.json()
            assert c.get(f"/v1/packs/{got.json()['id']}").status_code == 200
            assert _events(c, "packs") == 1
