"""A page of the items no session holds is read from an index in the walk's order (session
35, rev35): ``Store.loose_items`` (the meaning backfill's walk, session 34) found them by
``items_session`` (session_id, seq) and sorted every one of them for each page of 50: on
SQLite, 190 ms of CPU a page with 150,000 such items, up to 100 pages a round over a full
cache. Migrations SQLite 0022 and PostgreSQL 0030 (``walk_indexes``) add ``items_loose``;
and ``sessions_time`` (started_at, id) for the sessions of every scope newest first from a
place (``list_sessions(after=...)``: 54 ms a page with 100,000 sessions, every one sorted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memlane.retrieve.meaning import RESCORED_KINDS
from memlane.store.postgres.store import PostgresStore
from memlane.store.sqlite.store import SqliteStore
from memlane.testing import memory

from tests.retrieve.test_meaning import NOW

KINDS = sorted(RESCORED_KINDS)


def _stored(url: str) -> list[int]:
    with memory(url) as m:
        ids = [m.upsert(f"decided thing {i}", kind="decision", scope="a", at=NOW)
               for i in range(12)]
        m.add_message("a", "user", "a turn a session holds", at=NOW)
    return ids


def test_sqlite_reads_a_page_of_loose_items_in_id_order_without_sorting(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    ids = _stored(str(path))
    sql: list[str] = []
    s = SqliteStore(path, tracer=lambda kind, text, _: sql.append(text))
    try:
        for before in (None, ids[6]):
            sql.clear()
            got = s.loose_items(KINDS, scope="a", before=before, limit=4)
            assert [it.id for it in got] == sorted((i for i in ids if before is None or i < before),
                                                   reverse=True)[:4]
            query = next(q for q in sql if "FROM items" in q)
            plan = " ".join(str(r[3]) for r in s.db.execute("EXPLAIN QUERY PLAN " + query))
            assert "items_loose" in plan and "TEMP B-TREE" not in plan, plan
    finally:
        s.close()


def test_postgres_reads_a_page_of_loose_items_in_id_order_without_sorting(pg_url: str) -> None:
    ids = _stored(pg_url)
    s = PostgresStore(pg_url)
    try:
        got = s.loose_items(KINDS, before=ids[6], limit=4)
        assert [it.id for it in got] == sorted((i for i in ids if i < ids[6]), reverse=True)[:4]
        with s.atomic():
            s._run("SET LOCAL enable_seqscan = off")  # a table this small is read whole
            plan = "\n".join(str(r[0]) for r in s._run(
                "EXPLAIN SELECT id FROM items WHERE session_id IS NULL AND status = 'active'"
                " AND kind IN (%s, %s) AND id < %s ORDER BY id DESC LIMIT %s",
                (KINDS[0], KINDS[1], ids[6], 4)))
        assert "items_loose" in plan and "Sort" not in plan, plan
    finally:
        s.close()


def test_the_index_is_made_again_by_migrations_run_again(tmp_path: Path, pg_url: str) -> None:
    """Both migrations can run again over a database that has the index (``IF NOT EXISTS``)."""
    from memlane.store.migrations import load_migrations

    for cls, url, package in ((SqliteStore, tmp_path / "again.db", "memlane.store.sqlite"),
                              (PostgresStore, pg_url, "memlane.store.postgres")):
        s: Any = cls(url)  # type: ignore[arg-type]
        try:
            [mig] = [m for m in load_migrations(package) if m.name.endswith("_walk_indexes")]
            code = "\n".join(ln for ln in mig.sql.splitlines() if not ln.startswith("--"))
            with s.atomic():
                for statement in filter(str.strip, code.split(";")):
                    s.db.execute(statement)
            assert s.loose_items(KINDS) == []
        finally:
            s.close()


def _sessions(url: str) -> list[int]:
    with memory(url) as m:
        for i in range(8):
            m.add_message(f"s{i % 3}", "user", f"turn {i}", at=NOW.timestamp() + 3600 * i)
            m.close_session(f"s{i % 3}")
        return [s.id for s in m.store.list_sessions(limit=100)]


def test_sqlite_reads_a_page_of_sessions_from_a_place_without_sorting(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    newest = _sessions(str(path))
    sql: list[str] = []
    s = SqliteStore(path, tracer=lambda kind, text, _: sql.append(text))
    try:
        at = s.get_session(newest[2])
        for after in (None, (at.started_at.timestamp(), at.id)):
            sql.clear()
            got = [x.id for x in s.list_sessions(limit=3, after=after)]
            assert got == (newest[:3] if after is None else newest[3:6])
            query = next(q for q in sql if "FROM sessions" in q and "ORDER BY" in q)
            plan = " ".join(str(r[3]) for r in s.db.execute("EXPLAIN QUERY PLAN " + query))
            assert "sessions_time" in plan and "TEMP B-TREE" not in plan, plan
        back = [x.id for x in s.list_sessions(limit=2, before=(at.started_at.timestamp(), at.id))]
        assert back == newest[:2]
    finally:
        s.close()


def test_postgres_reads_a_page_of_sessions_from_a_place_without_sorting(pg_url: str) -> None:
    newest = _sessions(pg_url)
    s = PostgresStore(pg_url)
    try:
        at = s.get_session(newest[2])
        assert [x.id for x in s.list_sessions(limit=3, after=(at.started_at.timestamp(),
                                                                at.id))] == newest[3:6]
        start = at.started_at.timestamp()
        with s.atomic():
            s._run("SET LOCAL enable_seqscan = off")
            plan = "\n".join(str(r[0]) for r in s._run(
                "EXPLAIN SELECT id FROM sessions WHERE started_at <= %s AND ((started_at < %s)"
                " OR (started_at = %s AND id < %s)) ORDER BY started_at DESC, id DESC LIMIT 3",
                (start, start, start, at.id)))
        assert "sessions_time" in plan and "Sort" not in plan, plan
    finally:
        s.close()
