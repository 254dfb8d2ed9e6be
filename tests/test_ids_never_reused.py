"""The id of an erased session, a forgotten fact or a forgotten item is never given to
another one, on SQLite as on PostgreSQL.

Session 20 (found by qa20b's SQLite-against-PostgreSQL parity run): SQLite gives a new row
the largest id + 1, so deleting the newest row handed its id to the next one.

- A fact forgotten, the next fact took its id and the forgotten one's events with it: the
  current fact's history said it had been added a month before it was and forgotten, and
  ``forgotten_facts`` no longer had the forgotten value's record.
- A scope's newest session erased, the next session of any scope took its id. A process
  that had added messages to the erased session kept its participants cached by id and
  left them out of the new session's (``sessions show`` listed no participants for a
  session of assistant messages), and an id a client held for the erased conversation
  named someone else's.
- A forgotten item's id went to the next item stored, which a journaled pack that had drawn
  on the forgotten one then named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_a_forgotten_facts_events_stay_its_own(db_url: str) -> None:
    with _memory(db_url) as mem:
        old = mem.add_fact("user", "city", "Lisbon", scope="b", at="2024-01-01T00:00:00Z")
        mem.forget_fact(old.fact_id)
        new = mem.add_fact("user", "city", "Porto", scope="b", at="2024-02-01T00:00:00Z")
        assert new.fact_id != old.fact_id
        (current,) = mem.fact_history("user", "city", "b")
        assert current["object"] == "Porto"
        assert [e["kind"] for e in current["events"]] == ["added"]
        forgotten = mem.forgotten_facts("user", "city", "b")
        assert [(e["fact_id"], e["kind"]) for e in forgotten] == [(old.fact_id, "added"),
                                                                  (old.fact_id, "forgotten")]
        mem.forget_scope("b")  # an erased scope's facts too
        again = mem.add_fact("user", "city", "Faro", scope="c", at="2024-03-01T00:00:00Z")
        assert again.fact_id > new.fact_id
        assert mem.forgotten_facts("user", "city", "c") == []


def test_a_forgotten_items_id_names_nothing_afterwards(db_url: str) -> None:
    """A journaled pack names the items it drew on by id: after one is forgotten, that id
    finds nothing rather than the next note stored (and the pack that quoted it goes with
    it, since session 23: its journal held the item's text)."""
    from memlane.errors import NotFoundError

    with _memory(db_url) as mem:
        old = mem.upsert("Prefer window seats on long flights", scope="s", kind="preference")
        pack = mem.pack("window seats", 200, scope="s")
        assert old in [e.item_id for e in pack.entries]
        mem.forget_item(old)
        new = mem.upsert("Allergic to cats", scope="s", kind="note")
        assert new != old
        with pytest.raises(NotFoundError):
            mem.item(old)
        with pytest.raises(NotFoundError):
            mem.replay_pack(pack.id)


def test_an_erased_messages_id_is_not_given_again(db_url: str) -> None:
    """Session 20, round 2: a draft of erased messages (``summarize_recent``) passed
    ``store_summary``'s check that its messages still exist once new messages had taken
    their ids (SQLite), and stored the erased text again."""
    with _memory(db_url) as mem:
        mem.add_message("s", "user", "my PIN is 4711", at="2024-01-01T10:00:00Z")
        mem.add_message("s", "assistant", "noted your PIN", at="2024-01-01T10:01:00Z")
        draft = mem.summarize_recent("s", 2)
        mem.forget_scope("s")
        new = [mem.add_message("s", "user", text, at=f"2024-01-02T10:0{i}:00Z")
               for i, text in enumerate(["hello again", "nothing secret"])]
        assert min(m.id for m in new) > max(draft.message_ids)
        with pytest.raises(memlane.errors.ConflictError, match="was erased"):
            mem.store_summary(draft)
        assert not [i for i in mem.thread("pin") if "4711" in i.text]
        batch = mem.add_messages([{"scope": "t", "text": "batched"}])
        mem.forget_scope("t")
        assert mem.add_message("t", "user", "again").id > batch[0].id


def test_an_erased_packs_id_is_not_given_again(db_url: str) -> None:
    """A client replays a pack by its id: erased with its scope, the next pack (of any
    scope) took it on SQLite, and the client's replay showed another scope's pack."""
    with _memory(db_url) as mem:
        mem.add_message("alice", "user", "my cat is Miso", at="2024-01-01T10:00:00Z")
        held = mem.pack("cat", scope="alice").id
        assert held is not None
        mem.forget_scope("alice")
        mem.add_message("bob", "user", "my dog is Rex", at="2024-01-01T11:00:00Z")
        other = mem.pack("dog", scope="bob").id
        assert other is not None and other > held
        with pytest.raises(memlane.errors.NotFoundError):
            mem.replay_pack(held)
