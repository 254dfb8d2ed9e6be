"""The SQLite implementation of memlane's store contract.

Every public method is backend-neutral in its signature; SQL stays in this package.
Times cross this boundary as UTC epoch seconds (floats).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memlane.errors import NotFoundError
from memlane.store.filters import Filters
from memlane.store.sqlite.db import Database, Tracer
from memlane.store.vector_index import VectorIndex
from memlane.types import Item, Message, Session

__all__ = ["SqliteStore"]

_ITEM_COLS = (
    "id, kind, text, at, scope, agent, project, session_id, message_id, seq, role, keywords, "
    "entities, source, durability, lane, trust, privacy, ttl_seconds, parents, children, status, "
    "dedupe_hash, extra"
)
_SESSION_COLS = (
    "id, scope, status, started_at, ended_at, message_count, participants, agent, project, "
    "closed_reason, failed_reason, summary_version, indexed_at"
)
_MESSAGE_COLS = "id, session_id, scope, role, text, at, seq, speaker, ext_id, agent, project, redactions"


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _session(r: Sequence[Any]) -> Session:
    return Session(
        id=r[0], scope=r[1], status=r[2], started_at=_dt(r[3]), ended_at=_dt(r[4]),
        message_count=r[5], participants=tuple(json.loads(r[6])), agent=r[7], project=r[8],
        closed_reason=r[9], failed_reason=r[10], summary_version=r[11], indexed=r[12] is not None,
    )


def _message(r: Sequence[Any]) -> Message:
    return Message(
        id=r[0], session_id=r[1], scope=r[2], role=r[3], text=r[4], at=_dt(r[5]), seq=r[6],
        speaker=r[7], ext_id=r[8], agent=r[9], project=r[10], redactions=r[11],
    )


def _item(r: Sequence[Any]) -> Item:
    return Item(
        id=r[0], kind=r[1], text=r[2], at=_dt(r[3]), scope=r[4], agent=r[5], project=r[6],
        session_id=r[7], message_id=r[8], seq=r[9], role=r[10],
        keywords=tuple(json.loads(r[11])), entities=tuple(json.loads(r[12])), source=r[13],
        durability=r[14], lane=r[15], trust=r[16], privacy=r[17], ttl_seconds=r[18],
        parents=tuple(json.loads(r[19])), children=tuple(json.loads(r[20])), status=r[21],
        dedupe_hash=r[22], extra=json.loads(r[23]),
    )


_FTS_TOKEN = re.compile(r"\w+", re.UNICODE)


def fts_query(terms: Sequence[str]) -> str | None:
    """An FTS5 MATCH expression OR-ing the terms, each as a quoted string.

    Quoting makes every term a literal (``AND``, ``NEAR``, ``*``, ``:``, parentheses lose
    their meaning); inner double quotes are doubled. ``None`` when nothing is searchable.
    """
    quoted = []
    for term in terms:
        # keep only characters the unicode61 tokenizer would index, so the phrase matches
        words = _FTS_TOKEN.findall(term.replace("\x00", " "))
        if words:
            quoted.append('"' + " ".join(words).replace('"', '""') + '"')
    return " OR ".join(quoted) if quoted else None


class SqliteStore:
    """Sessions, messages, items, their lexical and vector indexes, in one SQLite file."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, tracer: Tracer | None = None) -> None:
        self.db = Database(path, tracer=tracer)
        self.url = self.db.path
        self._indexes: dict[str, VectorIndex] = {}
        self._index_lock = threading.Lock()
        self._seen: dict[int, set[str]] = {}
        """Participants known per session, to skip a JSON update on the hot path."""

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
                " created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    r["kind"], r["text"], r.get("keys", ""), r["at"], r.get("scope"),
                    r.get("agent"), r.get("project"), r.get("session_id"), r.get("message_id"),
                    r.get("seq"), r.get("role"), json.dumps(list(r.get("keywords", ()))),
                    json.dumps(list(r.get("entities", ()))), r.get("source", "observed"),
                    r.get("durability", "long"), r.get("lane", "episodic"), r.get("trust", 1.0),
                    r.get("privacy", "private"), ttl, r["at"] + ttl if ttl else None,
                    json.dumps(list(r.get("parents", ()))), json.dumps(list(r.get("children", ()))),
                    r.get("status", "active"), r.get("dedupe_hash"),
                    json.dumps(r.get("extra", {})), now, now,
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

        Terms that occur in more than ``max(5% of items, 1000)`` documents are left out
        (the rarest term is always kept): ranking every match of a very common term is
        what makes FTS5 slow at scale (measured: 13 ms for a term in 14k of 100k
        documents, 0.4 ms for rare ones), and such terms carry little BM25 weight.
        """
        if limit <= 0:
            return []
        terms = self._prune_common(terms)
        match = fts_query(terms)
        if match is None:
            return []
        where, params = self._where(f)
        rows = self.db.execute(
            "SELECT i.id, -bm25(items_fts, 1.0, 0.6) AS s FROM items_fts"
            " JOIN items i ON i.id = items_fts.rowid"
            f" WHERE items_fts MATCH ? AND {where} ORDER BY s DESC LIMIT ?",
            (match, *params, limit),
        )
        return [(r[0], float(r[1])) for r in rows]

    def _prune_common(self, terms: Sequence[str]) -> list[str]:
        n = self.db.execute("SELECT max(id) FROM items").fetchone()[0] or 0
        cap = max(0.05 * n, 1000)
        if n <= cap:
            return list(terms)
        dfs = []
        for t in terms:
            words = _FTS_TOKEN.findall(t.lower())
            if len(words) != 1:
                dfs.append((0, t))  # phrases are rare by nature
                continue
            # The vocabulary holds porter stems; a word whose stem differs is not found
            # and so is kept, which costs time but never recall.
            df = self.db.execute(
                "SELECT coalesce(max(doc), 0) FROM items_fts_vocab WHERE term = ?", (words[0],)
            ).fetchone()[0]
            dfs.append((df, t))
        dfs.sort(key=lambda x: x[0])
        kept = [t for df, t in dfs if df <= cap]
        return kept or [t for _, t in dfs[:1]]

    # -- vectors ------------------------------------------------------------------------
    def put_vectors(self, model: str, pairs: Sequence[tuple[int, np.ndarray]]) -> None:
        """Store item vectors (call inside the item's transaction)."""
        self.db.executemany(
            "INSERT INTO vectors (item_id, model, dim, vec) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (item_id) DO UPDATE SET model = excluded.model, dim = excluded.dim,"
            " vec = excluded.vec",
            [(i, model, len(v), np.asarray(v, dtype=np.float32).tobytes()) for i, v in pairs],
        )

    def vector_count(self, model: str | None = None) -> int:
        if model is None:
            return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return self.db.execute("SELECT count(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def items_missing_vectors(self, model: str, limit: int) -> list[tuple[int, str]]:
        rows = self.db.execute(
            "SELECT i.id, i.text FROM items i LEFT JOIN vectors v ON v.item_id = i.id"
            " AND v.model = ? WHERE v.item_id IS NULL AND i.status = 'active' ORDER BY i.id LIMIT ?",
            (model, limit),
        )
        return [(r[0], r[1]) for r in rows]

    def _sync_index(self, model: str, dim: int) -> VectorIndex:
        """Bring the model's in-memory index up to the database's change log."""
        with self._index_lock:
            index = self._indexes.get(model)
            row = self.db.execute("SELECT min(seq), max(seq) FROM vector_log").fetchone()
            lo, hi = row[0] or 0, row[1] or 0
            if index is None or index.dim != dim or (index.synced_seq and index.synced_seq < lo - 1):
                index = VectorIndex(dim)  # missing or too stale: rebuild from the table
                rows = self.db.execute(
                    "SELECT item_id, vec FROM vectors WHERE model = ? AND dim = ?", (model, dim)
                )
                index.apply((r[0], np.frombuffer(r[1], dtype=np.float32)) for r in rows)
                index.synced_seq = hi
                self._indexes[model] = index
            elif hi > index.synced_seq:
                rows = self.db.execute(
                    "SELECT l.item_id, v.vec, v.model FROM"
                    " (SELECT DISTINCT item_id FROM vector_log WHERE seq > ? AND seq <= ?) l"
                    " LEFT JOIN vectors v ON v.item_id = l.item_id",
                    (index.synced_seq, hi),
                )
                index.apply(
                    (r[0], np.frombuffer(r[1], dtype=np.float32) if r[1] is not None and r[2] == model else None)
                    for r in rows
                )
                index.synced_seq = hi
            return index

    def vector_search(
        self, model: str, query: np.ndarray, f: Filters, limit: int
    ) -> list[tuple[int, float]]:
        """Exact cosine search: ``(item_id, cosine)``, best first, honouring filters."""
        if limit <= 0:
            return []
        index = self._sync_index(model, len(query))
        if len(index) == 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if f.scope is not None or f.session_id is not None:
            return index.search(query, limit, allowed=self.filter_ids(f))
        # Unscoped: overfetch, filter in SQL, fall back to an exact filtered pass if short.
        got = index.search(query, limit * 4)
        keep = self._allowed(f, [i for i, _ in got])
        out = [(i, s) for i, s in got if i in keep][:limit]
        if len(out) < limit and len(got) == limit * 4:
            return index.search(query, limit, allowed=self.filter_ids(f))
        return out

    def _allowed(self, f: Filters, ids: Sequence[int]) -> set[int]:
        where, params = self._where(f)
        out: set[int] = set()
        for chunk in _chunks(list(ids), 500):
            marks = ",".join("?" * len(chunk))
            out.update(
                r[0] for r in self.db.execute(
                    f"SELECT i.id FROM items i WHERE i.id IN ({marks}) AND {where}", (*chunk, *params)
                )
            )
        return out

    def prune_vector_log(self, keep: int = 100_000) -> int:
        cur = self.db.execute(
            "DELETE FROM vector_log WHERE seq <= (SELECT max(seq) FROM vector_log) - ?", (keep,)
        )
        return cur.rowcount

    # -- embedding cache ----------------------------------------------------------------
    def cached_vectors(self, model: str, hashes: Sequence[bytes]) -> dict[bytes, np.ndarray]:
        out: dict[bytes, np.ndarray] = {}
        for chunk in _chunks(list(hashes), 500):
            marks = ",".join("?" * len(chunk))
            for h, v in self.db.execute(
                f"SELECT hash, vec FROM embed_cache WHERE model = ? AND hash IN ({marks})",
                (model, *chunk),
            ):
                out[bytes(h)] = np.frombuffer(v, dtype=np.float32)
        return out

    def cache_vectors(self, model: str, pairs: Sequence[tuple[bytes, np.ndarray]]) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO embed_cache (model, hash, vec) VALUES (?, ?, ?)",
            [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in pairs],
        )

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


def _chunks(seq: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]
