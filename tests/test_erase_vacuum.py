"""``[memory.erase] vacuum`` and ``--vacuum`` (session 23): after an erase the database is
rewritten, so no page keeps a stale copy of an erased row (a SQLite page rebuilt while its
b-tree was balanced keeps the old bytes of the cells it moved in its free gap, where
``secure_delete`` does not reach: docs/erasure.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions, memory
from tests.test_erase import NOW, OVERRIDES, _file_bytes, _rows_with
from tests.test_erase_turn import SECRET_TURN, TURNS


def _vacuuming(db: str) -> Memory:
    cfg = load_config(environ={}, overrides={**OVERRIDES, "erase": {"vacuum": True}})
    return Memory(db, config=cfg, embedder=HashingEmbedder(dim=256, char_trigrams=True))


def _free_pages(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("PRAGMA freelist_count").fetchone()[0])
    finally:
        con.close()


def _history(mem: Memory) -> None:
    add_sessions(mem, [(5, TURNS)] * 3, now=NOW, scope="alice")
    add_sessions(mem, [(2, [("user", "Zorblatt is lovely in spring"), ("assistant", "Yes.")])],
                 now=NOW, scope="bob")
    mem.pack("where did I move with my sister", 600, scope="alice", now=NOW)


def test_erase_vacuum_rewrites_the_sqlite_file_after_every_erase(tmp_path: Path) -> None:
    path = tmp_path / "vacuum.db"
    mem = _vacuuming(str(path))
    try:
        _history(mem)
        fact = mem.add_fact("user", "nickname", "Plimbo", scope="bob")
        note = mem.upsert("Note: the locker code is Vexwolt", scope="bob", kind="note")
        before = len(_file_bytes(path))
        assert b"quexley" in _file_bytes(path).lower()
        report = mem.forget_scope("alice")
        assert report.erased
        # VACUUM wrote every page again: no free page, a smaller file, no byte of it
        assert _free_pages(path) == 0 and len(_file_bytes(path)) < before
        assert b"quexley" not in _file_bytes(path).lower()
        assert _rows_with(mem.store, "Quexley") == {}
        mem.forget_fact(fact.fact_id)
        mem.forget_item(note)
        assert _free_pages(path) == 0
        data = _file_bytes(path).lower()
        assert b"plimbo" not in data and b"vexwolt" not in data and b"zorblatt" in data
    finally:
        mem.close()


def test_without_the_key_an_erase_leaves_free_pages_and_vacuum_takes_them(tmp_path: Path) -> None:
    from tests.test_erase import _memory

    path = tmp_path / "plain.db"
    mem = _memory(str(path))
    try:
        _history(mem)
        mem.forget_scope("alice")
        assert _free_pages(path) > 0   # the default: the erase alone (no VACUUM's cost)
        mem.vacuum()
        assert _free_pages(path) == 0
    finally:
        mem.close()


def test_cli_forget_commands_take_vacuum(tmp_path: Path, cli_run) -> None:
    mem = memory(tmp_path / "cli.db")
    add_sessions(mem, [(5, TURNS)] * 3, now=NOW, scope="alice")
    add_sessions(mem, [(5, TURNS)] * 3, now=NOW, scope="carol")
    fact = mem.add_fact("user", "nickname", "Plimbo", scope="bob")
    carol = [s.id for s in mem.sessions("carol")]
    mem.close()
    path = tmp_path / "cli.db"
    cli_run("forget", "--scope", "alice", "--yes")
    assert _free_pages(path) > 0
    cli_run("forget", "--scope", "alice", "--yes", "--vacuum")  # nothing to erase, still vacuums
    assert _free_pages(path) == 0
    cli_run("sessions", "forget", str(carol[0]), "--yes", "--vacuum")
    assert _free_pages(path) == 0
    cli_run("facts", "forget", str(fact.fact_id), "--vacuum")
    assert _free_pages(path) == 0 and b"plimbo" not in _file_bytes(path).lower()
    assert SECRET_TURN.encode() in _file_bytes(path)   # carol's other sessions stay


def test_erase_vacuum_on_postgresql_rewrites_the_tables(pg_url: str) -> None:
    mem = _vacuuming(pg_url)
    try:
        _history(mem)

        def files() -> dict[str, int]:
            return {t: int(mem.store.db.execute("SELECT pg_relation_filenode(%s)",
                                                (t,)).fetchone()[0])
                    for t in ("items", "messages", "changes")}

        before = files()
        mem.forget_scope("alice")
        after = files()
        assert all(after[t] != before[t] for t in before), (before, after)  # VACUUM FULL
        assert _rows_with(mem.store, "Quexley") == {}
        assert [s.scope for s in mem.sessions("bob")] == ["bob"]
    finally:
        mem.close()
