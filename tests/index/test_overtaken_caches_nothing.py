"""A session's write that does not happen leaves nothing of it (session 25, where perf25's
cache rows and qa25a's turn pointers are written in the session's transaction).

perf25 moved a session's new embedding-cache rows into the transaction that writes the
session; qa25a points its facts and observations at their turns in it. A worker whose claim
was overtaken (another worker wrote the session while this one waited for its model) raises
``Overtaken`` in that transaction: the cache rows and every row it began go with it. Before
perf25 the rows were cached in a transaction of their own, first, and stayed.
"""

from __future__ import annotations

import pytest

from memlane.index.embed import text_hash
from memlane.index.pipeline import Overtaken, store_intelligence
from memlane.testing import memory


def test_an_overtaken_session_write_caches_nothing_and_writes_nothing(db_url: str) -> None:
    with memory(db_url) as mem:
        for i, text in enumerate(["I live in Porto", "ok", "my sister Ana visits in June",
                                  "nice", "I work at Acme as a nurse"]):
            mem.add_message("a", "user" if i % 2 == 0 else "assistant", text,
                            at=f"2024-05-01T10:0{i}:00Z")
        mem.close_session("a")
        mem.index(now="2024-06-01T00:00:00Z")  # written: summarized
        (session,) = mem.sessions(scope="a")
        messages = mem.store.session_messages(session.id)
        summary, extraction = mem.intelligence.summarize("a", messages)
        db = mem.store.db
        db.execute(db.portable("DELETE FROM embed_cache"))  # every text of it new again
        items = sorted((it.kind, it.text, it.seq) for it in mem.store.items_of_kind("fact", "a"))
        with pytest.raises(Overtaken):
            store_intelligence(mem.store, mem.embeddings, session, messages, summary,
                               extraction, mem.config.facts, claimed=True)
        assert db.execute(db.portable("SELECT count(*) FROM embed_cache")).fetchone()[0] == 0
        assert mem.store.cached_vectors(mem.embeddings.model,
                                        [text_hash(summary.flattened("a"))]) == {}
        assert sorted((it.kind, it.text, it.seq)
                      for it in mem.store.items_of_kind("fact", "a")) == items
