"""PostgreSQL specifics: migrations, many writers and indexers on one database, pgvector.

A real server with pgvector is started by the test run (see ``postgres_server_url`` in
conftest.py); each test gets its own empty database.
"""

from __future__ import annotations

import copy
import gc
import multiprocessing as mp
import threading
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

psycopg = pytest.importorskip("psycopg")

from memlane.config import load_config
from memlane.errors import MigrationError, StoreError
from memlane.index.indexer import index_pending
from memlane.memory import Memory
from memlane.serve.cli import cli
from memlane.serve.cli_db import register
from memlane.store import Filters, open_store
from memlane.store.migrations import load_migrations
from memlane.store.postgres import search as pg_search
from memlane.store.postgres.store import PostgresStore
from memlane.testing import HashingEmbedder
from memlane.testing.processes import run_together

FORK = mp.get_context("fork")
T0 = datetime(2024, 3, 1, tzinfo=UTC)


def _memory(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides={}),
                  embedder=HashingEmbedder(dim=256, char_trigrams=True))


def _sql(url: str, query: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(query, params)
        return cur.fetchall() if cur.description else []


# -- migrations --------------------------------------------------------------------------
ALL = [m.name for m in load_migrations("memlane.store.postgres")]


def test_migrations_pending_applied_and_read_only_peek(pg_url):
    assert PostgresStore.peek_migrations(pg_url)["pending"] == ALL
    assert _sql(pg_url, "SELECT to_regclass('schema_migrations')") == [(None,)]  # peek wrote nothing
    s = open_store(pg_url)
    assert s.applied_migrations() == ALL and s.pending_migrations() == []
    assert s.stats()["backend"] == "postgres"
    s.close()


def test_edited_and_unknown_migrations_are_refused(pg_url):
    open_store(pg_url).close()
    _sql(pg_url, "UPDATE schema_migrations SET sha256 = 'x' WHERE name = '0001_init'")
    with pytest.raises(MigrationError, match="edited"):
        open_store(pg_url)
    assert PostgresStore.peek_migrations(pg_url)["edited"] == ["0001_init"]
    _sql(pg_url, "UPDATE schema_migrations SET sha256 = %s WHERE name = '0001_init'",
         (load_migrations("memlane.store.postgres")[0].sha256,))
    open_store(pg_url).close()  # repaired
    _sql(pg_url, "INSERT INTO schema_migrations VALUES ('9999_future', 'x', 0)")
    with pytest.raises(MigrationError, match="upgrade memlane"):
        open_store(pg_url)


def _open_and_close(url: str) -> None:
    open_store(url).close()


def test_processes_migrating_at_once_apply_each_migration_once(pg_url):
    procs = [FORK.Process(target=_open_and_close, args=(pg_url,)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    assert _sql(pg_url, "SELECT name FROM schema_migrations ORDER BY name") == [(n,) for n in ALL]


def test_cli_migrate_show_then_apply(pg_url):
    group = copy.copy(cli)
    group.commands = dict(cli.commands)
    register(group)
    runner = CliRunner()
    shown = runner.invoke(group, ["--db", pg_url, "migrate", "--show"])
    assert shown.exit_code == 0 and f"pending: {', '.join(ALL)}" in shown.output
    assert _sql(pg_url, "SELECT to_regclass('schema_migrations')") == [(None,)]
    done = runner.invoke(group, ["--db", pg_url, "migrate"])
    assert done.exit_code == 0 and f"applied now: {', '.join(ALL)}" in done.output
    again = runner.invoke(group, ["--db", pg_url, "migrate"])
    assert "nothing (up to date)" in again.output
    _sql(pg_url, "UPDATE schema_migrations SET sha256 = 'x'")
    bad = runner.invoke(group, ["--db", pg_url, "migrate"])
    assert bad.exit_code == 1 and "was edited" in bad.output and "Traceback" not in bad.output


def test_url_loses_its_password_and_bad_servers_are_one_clear_error(pg_url):
    with_password = pg_url.replace("postgres@", "postgres:s3cret@")
    s = open_store(with_password)  # the test server trusts loopback: the password is unused
    assert "s3cret" not in s.url and "s3cret" not in str(s.stats())
    s.close()
    with pytest.raises(StoreError, match="connecting to postgresql://postgres@127.0.0.1:1/") as e:
        open_store("postgresql://postgres:s3cret@127.0.0.1:1/nope?connect_timeout=2")
    assert "s3cret" not in str(e.value)
    # and where that URL comes from (session 24: the error named the URL, not the setting)
    assert "--db, $MEMLANE_DB or db in memlane.toml" in str(e.value)


# -- many writers, one scope -------------------------------------------------------------
def _add_messages(url: str, who: str, n: int) -> None:
    m = _memory(url)
    try:
        for i in range(n):
            m.add_message("shared", "user", f"{who} says {i}", T0 + timedelta(seconds=i),
                          speaker=who)
    finally:
        m.close()


def _assert_one_contiguous_session(url: str, expected: int) -> None:
    s = open_store(url)
    try:
        sessions = s.list_sessions(scope="shared")
        assert len(sessions) == 1 and sessions[0].status == "open"
        msgs = s.session_messages(sessions[0].id)
        assert [m.seq for m in msgs] == list(range(1, expected + 1))
        assert sessions[0].message_count == expected
        assert s.counters()["sessions_opened"] == 1
    finally:
        s.close()


def test_concurrent_add_message_from_threads(pg_url):
    threads = [threading.Thread(target=_add_messages, args=(pg_url, f"t{k}", 25)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _assert_one_contiguous_session(pg_url, 100)


def test_concurrent_add_message_from_processes(pg_url):
    open_store(pg_url).close()  # migrate first, so the race is about sessions only
    procs = [FORK.Process(target=_add_messages, args=(pg_url, f"p{k}", 25)) for k in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    _assert_one_contiguous_session(pg_url, 75)
    s = open_store(pg_url)
    assert set(s.list_sessions(scope="shared")[0].participants) == {"p0", "p1", "p2"}
    s.close()


# -- many indexers -----------------------------------------------------------------------
def _index_pending(url: str) -> tuple[int, int]:
    m = _memory(url)
    try:
        report = index_pending(m.store, m.embeddings)
        return report.sessions_indexed, report.items_indexed
    finally:
        m.close()


def test_three_index_workers_index_each_session_exactly_once(pg_url):
    m = _memory(pg_url)
    n_sessions = 120
    with m.store.atomic():
        for k in range(n_sessions):
            for j in range(k % 4 + 2):
                m.add_message(f"chat-{k % 7}", "user" if j % 2 == 0 else "assistant",
                              f"session {k} turn {j} about topic {k % 11}",
                              T0 + timedelta(hours=2 * k, minutes=j))
    m.close_idle(now=T0 + timedelta(days=30))
    assert m.stats()["sessions_unindexed"] == n_sessions
    m.close()

    reports, exitcodes = run_together(_index_pending, pg_url, timeout=120)
    assert not [r for r in reports if isinstance(r, str)], reports
    assert exitcodes == [0, 0, 0]
    assert sum(r[0] for r in reports) == n_sessions

    per_session = _sql(pg_url, """
        SELECT s.id, s.message_count, count(i.id), count(DISTINCT i.message_id)
        FROM sessions s LEFT JOIN items i ON i.session_id = s.id GROUP BY s.id""")
    assert len(per_session) == n_sessions
    assert all(mc == items == distinct for _, mc, items, distinct in per_session)
    total_messages = sum(r[1] for r in per_session)
    assert sum(r[1] for r in reports) == total_messages
    assert _sql(pg_url, "SELECT count(*) FROM vectors") == [(total_messages,)]
    s = open_store(pg_url)
    assert s.counters()["sessions_indexed"] == n_sessions
    assert s.stats()["sessions_unindexed"] == 0
    s.close()


# -- search --------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text())
def test_any_text_is_a_valid_lexical_query(store_pg, text):
    got = store_pg.lexical_search([text, text[::-1]], Filters(), 5)
    assert all(isinstance(i, int) and isinstance(s, float) for i, s in got)


@pytest.fixture
def store_pg(pg_url):
    s = open_store(pg_url)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        s.insert_items([{"kind": "turn", "text": t, "at": 1.0, "scope": "s", "session_id": sid}
                        for t in ("cat AND dog: NOT a problem 🙂", "it's (a) 'quoted' & | ! <-> test")])
    yield s
    s.close()


def test_quoted_words_and_operators_are_found_literally(store_pg):
    got = store_pg.lexical_search(["quoted", "<->", "!"], Filters(), 5)
    assert len(got) == 1 and store_pg.get_item(got[0][0]).text.startswith("it's")


def test_term_document_frequency_counts_through_the_index_up_to_the_cap(pg_url):
    """``memlane_term_df`` (migration 0008) counts what an inline count would, capped."""
    s = open_store(pg_url)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        s.insert_items([{"kind": "turn", "text": f"harbour crane {'rare' if i % 10 == 0 else 'x'} {i}",
                         "at": 1.0, "scope": "s", "session_id": sid} for i in range(300)])
    s.close()
    for term, cap, expected in (("harbour", 1000, 300), ("harbour", 50, 50), ("rare", 1000, 30),
                                ("absent", 1000, 0)):
        q = _sql(pg_url, "SELECT phraseto_tsquery('english', %s)::text", (term,))[0][0]
        assert _sql(pg_url, "SELECT memlane_term_df(%s, %s)", (q, cap)) == [(expected,)], term
        inline = _sql(pg_url, "SELECT count(*) FROM (SELECT 1 FROM items WHERE tsv @@ %s::tsquery"
                      " LIMIT %s) s", (q, cap))
        assert inline == [(expected,)], term


def test_hnsw_index_is_created_per_model_and_dim_and_filters_are_exact(pg_url, monkeypatch):
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 1)
    s = open_store(pg_url)
    rng = np.random.default_rng(7)
    n, dim = 3000, 16
    vecs = rng.normal(size=(n, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([
            {"kind": "turn", "text": f"t{i}", "at": float(i), "scope": f"s{i % 3}",
             "session_id": sid, "privacy": "shared" if i % 50 == 0 else "private"}
            for i in range(n)])
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
        s.put_vectors("m2", [(ids[0], np.ones(4, np.float32))])
    assert not _sql(pg_url, "SELECT 1 FROM pg_indexes WHERE position('hnsw' in indexdef) > 0")  # not per insert
    assert s.ensure_vector_index("m", 16) and s.ensure_vector_index("m2", 4)
    names = {r[0] for r in _sql(pg_url, "SELECT indexdef FROM pg_indexes WHERE tablename = 'vectors'")}
    assert any("hnsw" in d and "vector(16)" in d and "'m'::text" in d for d in names)
    assert any("hnsw" in d and "vector(4)" in d and "'m2'::text" in d for d in names)

    q = rng.normal(size=dim).astype(np.float32)
    q /= np.linalg.norm(q)
    shared = [i for k, i in enumerate(ids) if k % 50 == 0]  # 60 of 3000: a starving filter
    got = s.vector_search("m", q, Filters(privacy=("shared",)), 10)
    by_id = dict(zip(ids, vecs @ q, strict=True))
    exact = sorted(shared, key=lambda i: -by_id[i])[:10]
    assert len(got) == 10 and {i for i, _ in got} <= set(shared)
    assert len({i for i, _ in got} & set(exact)) >= 9
    assert [c for _, c in got] == sorted((c for _, c in got), reverse=True)
    assert got[0][1] == pytest.approx(by_id[got[0][0]], abs=1e-5)
    # a scope is scanned exactly
    scoped = s.vector_search("m", q, Filters(scope="s1"), 5)
    assert [i for i, _ in scoped] == sorted((i for k, i in enumerate(ids) if k % 3 == 1),
                                            key=lambda i: -by_id[i])[:5]
    assert s.prune_vector_log() == 0
    s.close()


# -- connections the server closed --------------------------------------------------------
def _terminate_memlane_backends(url: str) -> None:
    """End every memlane connection to the database as a restart or ``pg_terminate_backend``
    does (the server says FATAL, then closes), and wait until they are gone."""
    db = url.rsplit("/", 1)[1]
    query = ("SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = 'memlane'"
             " AND pid <> pg_backend_pid()")
    assert _sql(url, query, (db,)), "no memlane connection to end"
    _sql(url, f"SELECT pg_terminate_backend(pid) FROM ({query}) p", (db,))
    for _ in range(200):  # bounded: 10 s
        if not _sql(url, query, (db,)):
            return
        threading.Event().wait(0.05)
    raise AssertionError("the backends did not end")


def test_connections_the_server_closed_while_idle_are_replaced_before_use(pg_url):
    """PostgreSQL restarted (or an idle connection ended by pg_terminate_backend,
    idle_session_timeout, a pooler) under a running process: each thread's idle
    connection failed its next call ("terminating connection due to administrator
    command"), so after a restart every thread of ``memlane serve`` answered one request
    with 503 and the index worker lost a run. The connection is now found closed before
    it is used, with no round trip, and a new one opened; both a single statement and a
    transaction, in two threads."""
    mem = _memory(pg_url)
    try:
        mem.add_message("a", "user", "before the restart")
        other: list[object] = []
        thread = threading.Thread(target=lambda: other.append(mem.stats()["messages"]))
        thread.start()
        thread.join(30)
        assert other == [1]
        for step in range(3):
            _terminate_memlane_backends(pg_url)
            if step == 0:  # one statement (memlane_add_message), no transaction
                mem.add_message("a", "user", "after the restart")
            elif step == 1:  # a transaction (BEGIN first)
                assert mem.close_session("a") is not None
            else:  # another thread's idle connection
                thread = threading.Thread(target=lambda: other.append(mem.stats()["messages"]))
                thread.start()
                thread.join(30)
                assert other == [1, 2]
        assert [m.text for m in mem.messages(mem.sessions("a")[0].id)] == [
            "before the restart", "after the restart"]
    finally:
        mem.close()


def test_the_counter_rows_of_connections_that_ended_are_folded_by_the_hygiene_pass(pg_url):
    """Each connection bumps its own counter row (its backend pid); a thread's connection
    closes when the thread ends, so bursts of threads leave rows of pids that no longer
    exist. ``gc`` (the worker runs it every round) folds those into one row per counter;
    the totals stay, a live connection's row stays its own."""
    m = _memory(pg_url)
    try:
        def burst() -> None:
            m.store.bump("burst")

        for _ in range(3):  # three threads, three connections that end with them
            t = threading.Thread(target=burst)
            t.start()
            t.join(60)
        gc.collect()  # the ended threads' connections are closed
        m.store.bump("burst")  # and the main thread's connection, alive
        before = m.store.stats()["counters"]
        shards = {r[0] for r in _sql(pg_url, "SELECT shard FROM counters")}
        assert len(shards) >= 3, shards  # the threads' pids and the main thread's
        live = {r[0] for r in _sql(pg_url, "SELECT pid FROM pg_stat_activity")}
        assert shards - live, (shards, live)  # rows of connections that ended
        m.gc()
        after = {r[0] for r in _sql(pg_url, "SELECT shard FROM counters")}
        assert after - live <= {0}, after  # only the fold's row is of no live backend
        assert 0 in after
        counted = m.store.stats()["counters"]  # nothing counted twice or lost
        assert {k: counted[k] for k in before} == before and before["burst"] == 4
        m.store.bump("burst")  # the live connection still bumps its own row
        assert m.store.stats()["counters"]["burst"] == 5
    finally:
        m.close()
