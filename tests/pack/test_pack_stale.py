"""A pack never passes a superseded value off as current (session 21).

A turn whose stated facts were all superseded since was marked "(since superseded: see
current facts)"; one that stated two facts of which one was superseded since ("I live in
Lisbon and work at Feedzai", then a move to Madrid) was shown unmarked beside "user lives
in Madrid", on both stores. It is now marked "(partly superseded since: ...)".
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def test_turns_and_messages_of_superseded_facts_are_marked(db_url):
    mem = Memory(db_url, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))
    try:
        add_sessions(mem, [(60, [("user", "I live in Lisbon and work at Feedzai"),
                                 ("assistant", "Nice, Lisbon is lovely.")]),
                           (10, [("user", "I moved to Porto last month, now I live in Porto"),
                                 ("assistant", "Porto is great.")])], now=NOW, scope="a")
        mem.add_fact("user", "lives in", "Madrid", scope="a", at=NOW - timedelta(days=1))
        current = {f.object for f in mem.facts("a", now=NOW)}
        old = {f.object for f in mem.facts("a", include_superseded=True, now=NOW)} - current
        assert old == {"Lisbon", "Porto"} and "Madrid" in current
        for budget in (400, 2000):
            text = mem.pack("where do I live?", budget, scope="a", now=NOW).text
            lines = text.splitlines()
            facts = lines[lines.index("Current facts:") + 1:lines.index("")]
            assert facts and not any(v in line for line in facts for v in old)
            said = {line for line in lines if "I live in Lisbon and work at Feedzai" in line}
            assert said and all(line.endswith("(partly superseded since: see current facts)")
                                for line in said), said
            moved = [line for line in lines if "now I live in Porto" in line]
            assert moved and all(line.endswith("(since superseded: see current facts)")
                                 for line in moved)
    finally:
        mem.close()
