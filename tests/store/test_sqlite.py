"""SQLite specifics: WAL, migrations, the vector index across connections, query escaping."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.errors import MigrationError, StoreError
from memlane.store import Filters, open_store
from memlane.store.sqlite.store import fts_query


def test_file_is_wal_with_foreign_keys(tmp_path):
    s = open_store(tmp_path / "a.db")
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert s.applied_migrations() == ["0001_init", "0002_intelligence", "0003_facts_packs",
                                      "0004_fts_scope", "0005_api_keys", "0006_changes",
                                      "0007_fts_scope_token", "0008_facts_message",
                                      "0009_message_changes", "0010_summary_deferrals",
                                      "0011_id_floor", "0012_id_floor_messages_packs",
                                      "0013_time_order", "0014_reply_keys", "0015_name_keys",
                                      "0016_value_keys", "0017_fact_event_message",
                                      "0018_value_symbols", "0019_name_symbols",
                                          "0020_mark_subjects", "0021_relation_reads",
                                          "0022_walk_indexes"]
    assert s.pending_migrations() == []
    s.close()


def test_edited_migration_is_refused(tmp_path):
    path = tmp_path / "a.db"
    open_store(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE schema_migrations SET sha256 = 'x' WHERE name = '0001_init'")
    con.commit()
    con.close()
    with pytest.raises(MigrationError, match="edited"):
        open_store(path)


def test_unknown_migration_is_refused(tmp_path):
    path = tmp_path / "a.db"
    open_store(path).close()
    con = sqlite3.connect(path)
    con.execute("INSERT INTO schema_migrations VALUES ('9999_future', 'x', 0)")
    con.commit()
    con.close()
    with pytest.raises(MigrationError, match="upgrade memlane"):
        open_store(path)


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "nope" / "a.db")


def test_vector_index_follows_changes_from_another_connection(tmp_path):
    """Two stores on one file (as two processes): the reader's index catches up."""
    path = tmp_path / "shared.db"
    writer, reader = open_store(path), open_store(path)
    with writer.atomic():
        sid = writer.create_session("s", 1.0, None, None)
        ids = writer.insert_items([{"kind": "turn", "text": t, "at": 1.0, "scope": "s",
                                    "session_id": sid} for t in ("a", "b")])
        writer.put_vectors("m", [(ids[0], np.array([1, 0], np.float32)),
                                 (ids[1], np.array([0, 1], np.float32))])
    q = np.array([1, 0], np.float32)
    assert reader.vector_search("m", q, Filters(), 1)[0][0] == ids[0]
    writer.delete_item(ids[0])
    with writer.atomic():
        writer.put_vectors("m", [(ids[1], np.array([1, 0], np.float32))])
    got = reader.vector_search("m", q, Filters(), 5)
    assert got == [(ids[1], pytest.approx(1.0))]
    # the change log can be pruned; a reader that fell behind rebuilds from the table
    with writer.atomic():
        writer.prune_vector_log(keep=0)
    fresh = open_store(path)
    assert [i for i, _ in fresh.vector_search("m", q, Filters(), 5)] == [ids[1]]
    for s in (writer, reader, fresh):
        s.close()


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_fts_query_never_raises(text):
    """Any user text becomes a valid FTS5 expression (or none at all)."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    con.execute("INSERT INTO t VALUES ('some text to find')")
    expr = fts_query([text, text[::-1]])
    if expr is not None:
        con.execute("SELECT rowid FROM t WHERE t MATCH ?", (expr,)).fetchall()
        assert expr.startswith('"') and expr.endswith('"')


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1))
@example("\uf900")  # a CJK compatibility ideograph: NFC makes it another code point
def test_stored_text_is_found_by_its_own_words(tmp_path_factory, text):
    from memlane.retrieve.text import query_terms
    from memlane.store.sqlite.search import scope_token

    s = open_store(tmp_path_factory.mktemp("h") / "h.db")
    with s.atomic():
        # the scope is one token of its own (migration 0007), left out of the count below
        sid = s.create_session("-", 1.0, None, None)
        (iid,) = s.insert_items([{"kind": "turn", "text": text, "at": 1.0, "scope": "-",
                                  "session_id": sid}])
    terms = query_terms(text)
    got = s.lexical_search(terms, Filters(), 5)
    indexed_tokens = s.db.execute("SELECT count(*) FROM items_fts_vocab WHERE term <> ?",
                                  (scope_token("-"),)).fetchone()[0]
    s.close()
    assert iid in [i for i, _ in got] or indexed_tokens == 0


def test_a_write_lock_held_past_the_busy_timeout_is_named(tmp_path, monkeypatch):
    """Another process holding the write lock past the busy timeout read 'begin: database
    is locked'; the error names the file, what holds it and that nothing was written."""
    import memlane.store.sqlite.db as sqlite_db
    from memlane.testing import memory

    monkeypatch.setattr(sqlite_db, "_BUSY_SECONDS", 0.2)  # connections opened from here on
    path = tmp_path / "locked.db"
    with memory(path) as mem:
        mem.add_message("s", "user", "before")
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreError, match=r"locked\.db is locked: another process has "
                                                 r"held its write lock .* nothing was written"):
                mem.add_message("s", "user", "during")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [m.text for m in mem.messages(1)] == ["before"]
        mem.add_message("s", "user", "after")
