"""PostgreSQL store: what sessions and messages need beyond the shared SQL
(``store.sql.sessions``).

Any number of processes may write one scope: ``open_session_for`` first takes the
scope's advisory lock, held to commit, so two writers never both open a session or take
the same ``seq``. ``append_message`` inserts the message and advances its session in one
round trip, updating participants with jsonb.

``add_message`` (the path of ``Memory.add_message``) is one round trip in all: the
``memlane_add_message`` function (migration 0007) takes the lock, finds, closes or opens
the session and appends the message in one statement, which an autocommit connection runs
as its own transaction (five round trips before: BEGIN, lock, session, insert, COMMIT).
``add_messages`` (a batch: ``Memory.add_messages``, imports) is one statement too
(``memlane_add_messages``, migration 0009), which updates each session once per batch.

Indexers that run side by side (``memlane worker`` processes) each embed a batch before
claiming it; ``sessions_to_index(reserve=True)`` hands each a different batch by taking a
session-level advisory lock per session (``LOCK_RESERVE``), held until that connection's
next reserving call or its end, so they split a backlog instead of all embedding the
oldest sessions and all but one throwing the work away. The claim (``indexed_at``) still
decides who indexes a session: a reservation only avoids wasted work.
"""

from __future__ import annotations

import threading
import time
from contextlib import nullcontext
from collections.abc import Iterable, Sequence

from memlane.store.contract import NewMessage
from memlane.store.postgres.db import LOCK_FACTS, LOCK_LINKS, LOCK_RESERVE, LOCK_SCOPE, Database
from memlane.store.rows import SESSION_COLS, session
from memlane.store.sql.sessions import SessionsMixin
from memlane.types import Session

__all__ = ["PostgresSessions"]


