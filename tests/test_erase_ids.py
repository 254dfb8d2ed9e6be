"""An erased session's id is never given to another session, on SQLite as on PostgreSQL.

Session 20 (found by qa20b's SQLite-against-PostgreSQL parity run): SQLite gives a new row
the largest id + 1, so erasing a scope's newest session handed its id to the next session
of any scope. A process that had added messages to the erased session kept its
participants cached by id and left them out of the new session's (``sessions show`` said
``participants:`` with nothing after it for a session of assistant messages), and an id a
client held for the erased conversation named someone else's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import memlane
from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


def test_the_newest_sessions_id_is_not_given_again_after_it_is_erased(db_url: str) -> None:
    with _memory(db_url) as mem:
        first = mem.add_message("alice", "user", "hello", at="2024-01-01T10:00:00Z").session_id
        mem.forget_session(first)
        second = mem.add_message("bob", "user", "hi", at="2024-01-01T11:00:00Z").session_id
        assert second > first
        mem.forget_scope("bob")
        third = mem.add_message("carol", "user", "hey", at="2024-01-01T12:00:00Z").session_id
        assert third > second
        assert [s.id for s in mem.sessions()] == [third]


def test_a_session_erased_by_another_process_leaves_no_participants_behind(
        db_url: str, tmp_path: Path) -> None:
    """One process (a service) writes; another (``memlane sessions forget``) erases."""
    with _memory(db_url) as mem:
        old = mem.add_message("alice", "user", "hello", at="2024-01-01T10:00:00Z").session_id
        mem.add_message("alice", "assistant", "hi Alice", at="2024-01-01T10:01:00Z")
        env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing",
               "PYTHONPATH": str(Path(memlane.__file__).parents[1])}  # this memlane
        env.pop("MEMLANE_CONFIG", None)
        done = subprocess.run(
            [sys.executable, "-m", "memlane.serve.cli", "sessions", "forget", str(old), "--yes",
             "--db", db_url], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        new = mem.add_message("bob", "assistant", "Welcome, Bob", at="2024-01-01T11:00:00Z")
        mem.add_message("bob", "user", "thanks", at="2024-01-01T11:01:00Z")
        session = mem.session(new.session_id)
        assert session.participants == ("assistant", "user")
        assert session.id != old
        assert [m.text for m in mem.messages(session.id)] == ["Welcome, Bob", "thanks"]
