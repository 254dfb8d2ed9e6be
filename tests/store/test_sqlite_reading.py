"""SQLite's ``reading()`` (one search): ``item_vectors`` answers from the in-memory index as
the block's first sync left it; outside a block, and in the next block, it follows what
another connection wrote."""

from __future__ import annotations

import numpy as np

from memlane.store import Filters, open_store


def test_item_vectors_within_a_reading_block_keep_the_blocks_sync(tmp_path):
    path = tmp_path / "r.db"
    reader, writer = open_store(path), open_store(path)
    try:
        x = np.eye(4, dtype=np.float32)
        with writer.atomic():
            a, b = writer.insert_items([{"kind": "turn", "text": t, "at": 1.0, "scope": "s"}
                                        for t in ("a", "b")])
            writer.put_vectors("m", [(a, x[0]), (b, x[1])])
        with reader.reading():
            assert [i for i, _ in reader.vector_search("m", x[0], Filters(scope="s"), 5)][0] == a
            with writer.atomic():
                writer.put_vectors("m", [(a, x[2])])  # another connection changes a's vector
                (c,) = writer.insert_items([{"kind": "turn", "text": "c", "at": 1.0, "scope": "s"}])
                writer.put_vectors("m", [(c, x[3])])
            with reader.reading():  # nested: the outer block's
                got = reader.item_vectors("m", [a, b, c])
            assert np.array_equal(got[a], x[0]) and c not in got  # as the block's sync left them
        got = reader.item_vectors("m", [a, b, c])  # outside: synced again
        assert np.array_equal(got[a], x[2]) and np.array_equal(got[c], x[3])
        with writer.atomic():
            writer.delete_item(b)
        with reader.reading():
            assert b not in reader.item_vectors("m", [a, b, c])  # a new block syncs first
    finally:
        reader.close()
        writer.close()
