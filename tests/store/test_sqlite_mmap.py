"""SQLite reads through a memory map (``memlane.store.sqlite.db.MMAP_BYTES``): what a
store reads stays what another process wrote, after that process's changes were
checkpointed into the mapped file, the file grew past what was mapped, and rows were
deleted."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from memlane.store import Filters, open_store
from memlane.store.sqlite.db import MMAP_BYTES

_WRITER = """
import sys
from memlane.store import open_store
s = open_store(sys.argv[1])
step = sys.argv[2]
with s.atomic():
    if step == "grow":
        s.insert_items([{"kind": "turn", "text": f"walrus number {i} " + "pad " * 200,
                         "at": 2.0 + i, "scope": "a"} for i in range(3000)])
    else:
        s.db.execute("UPDATE items SET text = 'narwhal now' WHERE text = 'otter first'")
        s.db.execute("DELETE FROM items WHERE text LIKE 'walrus number 1%'")
s.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
s.close()
"""


def _write(path: str, step: str) -> None:
    subprocess.run([sys.executable, "-c", _WRITER, path, step], check=True, timeout=120)


def test_reads_through_the_map_follow_another_process(tmp_path):
    path = str(tmp_path / "m.db")
    reader = open_store(path)
    try:
        assert reader.db.execute("PRAGMA mmap_size").fetchone()[0] == MMAP_BYTES
        with reader.atomic():
            (first,) = reader.insert_items([{"kind": "turn", "text": "otter first", "at": 1.0,
                                             "scope": "a"}])
        assert [i for i, _ in reader.lexical_search(["otter"], Filters(scope="a"), 10)] == [first]
        size = (tmp_path / "m.db").stat().st_size

        _write(path, "grow")  # another process: 3,000 rows, checkpointed into the file
        assert (tmp_path / "m.db").stat().st_size > 4 * size
        got = reader.lexical_search(["walrus"], Filters(scope="a"), 5000)
        assert len(got) == 3000
        assert reader.get_items([first])[first].text == "otter first"

        _write(path, "change")  # an update and deletes, checkpointed too
        assert reader.get_items([first])[first].text == "narwhal now"
        assert reader.lexical_search(["otter"], Filters(scope="a"), 10) == []
        left = {i for i, _ in reader.lexical_search(["walrus"], Filters(scope="a"), 5000)}
        texts = [it.text for it in reader.get_items(sorted(left)).values()]
        assert len(left) == 3000 - 1111 and not any(t.startswith("walrus number 1") for t in texts)
    finally:
        reader.close()


def test_the_map_is_set_again_after_the_vector_index_loads_and_after_unmapped(tmp_path):
    store = open_store(tmp_path / "v.db")
    try:
        with store.atomic():
            ids = store.insert_items([{"kind": "turn", "text": f"t{i}", "at": 1.0, "scope": "a"}
                                      for i in range(3)])
            store.put_vectors("m", [(i, np.eye(4, dtype=np.float32)[n]) for n, i in enumerate(ids)])
        got = store.vector_search("m", np.eye(4, dtype=np.float32)[1], Filters(scope="a"), 2)
        assert [i for i, _ in got][0] == ids[1] and "m" in store._indexes  # loaded
        assert store.db.execute("PRAGMA mmap_size").fetchone()[0] == MMAP_BYTES
        with store.db.unmapped():
            assert store.db.execute("PRAGMA mmap_size").fetchone()[0] == 0
        assert store.db.execute("PRAGMA mmap_size").fetchone()[0] == MMAP_BYTES
    finally:
        store.close()
