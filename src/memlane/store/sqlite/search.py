"""SQLite store: lexical search with FTS5 (BM25 over item text and keys).

PostgreSQL's counterpart is ``postgres.search`` (tsvector); the filters both use are the
shared ``SqlStore._where``.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Sequence
from typing import Any

from memlane.retrieve.text import split_words
from memlane.store.filters import Filters
from memlane.store.sql.base import SqlStore
from memlane.store.sql.lexical import COMMON_MATCHES, LEXICAL_POSTINGS, rarest_within
from memlane.store.sqlite.db import Database
from memlane.store.sqlite.rows import fts_query

__all__ = ["SqliteSearch", "scope_token"]


def _narrow(f: Filters) -> bool:
    """Whether the filter may leave out most items (beyond status, privacy and scope)."""
    return (f.kinds is not None or f.lanes is not None or f.agent is not None
            or f.project is not None or f.session_id is not None or f.since is not None
            or f.until is not None)


def scope_token(scope: str) -> str:
    """The scope as the lexical index holds it: one token (migration 0007)."""
    return "s" + scope.encode("utf-8", "surrogatepass").hex()


def _fts_where(fts: tuple[Any, ...]) -> str:
    return "items_fts MATCH ?" + (" AND items_fts.rowid >= ?" if len(fts) > 1 else "")


class SqliteSearch(SqlStore):
    """``lexical_search`` on SQLite."""

    db: Database
    _doc_counts: threading.local
    """Per thread (connection): common words' document counts (see ``_doc_count``)."""

    def lexical_search(self, terms: Sequence[str], f: Filters, limit: int) -> list[tuple[int, float]]:
        """BM25 over item text and keys: ``(item_id, score)``, higher is better, equal
        scores by id (as PostgreSQL's ``_bm25``: not FTS5's order of the postings).

        Terms are taken rarest first until their postings reach ``LEXICAL_POSTINGS`` (the
        rarest is always kept; ``memlane.store.sql.lexical``): ranking every match of very
        common terms is what makes FTS5 slow at scale, and such terms carry little BM25
        weight (measured on 100k items: every term p50 80 ms; with this cap 2-4 ms, p95
        12-14 ms; with capped counts and the filter pool below, p50 2.1 / p95 5.5 ms).
        Ranking costs about 1 µs a posting; a query whose terms are all common (only "the",
        "for", "of"...) ranks the newest ``COMMON_MATCHES`` matches of its rarest term
        (measured at 1M items: unscoped lexical p95 103-149 -> 32-41 ms).

        A scoped search intersects with the scope inside FTS5: the index holds each item's
        scope as one token (migration 0007) with BM25 weight 0, so only that scope's matches
        are ranked, and the intersection walks that scope's postings alone. With the scope's
        words instead, it walked the postings of words every scope shares ("conv" of
        "user-conv-7"): at 1M items in 100 scopes, lexical p50 42 ms scoped, against
        2.5-3.2 ms with the token (and 3.3-3.9 ms ranking the terms' matches and keeping the
        scope's by ``items.scope``).
        """
        if limit <= 0:
            return []
        # composed (NFC), as PostgreSQL's ``memlane_fts_text`` composes both sides (migration
        # 0014): FTS5 removes Latin diacritics however typed, but a Greek, Arabic or kana
        # word typed decomposed (NFD) did not find the same word stored composed. The term
        # as given is kept beside its composed form: a stored text no one composed (a CJK
        # compatibility ideograph, U+F900, composes to another code point, U+8C48) is still
        # found by its own words
        terms = list(dict.fromkeys(f for t in terms for f in (unicodedata.normalize("NFC", t), t)))
        kept, common = self._prune_common(terms)
        match = fts_query(kept)
        if match is None:
            return []
        match = f"{{text keys}} : ({match})"
        where, params = self._where(f)
        if f.scope is not None:
            match += f' AND scope : "{scope_token(f.scope)}"'
        # Every term is common: rank the newest COMMON_MATCHES matches of the rarest, not
        # all of them (up to half the items). Not within a scope: finding the floor would
        # walk the scope's postings once more, and a scope holds far fewer matches.
        fts: tuple[Any, ...] = (match,)
        if common and f.scope is None:
            row = self.db.execute(
                "SELECT rowid FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid DESC"
                " LIMIT 1 OFFSET ?", (match, COMMON_MATCHES - 1),
            ).fetchone()
            if row is not None:
                fts = (match, row[0])
        if _narrow(f):
            return self._lexical_filtered(fts, where, params, limit)
        # Most matches pass the usual filters (status, privacy, scope): rank in FTS5 alone,
        # then look up only the best ``pool`` items instead of every match's (measured on
        # 100k items: p95 9.7 -> 4.6 ms). Too few passing falls back to filtering every match.
        pool = limit + limit // 2 + 16
        rows = self.db.execute(
            f"SELECT r.id, r.s, {where} FROM (SELECT rowid AS id,"
            f" -bm25(items_fts, 1.0, 0.6, 0.0) AS s FROM items_fts WHERE {_fts_where(fts)}"
            " ORDER BY s DESC, rowid LIMIT ?) r JOIN items i ON i.id = r.id ORDER BY r.s DESC, r.id",
            (*params, *fts, pool),
        ).fetchall()
        out = [(r[0], float(r[1])) for r in rows if r[2]]
        if len(out) >= limit or len(rows) < pool:
            return out[:limit]
        return self._lexical_filtered(fts, where, params, limit)

    def _lexical_filtered(self, fts: tuple[Any, ...], where: str, params: list[Any], limit: int
                          ) -> list[tuple[int, float]]:
        """BM25 ranking of the matches that pass the filter, each match checked in SQL.

        ``fts`` is ``(match,)`` or ``(match, least rowid)``."""
        rows = self.db.execute(
            "SELECT i.id, -bm25(items_fts, 1.0, 0.6, 0.0) AS s FROM items_fts"
            " JOIN items i ON i.id = items_fts.rowid"
            f" WHERE {_fts_where(fts)} AND {where} ORDER BY s DESC, i.id LIMIT ?",
            (*fts, *params, limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def merge_lexical_index(self) -> None:
        """Merge the lexical index's segments into one (FTS5 ``optimize``), for a store
        loaded in bulk.

        FTS5 writes each transaction's postings as a new segment and merges them a few at a
        time (``automerge``), so a large store loaded in bulk keeps a dozen or more: a
        1M-item store built by ``memlane bench ingest --bulk`` had 13, and each term's
        postings were read from each one (the segment lookups of every search, the count of
        a common term's documents for its BM25 weight). In one segment the same postings
        give the same scores (the same documents, lengths and counts) in less time: at 1M
        items, a scoped lexical stage of common words only p50 2.6 -> 1.7 ms CPU
        (docs/scaling.md, eighth round). The merge rewrites the whole index (3.6 s at 1M
        items, in one transaction): a step after a bulk load, not after every write.
        """
        with self.db.atomic():
            self.db.execute("INSERT INTO items_fts (items_fts) VALUES ('optimize')")

    def _prune_common(self, terms: Sequence[str]) -> tuple[list[str], bool]:
        """The terms to rank by, and whether every term was above ``LEXICAL_POSTINGS``."""
        n = self.db.execute("SELECT max(id) FROM items").fetchone()[0] or 0
        if n <= LEXICAL_POSTINGS:
            return list(terms), False
        # Document counts are read from the postings and capped: a term with more than
        # LEXICAL_POSTINGS documents is only ever kept as the rarest, so it is first counted
        # up to that cap (measured on 100k items: 0.1 ms a term, where the fts5vocab count
        # of a common word took 4 ms).
        words = [split_words(t.lower()) for t in terms]
        dfs = [(self._doc_count(w[0], LEXICAL_POSTINGS + 1) if len(w) == 1 else 0, t)
               for w, t in zip(words, terms, strict=True)]  # phrases are rare by nature
        kept = rarest_within(dfs, LEXICAL_POSTINGS)
        if kept is not None or not dfs:
            return kept or [], False
        # Every term is common: keep the rarest (the first of equals), unless it is in
        # most items (BM25 cannot rank by it: idf <= 0). Each term is counted only up to
        # the rarest count so far, which starts at half the items.
        rarest, least = [], n // 2 + 1
        for w, t in zip(words, terms, strict=True):
            df = self._doc_count(w[0], n // 2 + 1)
            if df < least:
                rarest, least = [t], df
        return rarest, True

    def _doc_count(self, word: str, cap: int) -> int:
        """How many items hold ``word`` (in any column), counted up to ``cap``.

        FTS5 tokenizes (and stems) the word exactly as it did the documents. Counts above
        LEXICAL_POSTINGS (a few dozen common words) are remembered until the database
        changes: counting a word in most of 100k items reads 50k postings (4 ms), and a
        query of only common words needs every one of them counted that far.
        """
        match = fts_query([word])
        if match is None:
            return 0
        counts = self._common_counts()
        known = counts.get(word)
        if known is not None and (known[0] < known[1] or known[1] >= cap):
            return min(known[0], cap)  # exact, or known to reach this cap
        df = self.db.execute(
            "SELECT count(*) FROM (SELECT 1 FROM items_fts WHERE items_fts MATCH ? LIMIT ?)",
            (match, cap),
        ).fetchone()[0]
        if df > LEXICAL_POSTINGS:
            counts[word] = (df, cap)
        return df

    def _common_counts(self) -> dict[str, tuple[int, int]]:
        """This thread's remembered ``word -> (count, cap)``, emptied whenever the database
        may have changed: a commit by any other connection (``PRAGMA data_version``) or any
        row written by this one (``total_changes``)."""
        conn = self.db.conn
        token = (conn, self.db.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        local = self._doc_counts
        if getattr(local, "token", None) != token:
            local.token, local.counts = token, {}
        return local.counts
