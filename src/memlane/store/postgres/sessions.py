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
"""

from __future__ import annotations

import time

from memlane.store.postgres.db import LOCK_SCOPE, Database
from memlane.store.sql.sessions import SessionsMixin

__all__ = ["PostgresSessions"]


class PostgresSessions(SessionsMixin):
    """The scope lock and ``append_message`` on PostgreSQL."""

    db: Database

    def _lock_scope(self, scope: str) -> None:
        self.db.xact_lock(LOCK_SCOPE, scope)

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

    def append_message(self, session_id: int, scope: str, seq: int, role: str, text: str,
                       at: float, *, speaker: str | None, ext_id: str | None, agent: str | None,
                       project: str | None, redactions: int) -> int:
        """Insert a message and advance its session's counters and time range."""
        who = speaker or role
        cached = self._known_participants(session_id)
        participants = (
            "" if who in cached else
            ", participants = CASE WHEN participants::jsonb ? %(who)s THEN participants"
            " ELSE (participants::jsonb || jsonb_build_array(%(who)s::text))::text END"
        )
        row = self.db.execute(
            "WITH m AS (INSERT INTO messages (session_id, scope, seq, role, speaker, text, at,"
            " ext_id, agent, project, redactions) VALUES (%(sid)s, %(scope)s, %(seq)s, %(role)s,"
            " %(speaker)s, %(text)s, %(at)s, %(ext_id)s, %(agent)s, %(project)s, %(red)s)"
            " RETURNING id),"
            " s AS (UPDATE sessions SET message_count = message_count + 1,"
            " started_at = least(started_at, %(at)s), ended_at = greatest(ended_at, %(at)s)"
            f"{participants} WHERE id = %(sid)s)"
            " SELECT id FROM m",
            {"sid": session_id, "scope": scope, "seq": seq, "role": role, "speaker": speaker,
             "text": text, "at": at, "ext_id": ext_id, "agent": agent, "project": project,
             "red": redactions, "who": who},
        ).fetchone()
        cached.add(who)
        return int(row[0])
