"""The inspector's search shows what the search left undone for a hit (``explain``'s notes):
a meaning-preset hit the bounded cold query did not re-score says so (session 32)."""

from __future__ import annotations

from pathlib import Path

import httpx

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import add_sessions, memory
from memlane.testing.http import serving

from tests.retrieve.test_meaning import NOW, SESSIONS  # the meaning tier's conversations

NOTE = "meaning: not re-scored this time"


def test_a_hit_the_cold_query_left_says_so_on_the_page(tmp_path: Path) -> None:
    mem = add_sessions(memory(tmp_path / "n.db", retrieval={"meaning_candidates": 6,
                                                            "meaning_cold": 1}),
                       SESSIONS, now=NOW)
    try:
        key = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url, httpx.Client(
                base_url=url, cookies={"memlane_key": key}, timeout=60.0) as client:
            cold = client.get("/ui/search", params={"q": "kitchen cabinets colour",
                                                    "scope": "chat", "preset": "meaning"})
            assert cold.status_code == 200
            assert cold.text.count(NOTE) >= 1  # more candidates than the one it embedded
            quick = client.get("/ui/search", params={"q": "kitchen cabinets colour",
                                                     "scope": "chat"})
            assert quick.status_code == 200 and "kitchen" in quick.text
            assert NOTE not in quick.text  # the quick tier re-scores nothing
    finally:
        mem.close()
