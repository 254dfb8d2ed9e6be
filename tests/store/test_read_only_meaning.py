"""The meaning preset's search reads as every other search on a database memlane may not
write, and under ``Memory.reading_only`` (session 32, rev32).

The meaning tier computes a candidate's passage vector when the store's embedding cache
does not hold it and writes it back (``MeaningTier.vectors``). Session 31's
``reading_only`` ("calls inside write nothing": a read-only API key's requests, a
read-only MCP server's calls) skipped the pack journal and the facts' access times, not
that: a read-only key's ``preset: meaning`` search wrote rows of ``embed_cache``; and on a
read-only database (session 22) the same search failed with ``attempt to write a readonly
database``. Now the vectors are computed and used, not kept. Real SQLite files and the
PostgreSQL the tests start; the shipped transformer (the ``meaning`` extra)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.testing import add_sessions, memory

pytest.importorskip("onnxruntime", reason="the meaning preset's transformer (memlane[meaning])")

NOW = datetime(2024, 6, 1, tzinfo=UTC)
QUERY = "what kind of dog did I adopt"


def _fill(db: str) -> None:
    mem = memory(db)
    try:
        add_sessions(mem, [
            (3, [("user", "I adopted a greyhound called Pixel last spring."),
                 ("assistant", "Lovely, greyhounds are gentle.")]),
            (2, [("user", "My sister plays the cello in an orchestra."),
                 ("assistant", "That sounds wonderful.")]),
            (1, [("user", "We painted the kitchen a pale green."), ("assistant", "Nice.")]),
        ], now=NOW, scope="s")
    finally:
        mem.close()


def _cached(mem) -> int:
    return int(mem.store._run("SELECT count(*) FROM embed_cache").fetchone()[0])


def test_reading_only_keeps_no_meaning_vector(db_url: str) -> None:
    _fill(db_url)
    mem = memory(db_url)
    try:
        before = _cached(mem)
        with mem.reading_only():
            read = [h.item.id for h in mem.search(QUERY, scope="s", preset="meaning", now=NOW)]
        assert read, "the meaning search found nothing"
        assert _cached(mem) == before  # not a row written
        kept = [h.item.id for h in mem.search(QUERY, scope="s", preset="meaning", now=NOW)]
        assert kept == read  # the same ranking, the vectors computed either way
        assert _cached(mem) > before  # a writing search caches them, as before
    finally:
        mem.close()


def _read_only_url(db_url: str) -> str:
    if "://" not in db_url:
        return f"sqlite:///{db_url}?mode=ro"
    psycopg = pytest.importorskip("psycopg")
    name = db_url.rsplit("/", 1)[1].split("?", 1)[0]
    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    return db_url


def test_a_read_only_database_is_searched_with_the_meaning_preset(db_url: str) -> None:
    _fill(db_url)
    mem = memory(_read_only_url(db_url))
    try:
        before = _cached(mem)
        for _ in range(2):
            hits = mem.search(QUERY, scope="s", preset="meaning", now=NOW)
            assert any("greyhound" in h.item.text for h in hits), [h.item.text for h in hits]
        assert _cached(mem) == before
    finally:
        mem.close()
