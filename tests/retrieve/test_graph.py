"""Multi-hop: one hop through the entity graph brings the second session a question needs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.retrieve.graph import query_entities
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (40, [("user", "My sister Ana started a new job at Globex Corporation in Denver."),
          ("assistant", "Congratulations to Ana!"),
          ("user", "She will lead the data team there."),
          ("assistant", "Sounds like a great role.")]),
    (20, [("user", "I baked bread with a new sourdough starter."),
          ("assistant", "Feed it twice a day."),
          ("user", "The crumb was dense."), ("assistant", "Try a longer proof.")]),
    (5, [("user", "I read that Globex Corporation announced big layoffs this week."),
         ("assistant", "That must be worrying news."),
         ("user", "Several teams were cut in the reorganisation."),
         ("assistant", "Hopefully things settle.")]),
]
QUERY = "Is Ana doing well at her company?"


def test_query_entities_need_every_word() -> None:
    names = ["ana", "globex corporation", "denver"]
    assert query_entities(names, ["Ana", "Globex"]) == ["ana"]
    assert query_entities(names, ["globex", "corporation", "ana"]) == ["ana", "globex corporation"]


def _layoff_hits(tmp_path: Path, hops: int):
    # few candidates per list, so the vector list alone cannot reach every session
    m = memory(tmp_path / f"g{hops}.db", retrieval={"candidates": 4, "graph_hops": hops})
    try:
        add_sessions(m, SESSIONS, now=NOW)
        hits = m.search(QUERY, scope="chat", k=12, now=NOW)
        return [h for h in hits if h.item.kind == "turn" and "layoffs" in h.item.text]
    finally:
        m.close()


@pytest.mark.parametrize("hops", [0, 1])
def test_one_hop_brings_the_second_session(tmp_path: Path, hops: int) -> None:
    found = _layoff_hits(tmp_path, hops)
    if hops == 0:
        assert found == []  # Ana's session only: nothing in the query names Globex
    else:
        # Ana -> (her session's summary) -> Globex Corporation -> the layoffs session
        assert found and found[0].scores["graph_hop"] == 1.0
