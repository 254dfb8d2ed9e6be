"""Full-text and vector search SQL for PostgreSQL (tsvector + GIN, pgvector HNSW)."""

from __future__ import annotations

import hashlib
import logging
import math
import os
import re
import threading
import time
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from memlane.errors import StoreError
from memlane.store.filters import Filters
from memlane.store.postgres.db import LOCK_INDEX, Database, Vector
from memlane.store.rows import ITEM_FIELDS
from memlane.store.sql.base import SqlStore
from memlane.store.sql.lexical import COMMON_MATCHES, LEXICAL_POSTINGS, rarest_within

log = logging.getLogger("memlane.store")

__all__ = ["HNSW_ABOVE", "PostgresSearch", "TermStats", "ensure_hnsw", "lexical_search", "vector_search"]

# pgvector's HNSW indexes vectors of up to 2,000 dimensions; wider ones are scanned exactly.
HNSW_MAX_DIM = 2000
# A (model, dim) gets its HNSW index once it holds this many vectors (built in one pass by
# ``ensure_vector_index`` after a bulk load); below, every search scans exactly. Measured at
# 10k items: an exact unscoped scan costs about 3-4x the graph walk, so the graph is built
# early; what matters is that it is built in one pass, not per insert.
HNSW_ABOVE = 5_000
# A filtered set of at most EXACT_BELOW items, or of at most EXACT_SHARE of the items (the
# planner's row count, ``pg_class.reltuples``) up to EXACT_MAX, is scanned exactly: cheaper
# than the graph walk there, and exact. The scan costs ~1.5 µs an item; the walk of a filter
# costs more the fewer items pass it (its iterative scan visits and rejects the rest).
# Measured (docs/scaling.md, ninth round; server CPU a search, 200 candidates, the newest N
# items as the filter): at 10k items exact / walk N=3,000 4.8 / 6.2 ms, N=5,000 9.3 / 5.5;
# at 100k N=5,000 10.8 / 78, N=10,000 17.5 / 42.7, N=20,000 33.5 / 28.0. It was a fixed
# 5,000: exact where the walk was cheaper at 10k, the walk where it cost 3-7 times more at 100k.
EXACT_BELOW = 3000
EXACT_SHARE = 0.15
EXACT_MAX = 20_000
# The filtered set's capped count and its threshold, in one statement (reltuples is -1 for a
# table never analysed: the threshold is then EXACT_BELOW).
_EXACT_COUNT = (
    "WITH t AS (SELECT greatest(%s, least(%s, %s * c.reltuples))::bigint AS t FROM pg_class c"
    " WHERE c.oid = 'items'::regclass)"
    " SELECT (SELECT count(*) FROM (SELECT 1 FROM items i WHERE {where}"
    " LIMIT (SELECT t FROM t) + 1) s), (SELECT t FROM t)"
)
# A query of common terms only ranks its rarest term's newest COMMON_MATCHES matches; they
# are found by walking the ids down while df^2 >= WALK_ABOVE * items, else through the
# full-text index (see lexical_search). Walking tests about COMMON_MATCHES * items / df rows,
# the index reads df matches: the crossover is at df^2 / items ~ COMMON_MATCHES / 5
# (measured at 100k items with 1,000 matches: df^2 / items 143 index 9.9 ms, walk 20.8; 224:
# 18.0 against 15.1; 469: 26.4 against 9.0. With 5,000 matches it was 1,500). At 100k
# items a term in more than ~4.5% of them walks, at 1M ~1.4%.
WALK_ABOVE = COMMON_MATCHES // 5
# Above this many items, a table without full-text statistics is analysed on first search.
ANALYZE_ABOVE = 5000
# HNSW build parameters of new indexes. Every vector insert walks the graph with
# ef_construction candidates, the bulk of an indexing run's time: 40 instead of pgvector's
# 64 inserts about 1.3-1.4 times as fast, and the searches' ef_search of 150 (db.py) buys
# the recall back (at 50k 256-d vectors, recall@10 0.961 against 0.962 for 64 with 100).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 40
# ``lexical_and_vector_search`` runs the lexical statements on one of this many helper
# threads of the store (each with its own connection) while the calling thread runs the
# vector statement: the server works on both at once (on two cores, the search's wall time
# is about the slower of the two instead of their sum). Only where a search is big enough
# to gain (over all scopes, the model's HNSW index exists: HNSW_ABOVE vectors), never
# inside a transaction (another connection would not see its writes).
SEARCH_THREADS = 4
# Within ``reading()``, each list's items are read on the connection that ranked it, right
# after it (``reads.ReadAhead``): the lexical list's by the helper thread while the
# calling thread walks the graph, the vector list's by the calling thread while (or after)
# the lexical list is ranked; an item in both lists is read once. The search's get_items
# then finds every candidate read. Before, the vector list's items were read only when the
# lexical list was still being ranked (a quarter of the bench's searches at 10k items), and
# get_items read the rest after both lists: one statement of ~200-300 rows on the path of
# every search.
PREFETCH_ITEMS = True


