"""The SQLite implementation of memlane's store contract.

Every public method is backend-neutral in its signature; SQL stays in this package.
Times cross this boundary as UTC epoch seconds (floats). The class is assembled from one
module per concept: this one (sessions, the intelligence queue, messages, items, filters,
lexical search, counters), ``facts``, ``hygiene``, ``vectors``, ``transfer`` and ``changes``
(the live stream's change log).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memlane.errors import NotFoundError
from memlane.retrieve.text import split_words
from memlane.store.filters import Filters
from memlane.store.sqlite.browse import BrowseMixin
from memlane.store.sqlite.changes import ChangesMixin
from memlane.store.sqlite.db import Database, Tracer
from memlane.store.sqlite.facts import FactsMixin
from memlane.store.sqlite.hygiene import HygieneMixin
from memlane.store.sqlite.keys import KeysMixin
from memlane.store.sqlite.rows import (
    _ITEM_COLS,
    _MESSAGE_COLS,
    _SESSION_COLS,
    LEXICAL_POSTINGS,
    _chunks,
    _item,
    _message,
    _session,
    fts_query,
)
from memlane.store.sqlite.transfer import TransferMixin
from memlane.store.sqlite.vectors import VectorsMixin
from memlane.store.vector_index import VectorIndex
from memlane.types import Item, Message, Session

__all__ = ["LEXICAL_POSTINGS", "SqliteStore", "fts_query"]


def _narrow(f: Filters) -> bool:
    """Whether the filter may leave out most items (beyond status, privacy and scope)."""
    return (f.kinds is not None or f.lanes is not None or f.agent is not None
            or f.project is not None or f.session_id is not None or f.since is not None
            or f.until is not None)


class SqliteStore(FactsMixin, HygieneMixin, VectorsMixin, TransferMixin, ChangesMixin,
                  BrowseMixin, KeysMixin):
    """Sessions, messages, items, their lexical and vector indexes, in one SQLite file."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, tracer: Tracer | None = None) -> None:
        self.db = Database(path, tracer=tracer)
        self.url = self.db.path
        self._indexes: dict[str, VectorIndex] = {}
        self._index_lock = threading.Lock()
        self._seen: dict[int, set[str]] = {}
        """Participants known per session, to skip a JSON update on the hot path."""
        self._doc_counts = threading.local()
        """Per thread (connection): common words' document counts (see ``_doc_count``)."""

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """One transaction; nested calls become savepoints."""
        with self.db.atomic():
            yield

    def pending_migrations(self) -> list[str]:
        return self.db.pending()

    def applied_migrations(self) -> list[str]:
        return [name for name, _ in self.db.applied()]

    # -- sessions -----------------------------------------------------------------------
    def open_session_for(self, scope: str) -> tuple[int, float, int] | None:
        """``(id, ended_at, message_count)`` of the scope's open session, if any."""
        row = self.db.execute(
            "SELECT id, ended_at, message_count FROM sessions WHERE scope = ? AND status = 'open'",
            (scope,),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def _participants(self, session_id: int) -> list[str]:
        row = self.db.execute("SELECT participants FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return json.loads(row[0]) if row else []

    def create_session(self, scope: str, at: float, agent: str | None, project: str | None) -> int:
        cur = self.db.execute(
            "INSERT INTO sessions (scope, agent, project, status, started_at, ended_at, created_at)"
            " VALUES (?, ?, ?, 'open', ?, ?, ?)",
            (scope, agent, project, at, at, time.time()),
        )
        return int(cur.lastrowid)

    def close_session(self, session_id: int, reason: str) -> bool:
        cur = self.db.execute(
            "UPDATE sessions SET status = 'closed', closed_reason = ? WHERE id = ? AND status = 'open'",
            (reason, session_id),
        )
        return cur.rowcount == 1

    def idle_sessions(self, before: float) -> list[int]:
        """Open sessions whose last message is older than ``before``."""
        rows = self.db.execute(
            "SELECT id FROM sessions WHERE status = 'open' AND ended_at < ? ORDER BY id", (before,)
        )
        return [r[0] for r in rows]

    def get_session(self, session_id: int) -> Session:
        row = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id} does not exist")
        return _session(row)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Session]:
        ids = list(set(ids))
        out: dict[int, Session] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"SELECT {_SESSION_COLS} FROM sessions WHERE id IN ({marks})", chunk
            ):
                out[row[0]] = _session(row)
        return out

    def list_sessions(
        self, scope: str | None = None, status: str | None = None, limit: int = 100, offset: int = 0
    ) -> list[Session]:
        where, params = [], []
        if scope is not None:
            where.append("scope = ?")
            params.append(scope)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions {clause} ORDER BY started_at DESC, id DESC"
            " LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [_session(r) for r in rows]

    def sessions_to_index(self, limit: int = 100) -> list[Session]:
        """Closed sessions whose turns are not indexed yet, oldest first."""
        rows = self.db.execute(
            f"SELECT {_SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status != 'open'"
            " ORDER BY id LIMIT ?",
            (limit,),
        )
        return [_session(r) for r in rows]

    def claim_for_index(self, session_id: int) -> bool:
        """Mark a session indexed unless someone already did; True if this caller won."""
        cur = self.db.execute(
            "UPDATE sessions SET indexed_at = ? WHERE id = ? AND indexed_at IS NULL",
            (time.time(), session_id),
        )
        return cur.rowcount == 1

    # -- the session-intelligence queue -------------------------------------------------
    def claim_for_summary(self, now: float, lease_seconds: float, max_attempts: int,
                          due_before: float | None = None) -> Session | None:
        """Lease the next closed (or failed, due for retry) session that needs intelligence.

        The lease is taken in one statement, so concurrent workers never get the same
        session; a worker that dies leaves the lease to expire and the session returns.
        Only sessions due at ``due_before`` (default ``now``) are taken, so a run that
        started then never retries, within itself, a session it has just failed.
        """
        with self.atomic():
            row = self.db.execute(
                "UPDATE sessions SET lease_until = ?, attempts = attempts + 1 WHERE id = ("
                " SELECT id FROM sessions WHERE summarized_at IS NULL"
                " AND status IN ('closed', 'failed') AND attempts < ? AND next_attempt_at <= ?"
                " AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at, id LIMIT 1)"
                f" RETURNING {_SESSION_COLS}",
                (now + lease_seconds, max_attempts, now if due_before is None else due_before, now),
            ).fetchone()
        return _session(row) if row else None

    def finish_summary(self, session_id: int, *, version: int | None, model: str | None,
                       now: float, skipped: bool = False) -> None:
        """Mark intelligence done: ``summarized`` (or, when skipped as too small, left closed)."""
        self.db.execute(
            "UPDATE sessions SET status = CASE WHEN ? THEN 'closed' ELSE 'summarized' END,"
            " summary_version = ?, summary_model = ?, summarized_at = ?, lease_until = NULL,"
            " failed_reason = NULL WHERE id = ?",
            (skipped, version, model, now, session_id),
        )

    def fail_summary(self, session_id: int, reason: str, next_attempt_at: float) -> None:
        self.db.execute(
            "UPDATE sessions SET status = 'failed', failed_reason = ?, next_attempt_at = ?,"
            " lease_until = NULL WHERE id = ?",
            (reason[:2000], next_attempt_at, session_id),
        )

    def requeue_summaries(self, below_version: int) -> int:
        """Queue again every summarized session whose summary schema is older."""
        cur = self.db.execute(
            "UPDATE sessions SET summarized_at = NULL, attempts = 0, next_attempt_at = 0,"
            " status = 'closed' WHERE status = 'summarized' AND coalesce(summary_version, 0) < ?",
            (below_version,),
        )
        return cur.rowcount

    def summary_queue(self, now: float, max_attempts: int) -> dict[str, int]:
        """Counts of sessions waiting, leased, failed for good and done."""
        row = self.db.execute(
            "SELECT"
            " sum(summarized_at IS NULL AND status IN ('closed','failed') AND attempts < ?),"
            " sum(summarized_at IS NULL AND lease_until >= ?),"
            " sum(summarized_at IS NULL AND status = 'failed' AND attempts >= ?),"
            " sum(summarized_at IS NOT NULL) FROM sessions",
            (max_attempts, now, max_attempts),
        ).fetchone()
        return {"pending": row[0] or 0, "leased": row[1] or 0, "failed": row[2] or 0, "done": row[3] or 0}

    # -- messages -----------------------------------------------------------------------
    def append_message(
        self,
        session_id: int,
        scope: str,
        seq: int,
        role: str,
        text: str,
        at: float,
        *,
        speaker: str | None,
        ext_id: str | None,
        agent: str | None,
        project: str | None,
        redactions: int,
    ) -> int:
        """Insert a message and advance its session's counters and time range."""
        cur = self.db.execute(
            "INSERT INTO messages (session_id, scope, seq, role, speaker, text, at, ext_id, agent,"
            " project, redactions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, scope, seq, role, speaker, text, at, ext_id, agent, project, redactions),
        )
        who = speaker or role
        cached = self._seen.get(session_id)
        if cached is None:
            cached = self._seen[session_id] = set(self._participants(session_id))
            if len(self._seen) > 10_000:
                self._seen.clear()
        if who in cached:
            self.db.execute(
                "UPDATE sessions SET message_count = message_count + 1,"
                " started_at = min(started_at, ?), ended_at = max(ended_at, ?) WHERE id = ?",
                (at, at, session_id),
            )
        else:
            self.db.execute(
                "UPDATE sessions SET message_count = message_count + 1,"
                " started_at = min(started_at, ?), ended_at = max(ended_at, ?),"
                " participants = CASE WHEN EXISTS (SELECT 1 FROM json_each(participants)"
                " WHERE value = ?) THEN participants ELSE json_insert(participants, '$[#]', ?) END"
                " WHERE id = ?",
                (at, at, who, who, session_id),
            )
            cached.add(who)
        return int(cur.lastrowid)

    def message_by_ext_id(self, scope: str, ext_id: str) -> Message | None:
        row = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = ? AND ext_id = ?", (scope, ext_id)
        ).fetchone()
        return _message(row) if row else None

    def get_message(self, message_id: int) -> Message:
        row = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE id = ?", (message_id,)
        ).fetchone()
        if row is None:
            raise NotFoundError(f"message {message_id} does not exist")
        return _message(row)

    def session_messages(self, session_id: int) -> list[Message]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE session_id = ? ORDER BY seq", (session_id,)
        )
        return [_message(r) for r in rows]

    def recent_messages(self, scope: str, limit: int) -> list[Message]:
        rows = self.db.execute(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE scope = ? ORDER BY at DESC, id DESC LIMIT ?",
            (scope, limit),
        )
        return [_message(r) for r in reversed(rows.fetchall())]

    # -- items --------------------------------------------------------------------------
    def insert_items(self, rows: Sequence[dict[str, Any]]) -> list[int]:
        """Insert items (dicts of column values); returns their ids in order."""
        now = time.time()
        ids = []
        for r in rows:
            ttl = r.get("ttl_seconds")
            cur = self.db.execute(
                "INSERT INTO items (kind, text, keys, at, scope, agent, project, session_id,"
                " message_id, seq, role, keywords, entities, source, durability, lane, trust,"
                " privacy, ttl_seconds, expires_at, parents, children, status, dedupe_hash, extra,"
                " created_at, updated_at, pinned)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
                    r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
                    r.get("seq"), r.get("role"), json.dumps(list(r.get("keywords", ()))),
                    json.dumps(list(r.get("entities", ()))), r.get("source", "observed"),
                    r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
                    r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
                    json.dumps(list(r.get("parents", ()))), json.dumps(list(r.get("children", ()))),
                    r.get("status", "active"), r.get("dedupe_hash"),
                    json.dumps(r.get("extra", {})), now, now, int(bool(r.get("pinned", False))),
                ),
            )
            ids.append(int(cur.lastrowid))
        return ids

    def item_by_dedupe_hash(self, digest: str) -> int | None:
        row = self.db.execute("SELECT id FROM items WHERE dedupe_hash = ?", (digest,)).fetchone()
        return row[0] if row else None

    def get_item(self, item_id: int) -> Item:
        row = self.db.execute(f"SELECT {_ITEM_COLS} FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"item {item_id} does not exist")
        return _item(row)

    def get_items(self, ids: Iterable[int]) -> dict[int, Item]:
        ids = list(dict.fromkeys(ids))
        out: dict[int, Item] = {}
        for chunk in _chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"SELECT {_ITEM_COLS} FROM items WHERE id IN ({marks})", chunk
            ):
                out[row[0]] = _item(row)
        return out

    def delete_item(self, item_id: int) -> None:
        """Delete an item with its lexical and vector rows, in one transaction."""
        with self.atomic():
            cur = self.db.execute("DELETE FROM items WHERE id = ?", (item_id,))
            if cur.rowcount == 0:
                raise NotFoundError(f"item {item_id} does not exist")

    def session_items(self, session_id: int, kind: str | None = None) -> list[Item]:
        sql = f"SELECT {_ITEM_COLS} FROM items WHERE session_id = ?"
        params: list[Any] = [session_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        return [_item(r) for r in self.db.execute(sql + " ORDER BY seq, id", params)]

    # -- filters ------------------------------------------------------------------------
    @staticmethod
    def _where(f: Filters, alias: str = "i") -> tuple[str, list[Any]]:
        where = [f"{alias}.status = ?"]
        params: list[Any] = [f.status]
        for col, val in (("scope", f.scope), ("agent", f.agent), ("project", f.project),
                         ("session_id", f.session_id)):
            if val is not None:
                where.append(f"{alias}.{col} = ?")
                params.append(val)
        for col, vals in (("kind", f.kinds), ("lane", f.lanes), ("privacy", f.privacy)):
            if vals is not None:
                where.append(f"{alias}.{col} IN ({','.join('?' * len(vals))})")
                params.extend(vals)
        if f.since is not None:
            where.append(f"{alias}.at >= ?")
            params.append(f.since)
        if f.until is not None:
            where.append(f"{alias}.at <= ?")
            params.append(f.until)
        return " AND ".join(where), params

    def filter_ids(self, f: Filters) -> list[int]:
        where, params = self._where(f)
        return [r[0] for r in self.db.execute(f"SELECT i.id FROM items i WHERE {where}", params)]

    # -- lexical ------------------------------------------------------------------------
    def lexical_search(self, terms: Sequence[str], f: Filters, limit: int) -> list[tuple[int, float]]:
        """BM25 over item text and keys: ``(item_id, score)``, higher is better.

        A scoped search intersects with the scope inside FTS5 (the scope column has BM25
        weight 0), so only that scope's matches are ranked. Terms are taken rarest first
        until their postings reach ``LEXICAL_POSTINGS`` (the rarest is always kept):
        ranking every match of very common terms is what makes FTS5 slow at scale, and
        such terms carry little BM25 weight (measured on 100k items: every term p50 80 ms;
        with this cap 2-4 ms, p95 12-14 ms; with capped counts and the filter pool below,
        p50 2.1 / p95 5.5 ms). Ranking costs about 1 µs a posting, so a query whose rarest
        term is common (only "the", "for", "of"...) still takes 5-15 ms.
        """
        if limit <= 0:
            return []
        match = fts_query(self._prune_common(terms))
        if match is None:
            return []
        match = f"{{text keys}} : ({match})"
        if f.scope is not None and split_words(f.scope):
            match += ' AND scope : "' + f.scope.replace('"', '""').replace("\x00", "") + '"'
        where, params = self._where(f)
        if _narrow(f):
            return self._lexical_filtered(match, where, params, limit)
        # Most matches pass the usual filters (status, privacy, scope): rank in FTS5 alone,
        # then look up only the best ``pool`` items instead of every match's (measured on
        # 100k items: p95 9.7 -> 4.6 ms). Too few passing falls back to filtering every match.
        pool = limit + limit // 2 + 16
        rows = self.db.execute(
            f"SELECT r.id, r.s, {where} FROM (SELECT rowid AS id,"
            " -bm25(items_fts, 1.0, 0.6, 0.0) AS s FROM items_fts WHERE items_fts MATCH ?"
            " ORDER BY s DESC LIMIT ?) r JOIN items i ON i.id = r.id ORDER BY r.s DESC",
            (*params, match, pool),
        ).fetchall()
        out = [(r[0], float(r[1])) for r in rows if r[2]]
        if len(out) >= limit or len(rows) < pool:
            return out[:limit]
        return self._lexical_filtered(match, where, params, limit)

    def _lexical_filtered(self, match: str, where: str, params: list[Any], limit: int
                          ) -> list[tuple[int, float]]:
        """BM25 ranking of the matches that pass the filter, each match checked in SQL."""
        rows = self.db.execute(
            "SELECT i.id, -bm25(items_fts, 1.0, 0.6, 0.0) AS s FROM items_fts"
            " JOIN items i ON i.id = items_fts.rowid"
            f" WHERE items_fts MATCH ? AND {where} ORDER BY s DESC LIMIT ?",
            (match, *params, limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def _prune_common(self, terms: Sequence[str]) -> list[str]:
        n = self.db.execute("SELECT max(id) FROM items").fetchone()[0] or 0
        if n <= LEXICAL_POSTINGS:
            return list(terms)
        # Document counts are read from the postings and capped: a term with more than
        # LEXICAL_POSTINGS documents is only ever kept as the rarest, so it is first counted
        # up to that cap (measured on 100k items: 0.1 ms a term, where the fts5vocab count
        # of a common word took 4 ms).
        words = [split_words(t.lower()) for t in terms]
        dfs = [(self._doc_count(w[0], LEXICAL_POSTINGS + 1) if len(w) == 1 else 0, t)
               for w, t in zip(words, terms, strict=True)]  # phrases are rare by nature
        if dfs and min(df for df, _ in dfs) > LEXICAL_POSTINGS:
            # Every term is common: keep the rarest (the first of equals), unless it is in
            # most items (BM25 cannot rank by it: idf <= 0). Each term is counted only up to
            # the rarest count so far, which starts at half the items.
            rarest, least = [], n // 2 + 1
            for w, t in zip(words, terms, strict=True):
                df = self._doc_count(w[0], n // 2 + 1)
                if df < least:
                    rarest, least = [t], df
            return rarest
        dfs.sort(key=lambda x: x[0])
        kept, total = [], 0
        for df, t in dfs:
            if kept and total + df > LEXICAL_POSTINGS:
                break
            kept.append(t)
            total += df
        return kept

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

    # -- counters and stats -------------------------------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        self.db.execute(
            "INSERT INTO counters (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
            (name, n),
        )

    def counters(self) -> dict[str, int]:
        return dict(self.db.execute("SELECT name, value FROM counters ORDER BY name").fetchall())

    def stats(self) -> dict[str, Any]:
        q = self.db.execute
        sessions = dict(q("SELECT status, count(*) FROM sessions GROUP BY status").fetchall())
        kinds = dict(q("SELECT kind, count(*) FROM items GROUP BY kind").fetchall())
        return {
            "backend": self.backend,
            "db": self.url,
            "messages": q("SELECT count(*) FROM messages").fetchone()[0],
            "scopes": q("SELECT count(DISTINCT scope) FROM sessions").fetchone()[0],
            "sessions": sessions,
            "sessions_unindexed": q(
                "SELECT count(*) FROM sessions WHERE indexed_at IS NULL AND status != 'open'"
            ).fetchone()[0],
            "items": kinds,
            "vectors": dict(q("SELECT model, count(*) FROM vectors GROUP BY model").fetchall()),
            "embed_cache": q("SELECT count(*) FROM embed_cache").fetchone()[0],
            "counters": self.counters(),
            "migrations": self.applied_migrations(),
        }
