"""The facts of a message are found through an index on both backends (migration
``facts_message``): newest-first search asks ``superseded_messages`` about every turn it ranks."""

from __future__ import annotations

from memlane.store import open_store


def _sqlite_plan(store, ids):
    rows = store.db.execute(
        "EXPLAIN QUERY PLAN SELECT message_id FROM facts WHERE message_id IN (?, ?)"
        " GROUP BY message_id", ids).fetchall()
    return " ".join(str(r[-1]) for r in rows)


def test_sqlite_reads_a_messages_facts_through_the_index(tmp_path):
    s = open_store(tmp_path / "a.db")
    try:
        assert "facts_message" in _sqlite_plan(s, (1, 2))
        assert s.superseded_messages([1, 2]) == set()
    finally:
        s.close()


def test_postgres_has_the_index_and_uses_it_on_a_large_table(pg_url):
    s = open_store(pg_url)
    try:
        names = {r[0] for r in s.db.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'facts'").fetchall()}
        assert "facts_message" in names
        with s.db.atomic():
            s.db.execute("SET LOCAL enable_seqscan = off")
            plan = " ".join(r[0] for r in s.db.execute(
                "EXPLAIN SELECT message_id FROM facts WHERE message_id = ANY(%s)"
                " GROUP BY message_id", ([1, 2],)).fetchall())
        assert "facts_message" in plan
    finally:
        s.close()
