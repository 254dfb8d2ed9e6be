"""Every item's vector is made from one text, whoever writes it (session 27).

The indexer embeds a named speaker's own fact as the user's ("user lives in Porto" for
Caroline's "Caroline lives_in Porto", as her turns are embedded without her name; session
19). ``backfill_embeddings`` embedded the item's text instead, so re-embedding a memory
changed what search found; and an erase forgot the cached vectors of the items' texts, so
the cached vector of the user's form stayed in the database after the scope was erased.
Both now read the text from ``embedded_fact_text`` (``Store.vector_texts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
import numpy as np
import pytest

from memlane.index.embed import text_hash
from memlane.index.pipeline import fact_text
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, memory

B = datetime(2024, 3, 1, 9, tzinfo=UTC)
LINES = [("Caroline", "I moved to Porto last month and I work at Feedzai now."),
         ("Melanie", "That's great! I live in Lisbon with my cat Miso."),
         ("Caroline", "My sister Ana visited me last weekend."),
         ("Melanie", "I started painting again, it helps me relax."),
         ("Caroline", "I adopted a dog named Rex.")]


def _conversation(mem: Memory, scope: str = "chat") -> None:
    for i, (who, text) in enumerate(LINES):
        mem.add_message(scope, "user", text, at=B + timedelta(minutes=i), speaker=who)
    mem.index(now=B + timedelta(days=1))
    # the conversation's facts are its speakers' own: the case the rule is for
    assert {f.subject for f in mem.facts(scope)} == {"Caroline", "Melanie"}


def _vectors(mem: Memory) -> dict[int, bytes]:
    model = mem.embeddings.model
    ids = [i for i, _ in mem.store.items_after(0, 100_000)]
    return {i: v.tobytes() for i, v in mem.store.item_vectors(model, ids).items()}


def _cached(mem: Memory) -> int:
    return int(mem.stats()["embed_cache"])


def test_backfill_leaves_every_vector_as_indexing_made_it(db_url: str) -> None:
    with memory(db_url) as mem:
        _conversation(mem)
        before = _vectors(mem)
        assert mem.backfill_embeddings(missing_only=False) == len(before)
        after = _vectors(mem)
        changed = sorted(i for i in before if before[i] != after.get(i))
        assert changed == [], [mem.item(i).text for i in changed]


@pytest.mark.parametrize("how", ["scope", "session", "fact", "item"])
def test_an_erase_leaves_no_cached_vector_of_a_speakers_fact(db_url: str, how: str) -> None:
    with memory(db_url) as mem:
        _conversation(mem)
        assert _cached(mem) > 0
        if how == "scope":
            mem.forget_scope("chat")
        elif how == "session":
            mem.forget_session(mem.sessions("chat")[0].id)
        else:
            facts = mem.facts("chat")
            for f in facts:
                if how == "fact":
                    mem.forget_fact(f.id)
                else:
                    assert f.item_id is not None
                    mem.forget_item(f.item_id)
            # the user's forms of the facts' texts: nothing else in the conversation says them
            users = [text_hash(fact_text("user", f.predicate, f.object)) for f in facts]
            assert mem.store.cached_vectors(mem.embeddings.model, users) == {}
            return
        assert _cached(mem) == 0



class _EraseFirst(HashingEmbedder):
    """Runs ``then`` once, the first time it embeds a text holding ``word``: between a
    backfill's read of a batch and its write."""

    def __init__(self, word: str) -> None:
        super().__init__(dim=256, char_trigrams=True)  # memory()'s, so its vectors are cached
        self.word = word
        self.then: Any = None

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        if self.then is not None and any(self.word in t for t in texts):
            then, self.then = self.then, None
            then()
        return super().embed_batch(texts)


def test_an_item_erased_during_a_backfill_gets_no_vector_and_stops_nothing(db_url: str) -> None:
    """A backfill's batch holding an item erased between its read and its write failed
    whole ("FOREIGN KEY constraint failed", the backfill stopped), and the erased text's
    vector went to the embedding cache after the erase had emptied it."""
    with memory(db_url) as mem:
        _conversation(mem)
        [rex] = [f for f in mem.facts("chat") if f.object.endswith("Rex")]
        assert rex.item_id is not None
        text = mem.item(rex.item_id).text
        mem.store.forget_cached_texts([text, fact_text("user", rex.predicate, rex.object)])
        meddler = _EraseFirst("Rex")
        other = Memory(mem.config.db, config=mem.config, embedder=meddler)
        try:
            meddler.then = lambda: mem.forget_fact(rex.id)
            items = len(_vectors(mem))
            n = other.backfill_embeddings(missing_only=False)
        finally:
            other.close()
        assert meddler.then is None, "the erase did not run"
        assert n == items - 1
        assert rex.item_id not in _vectors(mem) and len(_vectors(mem)) == items - 1
        hashes = [text_hash(t) for t in (text, fact_text("user", rex.predicate, rex.object))]
        assert mem.store.cached_vectors(mem.embeddings.model, hashes) == {}
