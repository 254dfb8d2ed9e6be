"""``POST /v1/pack`` for a scope an old database holds as ``team\\u200b`` (session 34,
fix34c): the pack looked ``team`` up as stored and gave ``team\\u200b`` to the search, whose
check refused it, a 400 naming ``scope``."""

from __future__ import annotations

from typing import Any

from memlane.ingest.spellings import forget_spellings


def test_a_pack_over_an_old_spelling_with_a_format_character(sqlite_service: Any) -> None:
    mem = sqlite_service.mem
    mem.store.add_message("team\u200b", "user", "the deploy key rotates monthly", 1_700_000_000.0,
                          gap=3600.0, speaker=None, ext_id=None, agent=None, project=None,
                          redactions=0)  # as a memlane before session 22 wrote it
    forget_spellings(mem.store)
    mem.close_session("team")
    mem.index()
    with sqlite_service.client(sqlite_service.key("team")) as c:
        r = c.post("/v1/pack", json={"scope": "team", "query": "deploy key"})
        assert r.status_code == 200, r.text
        assert "the deploy key rotates monthly" in r.json()["text"]
        r = c.post("/v1/pack", json={"scope": "team\u200b", "query": "deploy key"})
        assert r.status_code == 400 and r.json()["error"]["field"] == "scope", r.text
