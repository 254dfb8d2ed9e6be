"""SQLite's lexical index merged into one segment (``merge_lexical_index``, FTS5
``optimize``, run after a bulk load): the same answers, scores to the bit, before and after,
scoped and not, and writes after the merge are searched as before."""

from __future__ import annotations

import random

from memlane.store import Filters, open_store

WORDS = ["otter", "walrus", "seal", "kelp", "tide", "reef", "the", "and", "we", "shell", "sand"]


def _searches(store):
    out = []
    for terms in (["otter"], ["walrus", "kelp"], ["the", "and"], ["reef", "sand", "we"], ["tide"]):
        for scope in (None, "a", "b"):
            out.append(store.lexical_search(terms, Filters(scope=scope), 50))
    return out


def _records(store) -> int:
    return store.db.execute("SELECT count(*) FROM items_fts_data").fetchone()[0]


def test_merging_the_lexical_index_keeps_every_answer(tmp_path):
    store = open_store(str(tmp_path / "m.db"))
    try:
        rng = random.Random(3)
        for batch in range(12):  # a transaction each: a new FTS5 segment each
            with store.atomic():
                store.insert_items([{
                    "kind": "turn", "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))),
                    "keys": rng.choice(["", "otter kelp", "tide"]), "at": float(batch * 100 + i),
                    "scope": rng.choice(["a", "b"])} for i in range(40)])
        before = _searches(store)
        records = _records(store)
        assert any(before)
        store.merge_lexical_index()
        merged = _records(store)
        assert merged < records  # the segments' leaves and structure, now one b-tree's
        assert _searches(store) == before  # ids, order and scores
        store.merge_lexical_index()  # again: nothing left to merge
        assert _records(store) == merged and _searches(store) == before

        with store.atomic():
            (new,) = store.insert_items([{"kind": "turn", "text": "narwhal otter", "at": 9999.0,
                                          "scope": "a"}])
        assert [i for i, _ in store.lexical_search(["narwhal"], Filters(scope="a"), 10)] == [new]
        assert new in {i for i, _ in store.lexical_search(["otter"], Filters(), 1000)}
    finally:
        store.close()


def test_a_fresh_store_merges_nothing(tmp_path):
    store = open_store(str(tmp_path / "e.db"))
    try:
        store.merge_lexical_index()
        assert store.lexical_search(["otter"], Filters(), 10) == []
    finally:
        store.close()


def test_a_copy_into_sqlite_ends_with_its_lexical_index_merged(tmp_path):
    from memlane.store.copy import copy_store

    source = open_store(str(tmp_path / "s.db"))
    rng = random.Random(4)
    for batch in range(12):
        with source.atomic():
            source.insert_items([{
                "kind": "turn", "text": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))),
                "at": float(batch * 100 + i), "scope": rng.choice(["a", "b"])} for i in range(40)])
    want = _searches(source)
    target = open_store(str(tmp_path / "t.db"))
    try:
        copy_store(source, target)
        copied = _records(target)
        target.merge_lexical_index()  # nothing left to merge: the copy did it
        assert _records(target) == copied < _records(source)
        assert _searches(target) == want
    finally:
        source.close()
        target.close()
