"""SQLite's ``item_vectors`` answers from the model's in-memory index once a search has
loaded it: the answers stay those of the ``vectors`` table (read by a store that has no
index loaded) through inserts, changed vectors, deletes and other models' vectors written
by another connection to the same file."""

from __future__ import annotations

import numpy as np

from memlane.store import Filters, open_store


def _unit(rng: np.random.Generator, n: int, dim: int = 8) -> np.ndarray:
    x = rng.standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _same(got: dict[int, np.ndarray], want: dict[int, np.ndarray]) -> None:
    assert sorted(got) == sorted(want)
    for i, v in want.items():
        assert np.array_equal(got[i], v), i


def test_item_vectors_from_the_index_follow_another_connections_writes(tmp_path):
    rng = np.random.default_rng(7)
    path = tmp_path / "iv.db"
    reader, writer, table = open_store(path), open_store(path), open_store(path)
    try:
        x = _unit(rng, 400)

        def add(lo: int, hi: int) -> list[int]:
            with writer.atomic():
                ids = writer.insert_items([{"kind": "turn", "text": f"t{i}", "at": 1.0 + i,
                                            "scope": f"s{i % 3}"} for i in range(lo, hi)])
                writer.put_vectors("m", list(zip(ids, x[lo:hi], strict=True)))
            return ids

        first = add(0, 150)
        reader.vector_search("m", x[0], Filters(), 5)  # loads the reader's index
        assert "m" in reader._indexes and not table._indexes
        wanted = [*first[::7], 10_000_000]  # and an id that does not exist

        def check(ids: list[int]) -> None:
            got = reader.item_vectors("m", ids)
            _same(got, table.item_vectors("m", ids))
            assert not table._indexes  # the reference store read the table

        check(wanted)
        assert list(reader.item_vectors("m", wanted[::-1])) == list(table.item_vectors("m", wanted[::-1]))
        more = add(150, 300)
        with writer.atomic():
            for i in first[:40:3]:
                writer.delete_item(i)
            writer.put_vectors("m", [(first[1], x[399]), (more[0], x[398])])
            writer.put_vectors("other", [(first[2], _unit(rng, 1)[0])])  # moves to model "other"
        check([*first, *more])
        assert first[2] not in reader.item_vectors("m", [first[2]])
        assert np.array_equal(reader.item_vectors("m", [first[1]])[first[1]], x[399])
    finally:
        for s in (reader, writer, table):
            s.close()


def test_item_vectors_are_copies_that_later_changes_do_not_reach(tmp_path):
    rng = np.random.default_rng(8)
    store = open_store(tmp_path / "c.db")
    try:
        x = _unit(rng, 3)
        with store.atomic():
            ids = store.insert_items([{"kind": "turn", "text": f"t{i}", "at": 1.0, "scope": "a"}
                                      for i in range(2)])
            store.put_vectors("m", [(ids[0], x[0]), (ids[1], x[1])])
        store.vector_search("m", x[0], Filters(), 2)
        before = store.item_vectors("m", ids)
        with store.atomic():
            store.put_vectors("m", [(ids[0], x[2])])
        assert np.array_equal(before[ids[0]], x[0])
        assert np.array_equal(store.item_vectors("m", ids)[ids[0]], x[2])
        # in increasing id order, whatever the order asked, as the table answers
        assert list(store.item_vectors("m", [ids[1], ids[0]])) == sorted(ids)
    finally:
        store.close()
