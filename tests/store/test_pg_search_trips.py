"""PostgreSQL search: fewer round trips, the same answers.

Each test counts the statements a search step sends (libpq's own protocol trace, see
``round_trips`` in conftest.py) or checks an answer against the one the slower way gives.
"""

from __future__ import annotations

import numpy as np
import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.store import Filters, open_store
from memlane.store.postgres import search as pg_search

WORDS = ("harbour", "crane", "ferry", "lantern", "orchard", "violin", "glacier", "meadow")


def _sql(url: str, query: str, params: tuple = ()) -> list[tuple]:
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(query, params).fetchall()


def _fill(store, n: int = 120, start: int = 0) -> list[int]:
    with store.atomic():
        sid = store.create_session(f"session-{start}", 1.0, None, None)
        return store.insert_items([
            {"kind": "turn", "text": f"{WORDS[i % 8]} {WORDS[(i * 3) % 8]} number {i}",
             "at": float(i), "scope": "s" if i % 2 else "t", "session_id": sid}
            for i in range(start, start + n)])


def test_lexical_search_is_two_statements_once_statistics_are_read(pg_url, round_trips):
    """The terms' tsqueries, their capped counts and the highest item id come in one
    statement, the ranked matches in a second (it was four)."""
    s = open_store(pg_url)
    _fill(s)
    first = s.lexical_search(["harbour", "violin"], Filters(), 10)  # reads the statistics
    with round_trips(s) as trips:
        again = s.lexical_search(["harbour", "violin"], Filters(), 10)
    assert again == first and len(first) == 10
    assert trips.count == 2, trips.trace
    s.close()


def test_a_wrong_tsquery_hint_changes_nothing(pg_url):
    """The remembered tsquery of a term only decides which counts to skip: a hint that
    names a common lexeme for a rare term still gets that term counted."""
    s = open_store(pg_url)
    _fill(s)
    terms = ["lantern", "number", "glacier"]
    want = s.lexical_search(terms, Filters(scope="s"), 20)
    stats = s._term_stats
    # the statistics last read called both terms common, and each term's tsquery is known:
    # the combined statement skips their counts; the statistics read afresh do not list
    # them (a fresh database has none), so they must be counted after all
    stats._freq, stats._at = {"lantern": 0.9, "glacier": 0.9}, -stats.ttl
    pg_search._TSQUERY_HINTS.update({"lantern": "'lantern'", "glacier": "'glacier'"})
    got = s.lexical_search(terms, Filters(scope="s"), 20)
    assert stats.known() == {}.keys()
    assert got == want and got
    s.close()


def test_indexing_ends_with_the_full_text_pending_list_merged(pg_url):
    """``ensure_vector_index`` (the end of every indexing run) merges the GIN index's
    pending entries, which every full-text search would otherwise read row by row."""
    s = open_store(pg_url)
    _fill(s, 400)
    pending = _sql(pg_url, "SELECT gin_clean_pending_list('items_tsv'::regclass)")[0][0]
    assert pending > 0  # new rows do wait in the pending list
    _fill(s, 400, start=400)
    s.ensure_vector_index("m", 8)
    assert _sql(pg_url, "SELECT gin_clean_pending_list('items_tsv'::regclass)") == [(0,)]
    lantern = [i for i in range(800) if "lantern" in (WORDS[i % 8], WORDS[(i * 3) % 8])]
    assert len(s.lexical_search(["lantern"], Filters(), 800)) == len(lantern)
    s.close()


def test_an_exact_scan_reads_vectors_by_key_on_a_table_without_statistics(pg_url, sent_statements):
    """Without statistics the planner priced the (model, dim) index and the primary key
    alike and sometimes took the former: every vector of the model filtered by id."""
    s = open_store(pg_url)
    ids = _fill(s, 300)
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(len(ids), 8)).astype(np.float32)
    with s.atomic():
        s.put_vectors("m", list(zip(ids, vecs, strict=True)))
    with sent_statements(s) as sent:
        got = s.vector_search("m", vecs[5], Filters(scope="s"), 5)
        by_id = s.item_vectors("m", ids[:7])
    captured = [(sql, params) for sql, params in sent if "<=>" in sql or "FROM vectors WHERE" in sql]
    want = sorted(((float(v @ vecs[5] / np.linalg.norm(v) / np.linalg.norm(vecs[5])), i)
                   for i, v in zip(ids, vecs, strict=True) if (i - ids[0]) % 2), reverse=True)[:5]
    assert [i for i, _ in got] == [i for _, i in want]
    assert sorted(by_id) == ids[:7] and all(np.array_equal(by_id[i], vecs[k]) for k, i in enumerate(ids[:7]))
    assert len(captured) == 2
    for sql, params in captured:
        plan = "\n".join(r[0] for r in s.db.execute("EXPLAIN " + sql, params))
        assert "vectors_pkey" in plan and "vectors_model" not in plan, plan
    s.close()


def test_common_terms_rank_the_same_matches_walking_ids_or_through_the_index(pg_url, monkeypatch, sent_statements):
    """A query of common terms only ranks its rarest term's newest matches; walking the
    ids down and reading the matches through the full-text index find the same ones."""
    monkeypatch.setattr(pg_search, "LEXICAL_POSTINGS", 20)
    monkeypatch.setattr(pg_search, "COMMON_MATCHES", 30)
    s = open_store(pg_url)
    ids = _fill(s, 400)
    got = {}
    for walk_above in (0, 10**9):
        monkeypatch.setattr(pg_search, "WALK_ABOVE", walk_above)
        with sent_statements(s) as sent:
            got[walk_above] = s.lexical_search(["harbour", "crane", "number"], Filters(scope="t"), 10)
        main = [q for q, _ in sent if "WITH c AS" in q]
        assert len(main) == 1 and ("i.id + 0 DESC" in main[0]) == (walk_above > 0)
    assert got[0] == got[10**9] and len(got[0]) == 10
    # "harbour" (every 8th item, all in scope "t") is the rarest: only its newest 30 rank
    assert {i for i, _ in got[0]} <= set(ids[0::8][-30:])
    s.close()


def test_the_common_lexemes_travel_as_one_array_literal(pg_url):
    """Lexemes with quotes, backslashes, commas and braces survive the literal."""
    awkward = ["plain", "it's", 'say "hi"', "back\\slash", "a,b", "{brace}", "naïve", ""]
    literal = pg_search._array_literal(awkward)
    assert _sql(pg_url, "SELECT %s::text[]", (literal,)) == [(awkward,)]
    stats = pg_search.TermStats()
    stats._freq = {"it's": 0.5, "plain": 0.2}
    assert _sql(pg_url, "SELECT %s::text[]", (stats.common_tsqueries(),)) == [(["'it''s'", "'plain'"],)]


def test_the_first_search_reads_the_statistics_before_counting(pg_url, sent_statements):
    """A new store's first search knows the common terms from the table's statistics, so
    it does not count them (counting a common term visits up to thousands of rows)."""
    s = open_store(pg_url)
    _fill(s, 400)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ANALYZE items")
    s.close()
    pg_search._TSQUERY_HINTS.clear()
    s = open_store(pg_url)
    with sent_statements(s) as statements:
        got = s.lexical_search(["number", "violin"], Filters(), 10)
    sent = [params for sql, params in statements if sql == pg_search._TERM_COUNTS]
    assert len(sent) == 1 and got
    skip = _sql(pg_url, "SELECT %s::text[]", (sent[0][0],))[0][0]
    assert "'number'" in skip  # from the statistics: the term is in every item
    s.close()