def _clean_terms(terms: Sequence[str]) -> list[str]:
    clean = [t.replace("\x00", " ") for t in terms]
    return [t for t in clean if t.strip()]


_LEXEME = re.compile(r"^'((?:[^']|'')*)'$")
_QUOTED = re.compile(r"'((?:[^']|'')*)'")


def _lexeme(q: str) -> str | None:
    """The lexeme of a one-lexeme tsquery (``'word'``), else None."""
    m = _LEXEME.match(q)
    return m.group(1).replace("''", "'") if m else None


def _counts(db: Database, queries: Sequence[str], cap: int) -> list[tuple[str, int]]:
    """Each tsquery's number of matching items, counted up to ``cap``: through the GIN
    index whatever the planner would choose (``memlane_term_df``, migration 0008)."""
    return db.execute(
        "SELECT q, memlane_term_df(q, %s) FROM unnest(%s::text[]) AS x(q)", (cap, list(queries)),
    ).fetchall()


# A term's tsquery text, as PostgreSQL's ``phraseto_tsquery`` made it the last time the term
# was seen (bounded; cleared when full). Only a hint: it picks which counts to skip in
# ``_term_counts``; the tsqueries searched are always the server's own of that statement.
_TSQUERY_HINTS: dict[str, str] = {}
_TSQUERY_HINTS_MAX = 50_000

# The lexical stage's first statement: the items' highest id, each term's tsquery and its
# capped count of matches (NULL where the term is known to be common, or is only
# stopwords). It was three statements: the tsqueries, the counts, the max id. User text
# reaches PostgreSQL only as a bound parameter of ``phraseto_tsquery``, which accepts any
# string: operators, quotes and parentheses are plain characters to it.
_TERM_COUNTS = (
    "SELECT (SELECT coalesce(max(id), 0) FROM items), x.t, x.q,"
    " CASE WHEN x.q = '' OR x.q = ANY(%s::text[]) THEN NULL ELSE memlane_term_df(x.q, %s) END"
    " FROM (SELECT t, phraseto_tsquery('english', memlane_fts_text(t))::text AS q, n"
    " FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, n)) x ORDER BY x.n"
)
# The same, the first row also carrying a scope's entity names (``entity_names``' order)
# for the graph stage of the same search (``memlane.store.postgres.reads``).
_TERM_COUNTS_ENTITIES = _TERM_COUNTS.replace(
    " END FROM (SELECT t,",
    " END, CASE WHEN x.n = 1 THEN ARRAY(SELECT norm_name FROM entities WHERE scope = %s"
    " ORDER BY id) END FROM (SELECT t,", 1,
)


def _term_counts(db: Database, clean: Sequence[str], stats: TermStats | None,
                 cap: int, entities: tuple[str, dict[str, list[str]]] | None = None,
                 ) -> tuple[int, list[str], dict[str, int]]:
    """``(max item id, tsqueries in query order without repeats, capped counts)`` in one
    round trip.

    A term the statistics call common is not counted (its frequency is estimated from
    them; counting it visits up to ``cap`` rows, ~30 ms at 100k items). When every term
    was seen before, its remembered tsquery says which those are and only they travel;
    otherwise the statistics' whole list does (~12 kB as one text value, ~0.2 ms of
    server time). ``entities`` (a scope and a dict): the scope's entity names are put in
    the dict under the scope, read by the same statement.
    """
    hints = [_TSQUERY_HINTS.get(t) for t in clean]
    skip: list[str] | str
    if stats is None:
        skip = []
    elif all(q is not None for q in hints):
        common = stats.known()
        skip = [q for q in hints if q is not None and _lexeme(q) in common]
    else:
        skip = stats.common_tsqueries()
    # text arrays travel as one literal each (psycopg adapts a list element by element)
    if not isinstance(skip, str):
        skip = _array_literal(skip)
    terms = _array_literal(clean)
    if entities is None:
        rows = db.execute(_TERM_COUNTS, (skip, cap, terms)).fetchall()
    else:
        rows = db.execute(_TERM_COUNTS_ENTITIES, (skip, cap, entities[0], terms)).fetchall()
        if rows:
            entities[1][entities[0]] = list(rows[0][4])
    if len(_TSQUERY_HINTS) > _TSQUERY_HINTS_MAX:
        _TSQUERY_HINTS.clear()
    counts: dict[str, int] = {}
    for _n, t, q, df, *_ in rows:
        _TSQUERY_HINTS[t] = q
        if df is not None:
            counts[q] = int(df)
    queries = list(dict.fromkeys(r[2] for r in rows if r[2]))
    return (int(rows[0][0]) if rows else 0), queries, counts