class PostgresSessions(SessionsMixin):
    """The scope lock and ``append_message`` on PostgreSQL."""

    db: Database

    _reserved: threading.local

    def sessions_to_index(self, limit: int = 100, *, reserve: bool = False,
                          exclude: Iterable[int] = (), scope: str | None = None) -> list[Session]:
        if not reserve:
            return super().sessions_to_index(limit, exclude=exclude, scope=scope)
        skip = sorted({int(i) for i in exclude})
        writing = set(skip)
        held = getattr(self._reserved, "ids", None) or []
        # the previous batch is done (claimed or dropped): others may take it; a batch the
        # caller is still writing (``exclude``) stays reserved until its next call. A
        # limit of 0 takes nothing and so lets go of every reservation.
        done = [i for i in held if i not in writing]
        if done:
            self.db.execute(
                "SELECT count(pg_advisory_unlock(%s, (id & 2147483647)::int)) FROM unnest(%s::bigint[]) AS u(id)",
                (LOCK_RESERVE, done))
        self._reserved.ids = still = [i for i in held if i in writing]
        rows = self.db.execute(
            f"SELECT {SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
            " AND id <> ALL(%s::bigint[]) AND (%s::text IS NULL OR scope = %s)"
            " ORDER BY id LIMIT %s", (skip, scope, scope, 4 * limit)).fetchall()
        if not rows:
            return []
        got = {int(r[0]) for r in self.db.execute(
            "SELECT id FROM unnest(%s::bigint[]) AS u(id)"
            " WHERE pg_try_advisory_lock(%s, (id & 2147483647)::int)",
            ([r[0] for r in rows], LOCK_RESERVE))}
        mine = [r for r in rows if r[0] in got][:limit]
        keep = {r[0] for r in mine}
        extra = [i for i in got if i not in keep]
        if extra:
            self.db.execute(
                "SELECT count(pg_advisory_unlock(%s, (id & 2147483647)::int)) FROM unnest(%s::bigint[]) AS u(id)",
                (LOCK_RESERVE, extra))
        self._reserved.ids = still + sorted(keep)
        return [session(r) for r in mine]

    def indexers_elsewhere(self) -> bool:
        """Whether another connection holds indexing reservations (an indexer in the middle
        of a batch): the last indexer of a backlog builds its HNSW index, not the first
        to run out of work while others still insert (``ensure_vector_index``)."""
        return self.db.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = %s::oid AND objsubid = 2 AND pid <> pg_backend_pid())",
            (LOCK_RESERVE,)).fetchone()[0]

    def _lock_scope(self, scope: str) -> None:
        self.db.xact_lock(LOCK_SCOPE, scope)

    def lock_links(self, scope: str | None) -> bool:
        self.db.xact_lock(LOCK_LINKS, scope or "")
        return True

    def add_message(self, scope: str, role: str, text: str, at: float, *, gap: float,
                    speaker: str | None, ext_id: str | None, agent: str | None,
                    project: str | None, redactions: int) -> tuple[int, int, int] | None:
        """``SessionsMixin.add_message`` in one statement (see the module's docstring)."""
        row = self.db.execute(
            "SELECT o_message, o_session, o_seq FROM memlane_add_message(%s, %s, %s, %s, %s, %s,"
            " %s, %s, %s, %s, %s)",
            (scope, role, text, at, gap, speaker, ext_id, agent, project, redactions, time.time()),
        ).fetchone()
        if row is None:
            return None
        return int(row[0]), int(row[1]), int(row[2])

    def add_messages(self, rows: Sequence[NewMessage], *, gap: float
                     ) -> list[tuple[int, int, int] | None]:
        """``SessionsMixin.add_messages`` in one statement (``memlane_add_messages``,
        migration 0009): one round trip for the batch, and one update of each session."""
        if not rows:
            return []
        if len({r.scope for r in rows}) == 1:
            return self._add_messages(rows, gap)
        # a batch of several scopes: its locks first, in the one order (docs/store.md). The
        # function takes each scope's lock at its first row, a late row's facts lock and the
        # rows of the sessions it may join, in the batch's order: batches of a and b and of
        # b and a, a late row of b then one of a beside hygiene (facts locks in scope order)
        # or an index claim (sessions in id order) each held one lock and waited for the
        # other: "deadlock detected" (session 27). So: every scope's lock and every facts
        # lock (``lock_scopes``, one statement), then (a statement of its own: its snapshot
        # sees what the writers it waited for committed) the open sessions and those within
        # the gap of a row (all a row may join, close or merge), in id order
        # (no savepoint inside a caller's transaction: ``Memory.add_messages`` opens one)
        with nullcontext() if self.db.in_transaction else self.db.atomic():
            self.lock_scopes(r.scope for r in rows)
            self.db.execute(
                "SELECT s.id FROM sessions s JOIN unnest(%s::text[], %s::float8[]) AS"
                " r(scope, at) ON s.scope = r.scope AND (s.status = 'open'"
                " OR (s.started_at <= r.at + %s AND s.ended_at >= r.at - %s))"
                " ORDER BY s.id FOR UPDATE OF s",
                ([r.scope for r in rows], [r.at for r in rows], gap, gap))
            return self._add_messages(rows, gap)

    def lock_scopes(self, scopes: Iterable[str], *, facts: bool = True) -> list[str]:
        """``SqlStore.lock_scopes`` in one statement."""
        names = sorted(set(scopes))
        if names and self.db.in_transaction:
            keys = [LOCK_SCOPE] * len(names) + ([LOCK_FACTS] * len(names) if facts else [])
            self.db.execute(  # in the order given: each scope's lock, then each facts lock
                "SELECT count(pg_advisory_xact_lock(k, hashtext(x))) FROM (SELECT k, x FROM"
                " unnest(%s::int[], %s::text[]) WITH ORDINALITY AS u(k, x, n) ORDER BY n) q",
                (keys, names + (names if facts else [])))
        return names

    def _add_messages(self, rows: Sequence[NewMessage], gap: float
                      ) -> list[tuple[int, int, int] | None]:
        cols = list(zip(*rows, strict=True))
        got = self.db.execute(
            "SELECT o_index, o_message, o_session, o_seq FROM memlane_add_messages(%s::text[],"
            " %s::text[], %s::text[], %s::float8[], %s, %s::text[], %s::text[], %s::text[],"
            " %s::text[], %s::int[], %s)",
            (list(cols[0]), list(cols[1]), list(cols[2]), list(cols[3]), gap, list(cols[4]),
             list(cols[5]), list(cols[6]), list(cols[7]), list(cols[8]), time.time()),
        ).fetchall()
        out: list[tuple[int, int, int] | None] = [None] * len(rows)
        for i, m, s, q in got:
            if m is not None:
                out[i] = (int(m), int(s), int(q))
        return out

    def append_message(self, session_id: int, scope: str, seq: int, role: str, text: str,
                       at: float, *, speaker: str | None, ext_id: str | None, agent: str | None,
                       project: str | None, redactions: int) -> int:
        """Insert a message and advance its session's counters and time range."""
        row = self.db.execute(
            "WITH m AS (INSERT INTO messages (session_id, scope, seq, role, speaker, text, at,"
            " ext_id, agent, project, redactions) VALUES (%(sid)s, %(scope)s, %(seq)s, %(role)s,"
            " %(speaker)s, %(text)s, %(at)s, %(ext_id)s, %(agent)s, %(project)s, %(red)s)"
            " RETURNING id),"
            " s AS (UPDATE sessions SET message_count = message_count + 1,"
            " started_at = least(started_at, %(at)s), ended_at = greatest(ended_at, %(at)s),"
            " participants = CASE WHEN participants::jsonb ? %(who)s THEN participants"
            " ELSE (participants::jsonb || jsonb_build_array(%(who)s::text))::text END"
            " WHERE id = %(sid)s)"
            " SELECT id FROM m",
            {"sid": session_id, "scope": scope, "seq": seq, "role": role, "speaker": speaker,
             "text": text, "at": at, "ext_id": ext_id, "agent": agent, "project": project,
             "red": redactions, "who": speaker or role},
        ).fetchone()
        return int(row[0])
