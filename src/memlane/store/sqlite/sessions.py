"""SQLite store: what sessions and messages need beyond the shared SQL (``store.sql.sessions``).

SQLite has one writer at a time, so opening a scope's session needs no lock; appending a
message updates the session's participants with SQLite's JSON functions.
"""

from __future__ import annotations

from memlane.store.sql.sessions import SessionsMixin

__all__ = ["SqliteSessions"]


class SqliteSessions(SessionsMixin):
    """``append_message`` on SQLite."""

    def append_message(self, session_id: int, scope: str, seq: int, role: str, text: str,
                       at: float, *, speaker: str | None, ext_id: str | None, agent: str | None,
                       project: str | None, redactions: int) -> int:
        """Insert a message and advance its session's counters and time range."""
        column, value = self._fresh_id("messages")  # migration 0012: never an erased one's
        message_id = self._insert_id(
            f"INSERT INTO messages ({column}session_id, scope, seq, role, speaker, text, at, ext_id,"
            f" agent, project, redactions) VALUES ({value}%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (session_id, scope, seq, role, speaker, text, at, ext_id, agent, project, redactions),
        )
        # the participants are checked in SQL every time: a process's cache of them went
        # stale when another process's erase took a speaker out (session 24)
        who = speaker or role
        self.db.execute(
            "UPDATE sessions SET message_count = message_count + 1,"
            " started_at = min(started_at, ?), ended_at = max(ended_at, ?),"
            " participants = CASE WHEN EXISTS (SELECT 1 FROM json_each(participants)"
            " WHERE value = ?) THEN participants ELSE json_insert(participants, '$[#]', ?) END"
            " WHERE id = ?",
            (at, at, who, who, session_id),
        )
        return message_id
