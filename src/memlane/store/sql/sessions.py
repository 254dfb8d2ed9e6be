"""Sessions, messages and the session-intelligence queue: the SQL both backends share.

Each backend adds its own ``append_message`` (JSON functions differ) and, where writers
run side by side, the ``_lock_scope`` hook (PostgreSQL: a per-scope advisory lock).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from typing import Any

from memlane.errors import NotFoundError
from memlane.store.contract import NewMessage
from memlane.store.rows import MESSAGE_COLS, SESSION_COLS, dt, message, session
from memlane.store.sql.base import SqlStore
from memlane.types import Message, Session

__all__ = ["SessionsMixin"]


_REQUEUE_LATE = (
    "UPDATE sessions SET indexed_at = NULL, summarized_at = NULL, attempts = 0, deferrals = 0,"
    " next_attempt_at = CASE WHEN status = 'closed' AND summarized_at IS NULL"
    " AND next_attempt_at > 0 THEN next_attempt_at ELSE %s END, failed_reason = NULL,"
    " status = CASE WHEN status = 'open' THEN 'open' ELSE 'closed' END WHERE id = %s"
)
"""A closed session a late message joined is queued again, whatever its stage: its turns
are indexed anew (the indexer makes turns of the messages that have none) and its
intelligence written again (``store_intelligence`` replaces the old). ``next_attempt_at``
holds when the first late message of the burst arrived (kept by the later ones while the
session waits): the background worker summarizes it ``indexing.late_settle_seconds``
after that (``claim_for_summary``'s ``settle``), so that a burst costs one summary.
PostgreSQL's ``memlane_add_late`` (migrations 0015, 0016) runs the same update."""


def _in_scope(scope: str | None) -> tuple[str, tuple[str, ...]]:
    """The clause and parameter that keep a query to ``scope``; none for every scope."""
    return ("", ()) if scope is None else (" AND scope = %s", (scope,))


class SessionsMixin(SqlStore):
    """Sessions (per scope), their messages, and the queue of sessions awaiting intelligence."""

    # -- each backend's own -----------------------------------------------------------
    def append_message(self, session_id: int, scope: str, seq: int, role: str, text: str,
                       at: float, *, speaker: str | None, ext_id: str | None, agent: str | None,
                       project: str | None, redactions: int) -> int:
        """Insert a message and advance its session (the JSON functions differ)."""
        raise NotImplementedError

    def bump(self, name: str, n: int = 1) -> None:
        """Add ``n`` to a counter (PostgreSQL shards counters by connection)."""
        raise NotImplementedError

    # -- sessions -----------------------------------------------------------------------
    def open_session_for(self, scope: str) -> tuple[int, float, int] | None:
        """``(id, ended_at, message_count)`` of the scope's open session, if any.

        The scope's writers lock is taken first (``_lock_scope``): held to commit, it
        makes writers of one scope (any process) run one after another, so two of them
        never both open a session or take the same ``seq``.
        """
        self._lock_scope(scope)
        row = self._run(
            "SELECT id, ended_at, message_count FROM sessions WHERE scope = %s AND status = 'open'",
            (scope,),
        ).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def add_message(self, scope: str, role: str, text: str, at: float, *, gap: float,
                    speaker: str | None, ext_id: str | None, agent: str | None,
                    project: str | None, redactions: int) -> tuple[int, int, int] | None:
        """Store a message in the session its time belongs to, in one transaction:
        ``(message_id, session_id, seq)``, or None (nothing written) when the scope
        already holds a message with this ``ext_id``.

        The rule (both stores; PostgreSQL runs it in ``memlane_add_message``, migrations
        0015 and 0016): a message later than the open session's last one by more than
        ``gap`` seconds closes that session (reason ``gap``) and opens a new one; one no
        earlier than the open session's start less ``gap`` joins it. With no open session,
        a message no earlier than the end of the scope's newest session opens one. Any
        other message is *late*: see ``_late_session``. In its session a message takes its
        place in time order (``_place``): ``seq`` is the message's turn in time order, an
        earlier message delivered after later ones moving them down by one.
        """
        with self.db.atomic():
            self._lock_scope(scope)
            if ext_id is not None and self.message_by_ext_id(scope, ext_id) is not None:
                return None
            row = self._run(
                "SELECT id, started_at, ended_at, message_count FROM sessions"
                " WHERE scope = %s AND status = 'open'", (scope,)).fetchone()
            late = False
            bridge = False  # before the open session's start: it may meet the one before
            if row is not None and at - row[2] > gap:
                self.close_session(row[0], "gap")
                self.bump("sessions_closed")
                self.bump("sessions_closed_gap")
                row = None
            elif row is not None:
                late = at < row[1] - gap
                bridge = not late and at < row[1]
            else:
                newest = self._run(
                    "SELECT ended_at, closed_reason FROM sessions WHERE scope = %s"
                    " ORDER BY started_at DESC, id DESC LIMIT 1", (scope,)).fetchone()
                # within the gap after a session no one closed (the gap or idleness did):
                # it is that session's, as it would have been had it come before the close
                late = newest is not None and (at < newest[0] or (
                    at - newest[0] <= gap and newest[1] != "explicit"))
            joined = done = False
            if late:
                session_id, count, end, joined, done = self._late_session(scope, at, gap, agent,
                                                                          project)
                self.bump("messages_late")
            elif row is None:
                session_id, count, end = self.create_session(scope, at, agent, project), 0, at
                self.bump("sessions_opened")
            else:
                session_id, count, end = row[0], row[3], row[2]
            seq = self._place(session_id, count + 1, end, at)
            message_id = self.append_message(
                session_id, scope, seq, role, text, at, speaker=speaker, ext_id=ext_id,
                agent=agent, project=project, redactions=redactions)
            if joined:  # (each late message counted one before session 32)
                self._requeue_late(session_id, done)
            if (joined or bridge) and self._merge_near(scope, session_id, at, gap,
                                                       counted=joined and done):
                seq = int(self._run("SELECT seq FROM messages WHERE id = %s",
                                    (message_id,)).fetchone()[0])
            if redactions:
                self.bump("secrets_redacted", redactions)
        return message_id, session_id, seq

    def _requeue_late(self, session_id: int, done: bool) -> None:
        """Queue again the closed session a late message or an imported line joined
        (``_REQUEUE_LATE``), counting ``sessions_requeued_late`` when it had been indexed or
        summarized (``done``): once a session queued again, by the message that queued it
        (a session still waiting, one an import created closed included, is not requeued)."""
        self._run(_REQUEUE_LATE, (time.time(), session_id))
        if done:
            self.bump("sessions_requeued_late")

    def _late_session(self, scope: str, at: float, gap: float, agent: str | None,
                      project: str | None) -> tuple[int, int, float, bool, bool]:
        """The session a late message joins: ``(id, message_count, ended_at, joined, done)``,
        ``done`` when the joined session had been indexed or summarized (the message queues
        it again: ``sessions_requeued_late``).

        A late message (earlier than the open session's start less the gap, or, with no
        session open, earlier than the end of the scope's newest one) joins the closed
        session of its scope whose span, widened by the gap on each side, holds its time
        (the nearest; the newest of equals; ``joined``). That session's span stretches to
        it, and it is queued again (``add_message``): its turns indexed anew (only the new
        message becomes a turn) and its summary, facts and entities written again with the
        message in. When no session holds it, it opens a session of its own, closed at once
        (reason ``late``): it is in the past, and the scope's open session, if any, stays
        open."""
        holder = self._run(
            "SELECT id, message_count, ended_at, indexed_at IS NOT NULL OR summarized_at IS NOT"
            " NULL FROM sessions WHERE scope = %s AND status <> 'open'"
            " AND started_at <= %s AND ended_at >= %s"
            " ORDER BY CASE WHEN started_at > %s THEN started_at - %s"
            " WHEN ended_at < %s THEN %s - ended_at ELSE 0 END, id DESC LIMIT 1",
            (scope, at + gap, at - gap, at, at, at, at)).fetchone()
        if holder is not None:
            return holder[0], holder[1], holder[2], True, bool(holder[3])
        column, value = self._fresh_id("sessions")
        session_id = self._insert_id(
            f"INSERT INTO sessions ({column}scope, agent, project, status, closed_reason,"
            f" started_at, ended_at, created_at) VALUES ({value}%s, %s, %s, 'closed', 'late',"
            " %s, %s, %s)", (scope, agent, project, at, at, time.time()))
        self.bump("sessions_opened")
        self.bump("sessions_closed")
        self.bump("sessions_closed_late")
        return session_id, 0, at, False, False

    def _merge_near(self, scope: str, keep: int, at: float, gap: float, *,
                    counted: bool = False) -> bool:
        """A message at ``at`` just stored in ``keep`` that is also within the gap of another
        closed session of the scope joins the two: sessions are cut by a time gap, so the
        same messages give the same sessions whatever order they arrived in (session 24).
        The other's messages, turns and other items, facts, fact events and relations move
        to ``keep``, its messages take their places in time order (equal times by arrival),
        its row goes, and ``keep`` is queued again for turns (``rekey_turns``) and a summary
        (``store_intelligence`` replaces what both had). A session closed by someone
        (``close_session``, an import's label) is a boundary: never joined so. The scope's
        facts lock is taken before the other sessions' rows, as an erase takes them: a
        worker writing one of them holds it to commit (PostgreSQL deadlocked the two).
        A merge that queues again a session that had been indexed or summarized counts
        ``sessions_requeued_late`` once, unless the message counted it already (``counted``:
        ``keep`` was such a session): one count for the one session the message queued
        (session 33; none before when only the merged one had been indexed).
        PostgreSQL: ``memlane_merge_near``, migrations 0017, 0019 and 0028."""
        if math.isinf(gap) or self._run(  # an import's labelled lines: the label decides
                "SELECT closed_reason FROM sessions WHERE id = %s", (keep,)).fetchone()[0] == "explicit":
            return False
        near = [(int(r[0]), bool(r[1])) for r in self._run(
            "SELECT id, indexed_at IS NOT NULL OR summarized_at IS NOT NULL FROM sessions"
            " WHERE scope = %s AND id <> %s AND status <> 'open'"
            " AND coalesce(closed_reason, '') <> 'explicit' AND started_at <= %s"
            " AND ended_at >= %s ORDER BY id", (scope, keep, at + gap, at - gap))]
        others = [sid for sid, _ in near]
        if others:  # the order an erase locks in: a worker writing one of them holds it
            self._lock_scope_facts(scope)
        for other in others:
            top = int(self._run("SELECT coalesce(max(seq), 0) FROM messages WHERE session_id = %s",
                                (keep,)).fetchone()[0])
            self._run("UPDATE messages SET session_id = %s, seq = seq + %s WHERE session_id = %s",
                      (keep, top, other))
            for table in ("items", "facts", "fact_events", "relations"):
                self._run(f"UPDATE {table} SET session_id = %s WHERE session_id = %s",
                          (keep, other))
            (count, start, end, people), mine = [self._run(
                "SELECT message_count, started_at, ended_at, participants FROM sessions"
                " WHERE id = %s", (sid,)).fetchone() for sid in (other, keep)]
            both = list(dict.fromkeys([*json.loads(mine[3] or "[]"), *json.loads(people or "[]")]))
            self._run("DELETE FROM sessions WHERE id = %s", (other,))
            self._run(
                "UPDATE sessions SET message_count = message_count + %s, started_at = %s,"
                " ended_at = %s, participants = %s WHERE id = %s",
                (count, min(start, mine[1]), max(end, mine[2]),
                 json.dumps(both, ensure_ascii=False), keep))
            self.bump("sessions_merged")
        if not others:
            return False
        ids = [int(r[0]) for r in self._run(
            "SELECT id FROM messages WHERE session_id = %s ORDER BY at, id", (keep,))]
        self._run("UPDATE messages SET seq = -seq WHERE session_id = %s", (keep,))
        for n, mid in enumerate(ids, 1):
            self._run("UPDATE messages SET seq = %s WHERE id = %s", (n, mid))
        self._run("UPDATE items SET seq = (SELECT seq FROM messages WHERE id = items.message_id)"
                  " WHERE session_id = %s AND message_id IS NOT NULL", (keep,))
        self._run(_REQUEUE_LATE, (time.time(), keep))
        self._run("UPDATE sessions SET indexed_at = NULL WHERE id = %s", (keep,))
        if not counted and any(done for _, done in near):
            self.bump("sessions_requeued_late")
        return True

    def _place(self, session_id: int, next_seq: int, ended_at: float, at: float) -> int:
        """The ``seq`` a message at ``at`` takes in its session, which holds ``next_seq - 1``
        messages ending at ``ended_at``: after every message no later than it (so messages
        of one time keep their arrival order). When it is earlier than the session's last
        message, the later messages and their items move down by one to make room
        (PostgreSQL: ``memlane_place``, migration 0016)."""
        if at >= ended_at:
            return next_seq
        later = self._run("SELECT count(*) FROM messages WHERE session_id = %s AND at > %s",
                          (session_id, at)).fetchone()[0]
        seq = next_seq - int(later)
        if later:
            # (session_id, seq) is unique and checked row by row: through negatives
            self._run("UPDATE messages SET seq = -(seq + 1) WHERE session_id = %s AND seq >= %s",
                      (session_id, seq))
            self._run("UPDATE messages SET seq = -seq WHERE session_id = %s AND seq < 0",
                      (session_id,))
            self._run("UPDATE items SET seq = seq + 1 WHERE session_id = %s AND seq >= %s",
                      (session_id, seq))
        return seq

    def add_messages(self, rows: Sequence[NewMessage], *, gap: float
                     ) -> list[tuple[int, int, int] | None]:
        """``add_message`` for each row in order, in one transaction: one entry per row,
        None where the scope already holds the row's ``ext_id`` (that row is not stored,
        the others are; a caller that wants all or none rolls back). PostgreSQL stores the
        batch in one statement."""
        with self.db.atomic():
            return [
                self.add_message(r.scope, r.role, r.text, r.at, gap=gap, speaker=r.speaker,
                                 ext_id=r.ext_id, agent=r.agent, project=r.project,
                                 redactions=r.redactions)
                for r in rows
            ]

    def add_to_session(self, session_id: int, rows: Sequence[NewMessage]
                       ) -> list[tuple[int, int, int] | None]:
        """Store ``rows`` in the session ``session_id`` (of their scope) whatever their times,
        in one transaction: ``add_messages``'s entries. No gap cuts it and none is late; each
        message takes its place in time order (``_place``), and a session no longer open is
        queued again for turns and a summary, as a late message queues the one it joins. An
        import resuming a label whose session is not the scope's open one (its first line
        stored by an earlier, interrupted import) writes through it (session 25)."""
        out: list[tuple[int, int, int] | None] = []
        with self.db.atomic():
            for r in rows:
                self._lock_scope(r.scope)
                if r.ext_id is not None and self.message_by_ext_id(r.scope, r.ext_id) is not None:
                    out.append(None)
                    continue
                # the scope's facts lock, then the session's row, as a late message takes
                # them (PostgreSQL deadlocked without: an indexer writing the session's turns
                # holds its row, and the turns their messages, which ``_place`` renumbers; a
                # worker summarizing it again holds the facts lock and the items it deleted,
                # which ``_place`` renumbers too)
                self._lock_scope_facts(r.scope)
                count, end, status, done = self._run(
                    "SELECT message_count, ended_at, status, indexed_at IS NOT NULL OR"
                    " summarized_at IS NOT NULL FROM sessions WHERE id = %s"
                    f" AND scope = %s{self.FOR_UPDATE}", (session_id, r.scope)).fetchone()
                seq = self._place(session_id, count + 1, end, r.at)
                message_id = self.append_message(
                    session_id, r.scope, seq, r.role, r.text, r.at, speaker=r.speaker,
                    ext_id=r.ext_id, agent=r.agent, project=r.project, redactions=r.redactions)
                if status != "open":  # (each line counted one before session 31)
                    self._requeue_late(session_id, done)
                if r.redactions:
                    self.bump("secrets_redacted", r.redactions)
                out.append((message_id, session_id, seq))
        return out

    def create_session(self, scope: str, at: float, agent: str | None, project: str | None,
                       participants: tuple[str, ...] = (), closed: str | None = None) -> int:
        """An open session of ``scope`` at ``at``; ``participants`` lists its participants
        ahead of its messages, in that order (an import's session as exported: each message
        adds its speaker, or role, when it is not listed). ``closed``: a session closed at
        once for that reason, beside the scope's open one (an import's session older than
        the scope's live one, which keeps going)."""
        column, value = self._fresh_id("sessions")
        return self._insert_id(
            f"INSERT INTO sessions ({column}scope, agent, project, status, closed_reason,"
            f" started_at, ended_at, created_at, participants)"
            f" VALUES ({value}%s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (scope, agent, project, "open" if closed is None else "closed", closed, at, at,
             time.time(), json.dumps(list(participants), ensure_ascii=False)),
        )

    def close_session(self, session_id: int, reason: str) -> bool:
        cur = self._run(
            "UPDATE sessions SET status = 'closed', closed_reason = %s"
            " WHERE id = %s AND status = 'open'",
            (reason, session_id),
        )
        return cur.rowcount == 1

    def reopen_session(self, session_id: int, reason: str) -> bool:
        """Open again the session ``session_id``, closed for ``reason``, when its scope has
        no open session (True when it did). An import whose file a shorter copy was
        imported before (its end closed the file's last label there) resumes the label's
        session for the lines that follow the label, which one import of the whole file
        finds open until the label ends (the next label, the end of the file: its
        ``closed`` closes it again then; session 33). It is queued again as a late message
        queues the session it joins (``_requeue_late``: its turns and summary written anew
        with the new lines in, ``sessions_requeued_late`` once when it had been indexed or
        summarized). The scope's writers lock, then its facts lock, then the session's row,
        as ``add_to_session`` takes them. Counted as ``sessions_reopened`` and
        ``sessions_reopened_<reason>`` (session 34)."""
        row = self._run("SELECT scope FROM sessions WHERE id = %s", (session_id,)).fetchone()
        if row is None or self.open_session_for(row[0]) is not None:
            return False
        self._lock_scope_facts(row[0])
        found = self._run(
            "SELECT indexed_at IS NOT NULL OR summarized_at IS NOT NULL FROM sessions"
            f" WHERE id = %s AND status <> 'open' AND closed_reason = %s{self.FOR_UPDATE}",
            (session_id, reason)).fetchone()
        if found is None:
            return False
        self._requeue_late(session_id, bool(found[0]))
        self._run("UPDATE sessions SET status = 'open', closed_reason = NULL WHERE id = %s",
                  (session_id,))
        # counted, as its close was: the counters count events (a Prometheus counter never
        # goes down, so the close is not taken back), and its next close counts again;
        # sessions_closed less sessions_reopened is what one import of the whole file counts
        # (session 34: the close was counted twice, and nothing said it had been reopened)
        self.bump("sessions_reopened")
        self.bump(f"sessions_reopened_{reason}")
        return True

    def set_closed_reason(self, session_id: int, reason: str) -> bool:
        """Give a closed session another reason it ended (True when it changed): an import
        ending a label whose session something else closed meanwhile (an index run's idle
        close of the open session an interrupted import left) says how the file's session
        ended, as one whole import does (session 28)."""
        cur = self._run(
            "UPDATE sessions SET closed_reason = %s WHERE id = %s AND status <> 'open'"
            " AND coalesce(closed_reason, '') <> %s", (reason, session_id, reason))
        return cur.rowcount == 1

    def idle_sessions(self, before: float, scope: str | None = None) -> list[int]:
        """Open sessions (of ``scope``, else of every scope) whose last message is older
        than ``before``."""
        where, args = _in_scope(scope)
        rows = self._run(
            f"SELECT id FROM sessions WHERE status = 'open' AND ended_at < %s{where} ORDER BY id",
            (before, *args),
        )
        return [r[0] for r in rows]

    def get_session(self, session_id: int) -> Session:
        row = self._run(f"SELECT {SESSION_COLS} FROM sessions WHERE id = %s", (session_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"session {session_id} does not exist")
        return session(row)

    def get_sessions(self, ids: Iterable[int]) -> dict[int, Session]:
        out: dict[int, Session] = {}
        for cond, params in self._id_batches("id", list(set(ids))):
            for row in self._run(f"SELECT {SESSION_COLS} FROM sessions WHERE {cond}", params):
                out[row[0]] = session(row)
        return out

    def list_sessions(self, scope: str | None = None, status: str | None = None,
                      limit: int = 100, offset: int = 0,
                      after: tuple[float, int] | None = None,
                      before: tuple[float, int] | None = None) -> list[Session]:
        """Newest first; ``after``: the sessions after that key, ``before``: the ``limit``
        sessions just before it (a page back, read newest last and turned round)."""
        where: list[str] = []
        params: list[Any] = []
        if scope is not None:
            where.append("scope = %s")
            params.append(scope)
        if status is not None:
            where.append("status = %s")
            params.append(status)
        key, back = (before, True) if before is not None else (after, False)
        if key is not None:
            # the row's own start while it is the one the cursor was made from (a float
            # read back from a datetime may be a microsecond off the stored one); a row
            # that moved since (a late message stretched it back, an erased first turn
            # narrowed it) leaves the page where the cursor is: read on from the stored
            # start skipped or repeated the sessions between the two (it is listed again
            # at its new place if that is after the cursor)
            row = self._run("SELECT started_at FROM sessions WHERE id = %s",
                            (key[1],)).fetchone()
            same = row is not None and dt(row[0]).timestamp() == key[0]
            start = row[0] if same else key[0]
            cond, more = self._after((("started_at", not back), ("id", not back)), (start, key[1]))
            # the bound the condition implies, alone: a range of ``sessions_time`` (session
            # 35), which the condition's OR does not give a planner
            where += [f"started_at {'>=' if back else '<='} %s", cond]
            params += [start, *more]
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        order = "" if back else " DESC"
        rows = [session(r) for r in self._run(
            f"SELECT {SESSION_COLS} FROM sessions {clause} ORDER BY started_at{order}, id{order}"
            " LIMIT %s OFFSET %s",
            (*params, limit, offset),
        )]
        return rows[::-1] if back else rows

    def count_sessions(self, scope: str | None = None) -> int:
        """How many sessions ``list_sessions(scope)`` pages through, in one count (``memlane
        index --warm-meaning`` listed them all to size its bar; session 34, fix34b)."""
        if scope is None:
            return int(self._run("SELECT count(*) FROM sessions").fetchone()[0])
        return int(self._run("SELECT count(*) FROM sessions WHERE scope = %s",
                             (scope,)).fetchone()[0])

    def sessions_to_index(self, limit: int = 100, *, reserve: bool = False,
                          exclude: Iterable[int] = (), scope: str | None = None) -> list[Session]:
        """Closed sessions whose turns are not indexed yet, oldest first (where writers run
        side by side, sessions another indexer is claiming are skipped).

        ``reserve``: an indexer takes these to embed, so concurrent indexers should take
        others (PostgreSQL: until this connection's next reserving call, see
        ``PostgresSessions``; SQLite has one writer and ignores it). ``exclude``: sessions
        the caller already holds and is still writing (an indexer that prepares its next
        batch while the last one is written), never returned. ``scope``: that scope's only.
        """
        skip = sorted({int(i) for i in exclude})
        where, args = _in_scope(scope)
        rows = self._run(
            f"SELECT {SESSION_COLS} FROM sessions WHERE indexed_at IS NULL AND status <> 'open'"
            f"{self._not_in('id', skip)}{where} ORDER BY id LIMIT %s{self.SKIP_LOCKED}",
            (*skip, *args, limit),
        )
        return [session(r) for r in rows]

    @staticmethod
    def _not_in(column: str, ids: Sequence[int]) -> str:
        """`` AND column NOT IN (...)``, one placeholder an id (none when empty)."""
        return f" AND {column} NOT IN ({', '.join(['%s'] * len(ids))})" if ids else ""

    def claim_for_index(self, session_id: int) -> bool:
        """Mark a session indexed unless someone already did; True if this caller won.

        Exactly one transaction updates the row (SQLite has one writer; under PostgreSQL's
        READ COMMITTED a concurrent claimer waits for the row, then re-checks ``indexed_at``).
        """
        cur = self._run(
            "UPDATE sessions SET indexed_at = %s WHERE id = %s AND indexed_at IS NULL",
            (time.time(), session_id),
        )
        return cur.rowcount == 1

    def claim_sessions_for_index(self, session_ids: Iterable[int]) -> set[int]:
        """``claim_for_index`` for many sessions in one statement: the ids this caller won.

        Rows are locked in id order, so two indexers claiming overlapping batches wait for
        each other instead of deadlocking; the loser sees ``indexed_at`` set and skips.
        They are locked ``FOR NO KEY UPDATE``: an erase settling facts again checks the
        facts' keys (a key-share lock on their sessions' rows) while it holds the row of a
        session the claim waits for; with ``FOR UPDATE`` it waited for the claim, which
        waited for it: a deadlock (session 25, ``tests/index/test_claim_erase_order.py``).
        """
        won: set[int] = set()
        now = time.time()
        for cond, params in self._id_batches("id", sorted(set(session_ids))):
            rows = self._run(
                "UPDATE sessions SET indexed_at = %s WHERE id IN (SELECT id FROM sessions"
                f" WHERE {cond} AND indexed_at IS NULL ORDER BY id{self.FOR_NO_KEY_UPDATE})"
                " AND indexed_at IS NULL RETURNING id",
                (now, *params),
            ).fetchall()
            won.update(int(r[0]) for r in rows)
        return won

    def unclaim_for_index(self, session_ids: Iterable[int]) -> None:
        """Queue sessions for turn indexing again (a late message joined them after an
        indexer read their messages): the next pass makes turns of the messages that have
        none."""
        for cond, params in self._id_batches("id", sorted(set(session_ids))):
            self._run(f"UPDATE sessions SET indexed_at = NULL WHERE {cond}", params)

    def rekey_turns(self, session_ids: Iterable[int]) -> int:
        """The lexical keys of the sessions' turns computed again from their messages as
        stored (``index.indexer.turn_keys``: a short turn carries the previous message's
        words), where they changed: after a message left a session (an erase) or took its
        place between two of its turns (a late message, session 24). How many changed."""
        from memlane.index.indexer import turn_keys

        changed = 0
        for sid, msgs in self.sessions_messages(session_ids).items():
            keys = turn_keys(msgs)
            for iid, mid, had in self._run(
                    "SELECT id, message_id, keys FROM items WHERE session_id = %s"
                    " AND kind = 'turn' AND message_id IS NOT NULL", (sid,)).fetchall():
                if mid in keys and keys[mid] != had:
                    self._run("UPDATE items SET keys = %s WHERE id = %s", (keys[mid], iid))
                    changed += 1
        return changed

    # -- the session-intelligence queue -------------------------------------------------
    def claim_for_summary(self, now: float, lease_seconds: float, max_attempts: int,
                          due_before: float | None = None, scope: str | None = None,
                          settle: float = 0.0) -> Session | None:
        """Lease the next closed (or failed, due for retry) session that needs intelligence
        and whose turns are indexed (of ``scope``, else of any scope).

        The lease is taken in one statement, so concurrent workers never get the same
        session; a worker that dies leaves the lease to expire and the session returns.
        Only sessions due at ``due_before`` (default ``now``) are taken, so a run that
        started then never retries, within itself, a session it has just failed. A session
        closed after the indexer's pass waits for the next one: summarized before its
        turns exist, its facts and observations had no turn to point at (``parents``), and
        never got one. ``settle``: a closed session that late messages queued again is
        taken that many seconds after the first of them arrived (its ``next_attempt_at``;
        a failed one's is when it is due), so that a burst of them costs one summary (the
        background worker passes ``indexing.late_settle_seconds``; an explicit index 0).
        """
        where, args = _in_scope(scope)
        with self.db.atomic():
            row = self._run(
                # a closed session's next_attempt_at goes back to 0: a late message joining it
                # while it is summarized starts a new burst (``_REQUEUE_LATE``)
                "UPDATE sessions SET lease_until = %s, attempts = attempts + 1, next_attempt_at ="
                " CASE WHEN status = 'closed' THEN 0 ELSE next_attempt_at END WHERE id = ("
                " SELECT id FROM sessions WHERE summarized_at IS NULL AND indexed_at IS NOT NULL"
                " AND status IN ('closed', 'failed') AND attempts < %s AND next_attempt_at <= %s"
                " AND (status = 'failed' OR next_attempt_at = 0 OR next_attempt_at <= %s)"
                f" AND (lease_until IS NULL OR lease_until < %s){where}"
                f" ORDER BY next_attempt_at, id LIMIT 1{self.SKIP_LOCKED}) RETURNING {SESSION_COLS}",
                (now + lease_seconds, max_attempts, now if due_before is None else due_before,
                 (now if due_before is None else due_before) - settle, now, *args),
            ).fetchone()
        return session(row) if row else None

    def finish_summary(self, session_id: int, *, version: int | None, model: str | None,
                       now: float, skipped: bool = False, messages: int | None = None) -> bool:
        """Mark intelligence done: ``summarized`` (or, when skipped as too small, left
        closed). ``messages``: how many messages the intelligence read; when the session
        holds more by now (a late message joined it while it was summarized), it is not
        marked done but queued again (False), so that its summary is written again with
        the message in."""
        cur = self._run(
            "UPDATE sessions SET status = CASE WHEN %s THEN 'closed' ELSE 'summarized' END,"
            " summary_version = %s, summary_model = %s, summarized_at = %s, lease_until = NULL,"
            " failed_reason = NULL WHERE id = %s"
            + ("" if messages is None else " AND message_count = %s"),
            (skipped, version, model, now, session_id,
             *(() if messages is None else (messages,))),
        )
        if cur.rowcount == 1 or messages is None:
            return True
        # the late message that joined it set when it is due (``_REQUEUE_LATE``)
        self._run(
            "UPDATE sessions SET status = CASE WHEN status = 'open' THEN 'open' ELSE 'closed' END,"
            " summarized_at = NULL, lease_until = NULL WHERE id = %s",
            (session_id,))
        return False

    def fail_summary(self, session_id: int, reason: str, next_attempt_at: float, *,
                     count_attempt: bool = True) -> None:
        """Record a failed attempt; ``count_attempt=False`` gives the claim's attempt back
        (the failure was the model endpoint's, not the session's: it does not use up
        ``max_attempts``) and counts it in ``deferrals``."""
        self._run(
            "UPDATE sessions SET status = 'failed', failed_reason = %s, next_attempt_at = %s,"
            " lease_until = NULL"
            + ("" if count_attempt else ", attempts = CASE WHEN attempts > 0 THEN attempts - 1"
               " ELSE 0 END, deferrals = deferrals + 1")
            + " WHERE id = %s",
            (reason[:2000], next_attempt_at, session_id),
        )

    def count_given_back(self, session_id: int, reason: str, next_attempt_at: float) -> bool:
        """Count after all an attempt ``fail_summary(count_attempt=False)`` gave back (the
        endpoint answered the next session: the failure was this session's own). False,
        and nothing changed, when the session was claimed or written since."""
        cur = self._run(
            "UPDATE sessions SET attempts = attempts + 1, deferrals = CASE WHEN deferrals > 0"
            " THEN deferrals - 1 ELSE 0 END, failed_reason = %s, next_attempt_at = %s"
            " WHERE id = %s AND status = 'failed' AND summarized_at IS NULL"
            " AND lease_until IS NULL",
            (reason[:2000], next_attempt_at, session_id),
        )
        return cur.rowcount == 1

    def release_summary(self, session_id: int | None, lease_until: float) -> bool:
        """Give back a claim a stopped run did not finish (Ctrl-C, SIGTERM, a failed run):
        the lease ends now and the claim's attempt is not counted, so the next run takes
        the session at once, not ``lease_seconds`` later. ``lease_until``: the lease the
        claim took; nothing changes (False) when the session holds another by now (it ran
        out and another worker claimed it) or none (written, failed or given back).
        ``session_id`` None: whichever session holds that lease, for a claim the stop
        interrupted before its answer was read (committed, its session not known yet:
        the lease, ``now + lease_seconds`` of the run's clock, names it)."""
        cur = self._run(
            "UPDATE sessions SET lease_until = NULL,"
            " attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"
            " WHERE lease_until = %s AND summarized_at IS NULL"
            + ("" if session_id is None else " AND id = %s"),
            (lease_until, *(() if session_id is None else (session_id,))),
        )
        return cur.rowcount >= 1

    def requeue_summaries(self, below_version: int, scope: str | None = None) -> int:
        """Queue again every summarized session (of ``scope``) whose summary schema is older."""
        where, args = _in_scope(scope)
        cur = self._run(
            "UPDATE sessions SET summarized_at = NULL, attempts = 0, deferrals = 0, next_attempt_at = 0,"
            f" status = 'closed' WHERE status = 'summarized' AND coalesce(summary_version, 0) < %s{where}",
            (below_version, *args),
        )
        return cur.rowcount

    def fail_abandoned(self, now: float, max_attempts: int, reason: str,
                       scope: str | None = None) -> list[int]:
        """Mark failed the sessions (of ``scope``) whose every attempt ended with the worker
        gone (killed or crashed mid-summary: no failure was recorded, the last lease expired)."""
        where, args = _in_scope(scope)
        rows = self._run(
            "UPDATE sessions SET status = 'failed', failed_reason = %s, lease_until = NULL"
            " WHERE summarized_at IS NULL AND status = 'closed' AND attempts >= %s"
            f" AND lease_until IS NOT NULL AND lease_until < %s{where} RETURNING id",
            (reason[:2000], max_attempts, now, *args),
        ).fetchall()
        return [int(r[0]) for r in rows]

    def summary_queue(self, now: float, max_attempts: int) -> dict[str, Any]:
        """Counts of sessions waiting, leased, failed for good and done, and when the last
        live lease ends (``leased_until``, None when nothing is leased)."""
        row = self._run(
            "SELECT"
            " count(*) FILTER (WHERE summarized_at IS NULL AND status IN ('closed', 'failed')"
            "  AND attempts < %s),"
            " count(*) FILTER (WHERE summarized_at IS NULL AND lease_until >= %s),"
            " count(*) FILTER (WHERE summarized_at IS NULL AND status = 'failed'"
            "  AND attempts >= %s),"
            " count(*) FILTER (WHERE summarized_at IS NOT NULL),"
            " max(lease_until) FILTER (WHERE summarized_at IS NULL AND lease_until >= %s)"
            " FROM sessions",
            (max_attempts, now, max_attempts, now),
        ).fetchone()
        return {"pending": row[0], "leased": row[1], "failed": row[2], "done": row[3],
                "leased_until": row[4]}

    # -- messages -----------------------------------------------------------------------
    def message_by_ext_id(self, scope: str, ext_id: str) -> Message | None:
        row = self._run(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE scope = %s AND ext_id = %s", (scope, ext_id)
        ).fetchone()
        return message(row) if row else None

    def messages_by_ext_ids(self, scope: str, ext_ids: Iterable[str]) -> dict[str, Message]:
        """``message_by_ext_id`` for many ids of one scope, in one statement per 500: the
        ids ``scope`` holds, each with its message. An import read each line's stored
        message again after the store's own check found it (session 36)."""
        wanted = list(dict.fromkeys(ext_ids))
        out: dict[str, Message] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            for row in self._run(
                    f"SELECT {MESSAGE_COLS} FROM messages WHERE scope = %s AND ext_id IN"
                    f" ({', '.join(['%s'] * len(chunk))})", (scope, *chunk)).fetchall():
                got = message(row)
                if got.ext_id is not None:
                    out[got.ext_id] = got
        return out

    def first_stored(self, scope: str, ext_ids: Sequence[str]) -> str | None:
        """The first of ``ext_ids`` that a message of ``scope`` holds (None: none does), in
        one statement per 500 ids: an import finds where a label it resumes is stored."""
        held: set[str] = set()
        for start in range(0, len(ext_ids), 500):
            chunk = list(ext_ids[start:start + 500])
            held.update(r[0] for r in self._run(
                f"SELECT ext_id FROM messages WHERE scope = %s AND ext_id IN"
                f" ({', '.join(['%s'] * len(chunk))})", (scope, *chunk)))
        return next((i for i in ext_ids if i in held), None)

    def opener(self, session_id: int) -> str | None:
        """The ``ext_id`` of the session's first stored message, the one that opened it
        (None: it has none, or the session holds no message): an import tells a session
        an earlier import of the same file started from the one a user is in."""
        row = self._run("SELECT ext_id FROM messages WHERE session_id = %s ORDER BY id LIMIT 1",
                        (session_id,)).fetchone()
        return None if row is None else row[0]

    def get_message(self, message_id: int) -> Message:
        row = self._run(f"SELECT {MESSAGE_COLS} FROM messages WHERE id = %s", (message_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"message {message_id} does not exist")
        return message(row)

    def session_messages(self, session_id: int) -> list[Message]:
        rows = self._run(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE session_id = %s ORDER BY seq", (session_id,)
        )
        return [message(r) for r in rows]

    def sessions_messages(self, session_ids: Iterable[int]) -> dict[int, list[Message]]:
        """``session_messages`` of many sessions in one query (per 500 ids on SQLite):
        every given id is a key, its messages in ``seq`` order."""
        ids = list(dict.fromkeys(session_ids))
        out: dict[int, list[Message]] = {i: [] for i in ids}
        for cond, params in self._id_batches("session_id", ids):
            for r in self._run(
                f"SELECT {MESSAGE_COLS} FROM messages WHERE {cond} ORDER BY session_id, seq", params
            ):
                m = message(r)
                out[m.session_id].append(m)
        return out

    def recent_messages(self, scope: str, limit: int) -> list[Message]:
        rows = self._run(
            f"SELECT {MESSAGE_COLS} FROM messages WHERE scope = %s ORDER BY at DESC, id DESC LIMIT %s",
            (scope, limit),
        ).fetchall()
        return [message(r) for r in reversed(rows)]