def _array_literal(values: Sequence[str]) -> str:
    """A PostgreSQL array literal of ``values`` (every element quoted and escaped)."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


class TermStats:
    """Document frequencies of the commonest lexemes, from PostgreSQL's own statistics.

    ``ANALYZE`` (run by autovacuum) keeps, for the ``tsv`` column, the most common lexemes
    and the share of rows holding each (``pg_stats.most_common_elems``). Reading that is
    free, where counting a common term's matches costs a heap visit per match. Re-read
    at most once a minute.
    """

    def __init__(self, ttl: float = 60.0) -> None:
        self.ttl = ttl
        self._at = -ttl
        self._ever_read = False
        self._freq: dict[str, float] = {}
        self._rows = 0.0
        self._analyzed = False
        self._avgdl = 0.0
        self._avgdl_at = -ttl
        self._lock = threading.Lock()
        self._literal = "{}"
        self._literal_of: dict[str, float] | None = None

    def avgdl(self, db: Database) -> float:
        """Average document length (distinct lexemes) over the 2,000 newest items."""
        with self._lock:
            if time.monotonic() - self._avgdl_at >= self.ttl:
                row = db.execute(
                    "SELECT avg(length(tsv)) FROM (SELECT tsv FROM items ORDER BY id DESC"
                    " LIMIT 2000) s"
                ).fetchone()
                self._avgdl = float(row[0] or 0.0)
                self._avgdl_at = time.monotonic()
            return self._avgdl

    def _read(self, db: Database) -> tuple[Any, Any, Any]:
        row = db.execute(
            "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs,"
            " c.reltuples FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname ="
            " current_schema() AND s.tablename = 'items' AND s.attname = 'tsv'"
            " WHERE c.oid = 'items'::regclass"
        ).fetchone()
        return row if row else (None, None, 0.0)

    @property
    def read(self) -> bool:
        """Whether the statistics were read at least once."""
        return self._ever_read

    def known(self) -> Collection[str]:
        """The common lexemes as last read (no round trip; empty before the first read)."""
        return self._freq.keys()

    def common_tsqueries(self) -> str:
        """``known()`` as an array literal of their one-lexeme tsqueries (``'word'``)."""
        freq = self._freq
        if self._literal_of is not freq:
            self._literal = _array_literal(["'" + lex.replace("'", "''") + "'" for lex in freq])
            self._literal_of = freq
        return self._literal

    def get(self, db: Database, items: int) -> tuple[dict[str, float], float]:
        """``(lexeme -> share of rows, rows)``; ``items`` is the caller's size estimate.

        A table that grew past ANALYZE_ABOVE rows without statistics (autovacuum has
        not come round yet, e.g. right after a bulk index) is analysed here, once: the
        alternative is counting every common term's matches on every search.
        """
        with self._lock:
            if time.monotonic() - self._at >= self.ttl:
                elems, freqs, rows = self._read(db)
                if (elems is None and items > ANALYZE_ABOVE and not self._analyzed
                        and not db.in_transaction):
                    self._analyzed = True
                    db.execute("ANALYZE items, vectors")
                    elems, freqs, rows = self._read(db)
                self._freq = dict(zip(elems or [], freqs or [], strict=False))
                self._rows = float(rows or 0.0)
                self._at = time.monotonic()
                self._ever_read = True
            return self._freq, self._rows


def lexical_search(
    db: Database, terms: Sequence[str], where: str, params: list[Any], limit: int,
    stats: TermStats | None = None, entities: tuple[str, dict[str, list[str]]] | None = None,
) -> list[tuple[int, float]]:
    """BM25 over the generated ``tsv`` column: ``(item_id, score)``, higher is better.

    Terms are chosen as on SQLite (``memlane.store.sql.lexical``): rarest first while
    their matches add up to at most ``LEXICAL_POSTINGS``, or the rarest alone if every
    term is above it, unless that one is in most items. Document frequencies come from the
    table's statistics for common lexemes and from a capped count for the rest (rare
    by definition, so cheap to count).
    """
    clean = _clean_terms(terms)
    if not clean:
        return []
    cap = LEXICAL_POSTINGS
    if stats is not None and not stats.read:
        # the first search of this store reads the statistics before counting (as every
        # search once did), so its counts can skip the common terms too
        stats.get(db, db.execute("SELECT coalesce(max(id), 0) FROM items").fetchone()[0])
    n, queries, counts = _term_counts(db, clean, stats, cap + 1, entities)
    if not queries:
        return []
    freq, rows_estimate = stats.get(db, n) if stats is not None else ({}, 0.0)
    dfs: dict[str, int] = {}
    for q in queries:
        lexeme = _lexeme(q)
        if lexeme is not None and lexeme in freq:
            dfs[q] = max(1, round(freq[lexeme] * max(rows_estimate, 1.0)))
    counted = [q for q in queries if q not in dfs]
    dfs.update((q, counts[q]) for q in counted if q in counts)
    uncounted = [q for q in counted if q not in counts]  # skipped as common; no longer known so
    if uncounted:
        dfs.update(_counts(db, uncounted, cap + 1))
    present = [q for q in queries if dfs[q] > 0]  # a tsquery in no item matches nothing
    common = False
    if n <= cap:
        kept = present
    else:
        got = rarest_within([(dfs[q], q) for q in present], cap)
        if got is None:
            # Every term is common: the rarest by exact counts (a counted term was counted
            # only up to the cap), unless it is in most items: BM25's idf is then <= 0
            # (clamped to 1e-6), so ranking its every match (up to all items) would order
            # by length alone (measured at 100k items: these queries were the p95, 267 ms)
            recount = [q for q in present if q in counted]
            if recount:
                dfs.update(_counts(db, recount, n // 2 + 1))
            got = [q for q in sorted(present, key=lambda q: dfs[q])[:1] if dfs[q] <= n // 2]
            common = True
        kept = got
    if not kept:
        return []
    total = max(n, *(dfs[q] for q in kept))
    # FTS5's IDF, so scores have BM25's shape (the reranker uses them, not just ranks)
    idf = [max(1e-6, math.log((total - dfs[q] + 0.5) / (dfs[q] + 0.5))) for q in kept]
    # each query lexeme as a one-lexeme tsquery (its quoted text as the server printed it)
    lexemes, lexeme_idf = [], []
    for q, w in zip(kept, idf, strict=True):
        for lex in _QUOTED.findall(q):
            lexemes.append(lex)
            lexeme_idf.append(w)
    distinct = list(dict.fromkeys(lexemes))
    match = " | ".join(f"({q})" for q in kept)
    avgdl = stats.avgdl(db) if stats is not None else 0.0
    # The cheap tf-idf as one sum of terms, not a sub-query over unnest(): a sub-plan runs
    # once per matching row, and common terms match thousands (same value, same order).
    tf_idf = " + ".join(["%s::float8 * ts_rank('{0.1, 0.2, 0.6, 1.0}', i.tsv, %s::tsquery, 1)"] * len(kept))
    # Two steps: the matches are ordered by a cheap tf-idf (ts_rank per term, in C) and
    # the best few times ``limit`` are scored with BM25 (k1 = 1.2, b = 0.75) as FTS5
    # computes it: a term's frequency counts text positions ('A') 1.0 and key positions
    # ('B') 0.6; a document's length is its number of distinct lexemes.
    inv_avgdl = 1.0 / avgdl if avgdl > 0 else 1.0
    # The matches; of a query of common terms only, the newest COMMON_MATCHES that pass the
    # filter (as on SQLite: not every match of a term in up to half the items)
    source = f"(SELECT i.id, i.tsv FROM items i WHERE i.tsv @@ %s::tsquery AND {where}"
    if common:
        # The same rows either way; how to find them depends on the term's share of the
        # items. Walking the ids down and testing each row costs ~0.6 µs a row, about
        # COMMON_MATCHES * n / df rows; reading every match through the full-text index
        # (``id + 0`` keeps the planner off the id order) ~2 µs a match. Measured at 100k
        # items: a term in 7% of them 41 ms walking, 14 by the index; in 99%, 3 against
        # 140. The planner, trusting LIMIT, always walked.
        walk = dfs[kept[0]] ** 2 >= WALK_ABOVE * max(n, 1)
        source += f" ORDER BY i.id{'' if walk else ' + 0'} DESC LIMIT %s)"
    else:
        source += ")"
    limits = (COMMON_MATCHES,) if common else ()
    # Stage two's inputs only: each candidate's length and each query lexeme's frequency in
    # it, one row a candidate. ``ts_rank_cd`` of a one-lexeme tsquery without normalisation
    # is the sum of its positions' weights (each position is a cover of its own), so with
    # weights {D, C, B, A} = {0.6, 0.6, 0.6, 1.0} it is FTS5's term frequency (text 'A' 1.0,
    # keys 0.6) as a float4: a multiple of 0.2, restored exactly in ``_bm25``. It reads only
    # the query lexemes' positions (a binary search a lexeme); ``unnest(tsv)`` built every
    # lexeme's text, positions and weights arrays, ~7-14 µs a candidate, about half the
    # statement at 10k items (measured on 52,939 lexeme occurrences: the same frequencies).
    # BM25 is summed in Python: as SQL it was two sub-plans per (candidate, lexeme), ~55 µs
    # a candidate (measured at 100k items, 800 candidates: 41-77 ms of 81-117 ms).
    tfs = "".join(f", ts_rank_cd('{_TF_WEIGHTS}', c.tsv, %s::tsquery, 0)" for _ in distinct)
    rows = db.execute(
        f"WITH c AS (SELECT i.id, i.tsv FROM {source} i ORDER BY ({tf_idf}) DESC, i.id LIMIT %s)"
        f" SELECT c.id, length(c.tsv){tfs} FROM c",
        (match, *params, *limits, *(x for pair in zip(idf, kept, strict=True) for x in pair),
         max(4 * limit, 100), *("'" + lex + "'" for lex in distinct)),
    ).fetchall()
    return _bm25(rows, distinct, lexemes, lexeme_idf, inv_avgdl, limit)


# ``ts_rank_cd`` weights ({D, C, B, A}) whose unnormalised rank of a one-lexeme query is its
# term frequency as FTS5 counts it (see ``lexical_search``)
_TF_WEIGHTS = "{0.6, 0.6, 0.6, 1.0}"


def _bm25(rows: Sequence[Sequence[Any]], distinct: Sequence[str], lexemes: Sequence[str],
          lexeme_idf: Sequence[float], inv_avgdl: float, limit: int) -> list[tuple[int, float]]:
    """BM25 (k1 = 1.2, b = 0.75) as FTS5 computes it, best ``limit`` first (ties by id).

    ``rows`` are ``(id, distinct lexemes, tf of distinct[0], tf of distinct[1], ...)``, a
    row per candidate, each tf the sum of its positions' weights (text 'A' 1.0, key 0.6) as
    ``ts_rank_cd`` gives it in float4: ``(5a + 3b) / 5``, restored exactly. A document's
    length is its number of distinct lexemes. A lexeme listed twice in ``lexemes`` (two
    phrases share it) counts twice, each time with its phrase's idf.
    """
    col = {lex: 2 + i for i, lex in enumerate(distinct)}
    terms = [(col[lex], w) for lex, w in zip(lexemes, lexeme_idf, strict=True)]
    scored = []
    for row in rows:
        norm = 1.2 * (0.25 + 0.75 * inv_avgdl * row[1])
        s = 0.0
        for c, w in terms:
            tf = round(row[c] * 5) / 5
            s += w * tf * 2.2 / (tf + norm)
        scored.append((-s, row[0]))
    scored.sort()
    return [(item_id, -neg) for neg, item_id in scored[:limit]]


def index_name(model: str, dim: int) -> str:
    digest = hashlib.sha256(f"{model}\x00{dim}".encode()).hexdigest()[:16]
    return f"vectors_hnsw_{digest}_{dim}"


def ensure_hnsw(db: Database, model: str, dim: int) -> bool:
    """Create the HNSW cosine index for ``(model, dim)`` unless it exists; True if it does.

    A partial expression index over ``vec::vector(dim)`` for that model's rows: the column
    holds vectors of any width, which pgvector cannot index as a whole. Built in one pass
    over the rows already stored (``ensure_vector_index``, after a bulk load), under an
    advisory lock so concurrent writers create it once; ``maintenance_work_mem`` is raised
    for the build so the graph fits in memory (pgvector builds far slower once it does not).
    """
    if dim > HNSW_MAX_DIM:
        return False
    name = index_name(model, dim)
    if db.execute(
        "SELECT 1 FROM vector_indexes WHERE model = %s AND dim = %s", (model, dim)
    ).fetchone():
        return True  # the common case: no savepoint, no lock
    try:
        return _build_hnsw(db, model, dim, name)
    except StoreError as e:
        if not isinstance(e.__cause__, psycopg.errors.InsufficientPrivilege):
            raise
        why = e.__cause__.diag.message_primary or str(e)
    # a role that does not own ``vectors`` (an application role the owner granted reading
    # and writing): only the owner may CREATE INDEX. A copy or an index run failed here, at
    # its end, with everything it had done (session 26); searches scan exactly instead.
    role, _ = db.who()
    with _NOT_OWNER_LOCK:
        said = (db.url, name) in _NOT_OWNER
        _NOT_OWNER.add((db.url, name))
    if not said:
        log.warning(
            "%s: the HNSW index of %r (%d dimensions) is not built: the role %s may not create "
            "indexes on table vectors (%s); searches scan exactly until it is (the same hits, "
            "slower past %d vectors). Have the owner run ALTER TABLE vectors OWNER TO %s; "
            "(the next indexing run builds it)", db.url, model, dim, role, why, HNSW_ABOVE, role)
    return False


_NOT_OWNER: set[tuple[str, str]] = set()
"""(database, index) pairs whose graph this process found it may not build, said once."""
_NOT_OWNER_LOCK = threading.Lock()


def _build_hnsw(db: Database, model: str, dim: int, name: str) -> bool:
    """``ensure_hnsw``'s build: under the index's advisory lock, unless another process
    built it meanwhile."""
    with db.atomic():
        db.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_INDEX, name))
        if db.execute(
            "SELECT 1 FROM vector_indexes WHERE model = %s AND dim = %s", (model, dim)
        ).fetchone():
            return True
        db.execute("SET LOCAL maintenance_work_mem = '1GB'")
        db.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw"
                " ((vec::vector({dim})) vector_cosine_ops) WITH (m = {m}, ef_construction = {ef})"
                " WHERE model = {model} AND dim = {dim}"
            ).format(name=sql.Identifier(name), dim=sql.SQL(str(int(dim))), model=sql.Literal(model),
                     m=sql.Literal(HNSW_M), ef=sql.Literal(HNSW_EF_CONSTRUCTION))
        )
        db.execute(
            "INSERT INTO vector_indexes (model, dim, name) VALUES (%s, %s, %s)", (model, dim, name)
        )
    return True


_COSINE = "coalesce(nullif(1 - {d}, 'NaN'), 0)"
"""The cosine of a pgvector distance ``d``; 0 where it is NaN (a zero vector on either side)."""
_DISTANCE_ORDER = "coalesce(nullif({d}, 'NaN'), 1) + 0"
"""A distance as the cosine above orders it (``+ 0``: sorted again, see ``_approximate``)."""


def _exact(
    db: Database, model: str, q: Vector, dim: int, where: str, params: list[Any], limit: int,
    vectors: dict[int, Any] | None = None,
) -> list[tuple[int, float]]:
    # ``vec <=> q`` (no dimension cast) matches no HNSW index: an exact scan of the
    # filtered rows, with the same (distance, id) order as the indexed path. The filtered
    # ids are read first and the vectors fetched by key: as a join, the planner sometimes
    # scanned every vector of the table for a scope of a thousand (measured at 100k: a
    # scoped vector stage of p95 0.7-1 s in some runs, 20-60 ms in others).
    # The model is compared as ``model || ''`` so that no plan can take the (model, dim)
    # index and filter every vector of the model by id: without statistics (a fresh or
    # just-loaded table) the planner priced both ways at one row and took that one, 1.5 ms
    # of server time a search for a scope of 40 items in a 2,000-item store (0.2 by key).
    # A zero vector (an embedder's answer for text of no words it knows: "👍") has no
    # cosine in pgvector (NaN, sorted after every other); it is 0 here, as SQLite's dot
    # product gives, and ties with the other zeros by id.
    rows = db.execute(
        f"SELECT v.item_id, {_COSINE.format(d='(v.vec <=> %b::vector)')} AS s"
        f"{', v.vec' if vectors is not None else ''}"
        " FROM vectors v"
        f" WHERE v.item_id = ANY(ARRAY(SELECT i.id FROM items i WHERE {where}))"
        " AND v.model || '' = %s AND v.dim = %s"
        " ORDER BY s DESC, v.item_id LIMIT %s",
        (q, *params, model, dim, limit), binary=vectors is not None,
    ).fetchall()
    return _ranked(rows, vectors)


def _ranked(rows: Sequence[Any], vectors: dict[int, Any] | None) -> list[tuple[int, float]]:
    """``(item_id, cosine)`` of a vector statement's rows; with ``vectors``, the rows' third
    column (the vector in pgvector's binary format, see ``rows.vector_bytes``) is kept there
    by item id, undecoded until asked for."""
    if vectors is not None:
        for r in rows:
            vectors[r[0]] = r[2]
    return [(r[0], float(r[1])) for r in rows]


def _approximate(
    db: Database, model: str, q: Vector, dim: int, where: str, params: list[Any], limit: int,
    vectors: dict[int, Any] | None = None,
) -> list[tuple[int, float]]:
    # Model and dimension are literals so the planner can match the partial index;
    # relaxed_order iterative scans may return rows slightly out of order, hence the
    # materialised CTE sorted again: by ``d + 0``, as by ``d`` the planner took the CTE's
    # rows for sorted by ``d`` already (the index's order) and only sorted runs of equal
    # distances by id (an incremental sort), which left them out of order: the vector list
    # of 44 of 60 bench queries at 10k items was (a candidate a few places off its rank).
    query = sql.SQL(
        "WITH r AS MATERIALIZED ("
        " SELECT v.item_id, (v.vec::vector({dim})) <=> %b::vector({dim}) AS d{vec}"
        " FROM vectors v JOIN items i ON i.id = v.item_id"
        " WHERE v.model = {model} AND v.dim = {dim} AND {where}"
        " ORDER BY (v.vec::vector({dim})) <=> %b::vector({dim}) LIMIT %s)"
        " SELECT item_id, {cosine}{rvec} FROM r ORDER BY {order}, item_id"
    ).format(dim=sql.SQL(str(int(dim))), model=sql.Literal(model), where=sql.SQL(where),
             cosine=sql.SQL(_COSINE.format(d="d")), order=sql.SQL(_DISTANCE_ORDER.format(d="d")),
             vec=sql.SQL(", v.vec" if vectors is not None else ""),
             rvec=sql.SQL(", vec" if vectors is not None else ""))
    rows = db.execute(query, (q, *params, q, limit), binary=vectors is not None).fetchall()
    return _ranked(rows, vectors)


# The graph walk with its ranked items' columns (``_approximate_items``): the walk joins
# each candidate's items row for the filter anyway, so its columns come with it, where a
# second statement read the same 200 rows by key again (measured at 10k items, 100 bench
# queries alternating, load 6: wall p50 13.9 -> 11.5 ms, server CPU 6.2 -> 5.6 ms, client
# 1.4 -> 1.0 ms; at 100k 28.2 -> 23.2, 13.1 -> 10.4, 1.75 -> 1.2).
_ITEM_COLUMNS = ", ".join(f"i.{c} AS c_{c}" for c in ITEM_FIELDS)
_R_ITEM_COLUMNS = ", ".join(f"r.c_{c}" for c in ITEM_FIELDS)
_WALK_FACTS = (
    ", f AS (SELECT message_id, bool_and(status IS DISTINCT FROM 'current') AS gone FROM facts"
    " WHERE message_id = ANY(ARRAY(SELECT c_message_id FROM r WHERE c_message_id IS NOT NULL))"
    " GROUP BY message_id)"
)


def _approximate_items(
    db: Database, model: str, q: Vector, dim: int, where: str, params: list[Any], limit: int,
    item_rows: list[Sequence[Any]], facts: bool,
) -> list[tuple[int, float]]:
    """``_approximate``, each ranked item's row (``ITEM_FIELDS``; with ``facts`` then whether
    its message has facts and whether all of them are superseded) appended to ``item_rows``."""
    query = sql.SQL(
        "WITH r AS MATERIALIZED ("
        " SELECT v.item_id, (v.vec::vector({dim})) <=> %b::vector({dim}) AS d, {cols}"
        " FROM vectors v JOIN items i ON i.id = v.item_id"
        " WHERE v.model = {model} AND v.dim = {dim} AND {where}"
        " ORDER BY (v.vec::vector({dim})) <=> %b::vector({dim}) LIMIT %s){facts_cte}"
        " SELECT r.item_id, {cosine}, {rcols}{facts_cols} FROM r{facts_join} ORDER BY {order}, r.item_id"
    ).format(dim=sql.SQL(str(int(dim))), model=sql.Literal(model), where=sql.SQL(where),
             cosine=sql.SQL(_COSINE.format(d="r.d")), order=sql.SQL(_DISTANCE_ORDER.format(d="r.d")),
             cols=sql.SQL(_ITEM_COLUMNS), rcols=sql.SQL(_R_ITEM_COLUMNS),
             facts_cte=sql.SQL(_WALK_FACTS if facts else ""),
             facts_cols=sql.SQL(", r.c_message_id IS NOT NULL, coalesce(f.gone, false)" if facts else ""),
             facts_join=sql.SQL(" LEFT JOIN f ON f.message_id = r.c_message_id" if facts else ""))
    rows = db.execute(query, (q, *params, q, limit), binary=True).fetchall()
    item_rows.extend(r[2:] for r in rows)
    return [(r[0], float(r[1])) for r in rows]


def vector_search(
    db: Database,
    model: str,
    query: np.ndarray,
    where: str,
    params: list[Any],
    limit: int,
    *,
    scoped: bool,
    indexed: bool,
    small: bool = False,
    vectors: dict[int, Any] | None = None,
    item_rows: list[Sequence[Any]] | None = None,
    facts: bool = False,
) -> list[tuple[int, float]]:
    """Cosine search, best first, honouring the filter exactly; with ``vectors``, an exact
    scan's ranked items' vectors are put there too (``memlane.store.postgres.reads``; a
    graph walk's are not: see below). With ``item_rows``, a graph walk's ranked items'
    rows are appended there (``_approximate_items``; an exact scan's are not).

    Small filtered sets (a session; a scope after a capped count) are scanned exactly. Otherwise the HNSW
    index answers, with iterative scans so rejected candidates do not starve the result;
    if it still comes back short, an exact scan of the filtered rows decides.
    """
    dim = len(query)
    q = Vector(query)
    if not indexed or small:
        return _exact(db, model, q, dim, where, params, limit, vectors)
    if scoped:
        # items, not vectors, are counted (an index on the items alone; no join the
        # planner could turn into a scan of every vector): an upper bound, and a set
        # counted too large only takes the graph path, which falls back to exact if short
        n, most = db.execute(
            _EXACT_COUNT.format(where=where), (EXACT_BELOW, EXACT_MAX, EXACT_SHARE, *params),
        ).fetchone()
        if n <= most:
            return _exact(db, model, q, dim, where, params, limit, vectors)
    # The graph walk's rows come without their vectors: ~200 of 1 kB each cost the statement
    # 2-5 ms of wall time (the sort carries them, then the transfer) for the ~10 a search's
    # stage two asks of them (``item_vectors`` reads those by key, one statement).
    if item_rows is None:
        got = _approximate(db, model, q, dim, where, params, limit, None)
    else:
        rows: list[Sequence[Any]] = []
        got = _approximate_items(db, model, q, dim, where, params, limit, rows, facts)
        if len(got) >= limit:
            item_rows.extend(rows)
    if len(got) < limit:
        return _exact(db, model, q, dim, where, params, limit, vectors)
    return got


class PostgresSearch(SqlStore):
    """``lexical_search`` and ``lexical_and_vector_search`` on PostgreSQL (the store's part
    of this module)."""

    db: Database
    _term_stats: TermStats
    _pool_lock = threading.Lock()
    search_threads = SEARCH_THREADS
    """The helper threads (and connections) of this store's searches over every scope; 0:
    none, each list after the other on the caller's thread. ``memlane serve`` sets it from
    ``serve.db_connections`` (``memlane.serve.http.app.split_connections``)."""

    def _search_pool(self) -> ThreadPoolExecutor:
        """The store's helper threads for ``lexical_and_vector_search`` (made on first use;
        anew in a forked child, which inherits no threads)."""
        got = self.__dict__.get("_pool")
        if got is None or got[0] != os.getpid():
            with self._pool_lock:
                got = self.__dict__.get("_pool")
                if got is None or got[0] != os.getpid():
                    got = (os.getpid(), ThreadPoolExecutor(self.search_threads, thread_name_prefix="memlane-lexical"))
                    self.__dict__["_pool"] = got
        pool: ThreadPoolExecutor = got[1]
        return pool

    def close(self) -> None:
        got = self.__dict__.pop("_pool", None)
        if got is not None and got[0] == os.getpid():
            got[1].shutdown(wait=True)  # before their connections are closed
        super().close()

    def _overlap(self, model: str, dim: int, f: Filters) -> bool:
        """Whether a search runs its two lists at once (see SEARCH_THREADS): over all scopes
        of a store with the model's HNSW index. Within a scope both statements take a few
        milliseconds, less than what handing one to another thread costs on a busy machine
        (measured at 10k items, alternating query by query: scoped p50 19.8 ms one after
        the other, 23.1 at once)."""
        return (self.search_threads > 0 and f.scope is None and f.session_id is None
                and not self.db.in_transaction
                and bool(self._searchable_hnsw(model, dim)))  # type: ignore[attr-defined]

    def lexical_and_vector_search(self, terms: Sequence[str], model: str, query: np.ndarray, f: Filters,
                                  limit: int, *, timings: dict[str, float] | None = None,
                                  ) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        """``lexical_search`` and ``vector_search``, the lexical statements on a helper
        thread's connection while this thread runs the vector one (see SEARCH_THREADS).
        The same lists as one after the other: each is computed as alone. ``timings``
        gets each list's own milliseconds (they overlap)."""
        if limit <= 0 or len(query) == 0 or not _clean_terms(terms) or not self._overlap(model, len(query), f):
            return super().lexical_and_vector_search(terms, model, query, f, limit, timings=timings)
        where, params = self._where(f)
        reads = self._reads()  # this thread's block: read here, filled by the helper
        entities = None
        if reads is not None and f.scope is not None and f.scope not in reads.entities:
            entities = (f.scope, reads.entities)
        ahead = self._read_ahead(reads) if PREFETCH_ITEMS else None  # type: ignore[attr-defined]

        def lexical_timed() -> list[tuple[int, float]]:
            with self.db.judged_here():  # a lost connection is this helper's, told here
                t = time.perf_counter()
                got = lexical_search(self.db, terms, where, params, limit, self._term_stats,
                                     entities)
                if timings is not None:
                    timings["lexical_ms"] = (time.perf_counter() - t) * 1e3
                if ahead is not None:  # its items, on this thread's connection
                    ahead.read(i for i, _ in got)
                return got

        lexical = self._search_pool().submit(lexical_timed)
        t = time.perf_counter()
        try:
            rows: list[Sequence[Any]] | None = None if ahead is None else []
            vector = self._vector_search(  # type: ignore[attr-defined]
                model, query, f, limit, rows, ahead is not None and ahead.facts)
            if timings is not None:
                timings["vector_ms"] = (time.perf_counter() - t) * 1e3
            if ahead is not None:
                ahead.take(rows or [])  # the walk's items came with it
                ahead.read(i for i, _ in vector)  # any others (an exact scan's)
        except BaseException:
            lexical.exception()  # wait for it: its dict and connection are this search's
            raise
        got = lexical.result()
        if ahead is not None:
            ahead.done()
        return got, vector

    def lexical_search(self, terms: Sequence[str], f: Filters, limit: int) -> list[tuple[int, float]]:
        """Full-text search over item text and keys: ``(item_id, score)``, higher is better.

        The generated ``tsv`` column (english stemming, text 'A', keys 'B') with a GIN
        index; ranking is BM25-like (see ``lexical_search`` above). Any user text is a
        valid query.
        """
        if limit <= 0:
            return []
        where, params = self._where(f)
        reads = self._reads()  # within one search's reads, the scope's entity names come too
        entities = None
        if reads is not None and f.scope is not None and f.scope not in reads.entities:
            entities = (f.scope, reads.entities)
        return lexical_search(self.db, terms, where, params, limit, self._term_stats, entities)
