"""A turn between two people is keyed by its reply's words (docs/retrieval.md, session 24).

A turn showing a friend a new puppy ("Look, I brought you a little pup!") never names the
pup; the reply does ("Aww, I'll call her Biscuit"), and "When did Pavel get Biscuit for Mira?"
asks for Pavel's turn. A turn's
lexical keys hold the first words of the next message when both are role user and the next
is another speaker's (``indexer.turn_keys``); a chat between a user and an assistant keeps
its keys (an assistant's answer would blur what the user said). A late message that joins
an indexed session, and the migration (SQLite 0014, PostgreSQL 0017) for sessions indexed
before, compute the session's keys again. Both stores.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.expand import context_words
from memlane.index.indexer import turn_keys
from memlane.store.filters import Filters
from memlane.testing import memory
from memlane.types import Message

AT = datetime(2023, 5, 20, 9, 30, tzinfo=UTC)
NOW = AT + timedelta(days=7)
PUP = "Look, I brought you a little pup!"
REPLY = "Aww, I'll call her Biscuit, she's adorable!"


def _found(mem: Any, word: str) -> set[str]:
    ids = {i for i, _ in mem.store.lexical_search([word], Filters(kinds=("turn",)), 20)}
    return {it.text for it in mem.store.get_items(ids).values()} if ids else set()


def _message(i: int, role: str, speaker: str | None, text: str) -> Message:
    return Message(id=i + 1, session_id=1, scope="chat", seq=i + 1, role=role, text=text,
                   at=AT + timedelta(minutes=i), speaker=speaker)


MARKS = ["alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
"""Each message's own word (the keys hold letters only)."""
WORDS = ["tilly", "museum", "pottery", "turtles", "screenplay", "valorant", "sweden", "breeder"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant"]),
                          st.sampled_from([None, "Pavel", "Mira"]),
                          st.sampled_from(WORDS)), min_size=1, max_size=8))
def test_a_turn_carries_its_reply_only_between_two_people(turns: list[Any]) -> None:
    """For any chat: a turn's keys hold the next message's words exactly when both are role
    user and the next one is another named speaker's (a user turn before an assistant's
    answer, a speaker's own next message, a message with no speaker: none)."""
    msgs = [_message(i, role, spk, f"{MARKS[i]} {w}") for i, (role, spk, w) in enumerate(turns)]
    keys = turn_keys(msgs)
    for i, m in enumerate(msgs):
        own = set(keys[m.id].split())
        if i + 1 < len(msgs):
            n = msgs[i + 1]
            reply = m.role == n.role == "user" and n.speaker and n.speaker != m.speaker
            assert (MARKS[i + 1] in own) == bool(reply), (m, n, keys[m.id])
        assert not own & set(MARKS[i + 2:])  # nothing from further on


def test_the_reply_words_are_the_context_words_of_the_reply() -> None:
    msgs = [_message(0, "user", "Pavel", PUP), _message(1, "user", "Mira", REPLY)]
    assert context_words(REPLY, PUP) in turn_keys(msgs)[1]


def _two_people(mem: Any, last_speaker: str = "Mira") -> int:
    sid = mem.add_message("chat", "user", "Hey Mira, how was the film festival?", AT,
                          speaker="Pavel").session_id
    mem.add_message("chat", "user", "It went great, the screenplay got a mention!",
                    AT + timedelta(minutes=1), speaker="Mira")
    mem.add_message("chat", "user", PUP, AT + timedelta(minutes=2), speaker="Pavel")
    if last_speaker == "Mira":
        mem.add_message("chat", "user", REPLY, AT + timedelta(minutes=3), speaker="Mira")
    else:
        mem.add_message("chat", "user", "Gotta run, the turtles want their bath.",
                        AT + timedelta(minutes=5), speaker="Pavel")
    mem.close_session("chat")
    return sid


def test_a_turn_is_found_by_its_replys_words(db_url: str) -> None:
    with memory(db_url) as mem:
        _two_people(mem)
        mem.index(now=NOW)
        assert _found(mem, "Biscuit") == {PUP, REPLY}
        hits = mem.search("When did Pavel get Biscuit for Mira?", kinds=["turn"], k=3, now=NOW)
        assert PUP in [h.item.text for h in hits]


def test_an_assistants_answer_gives_a_user_turn_no_keys(db_url: str) -> None:
    with memory(db_url) as mem:
        mem.add_message("chat", "user", "I just got a new pup!", AT)
        mem.add_message("chat", "assistant", "Congratulations! Biscuit is a lovely name.",
                        AT + timedelta(minutes=1))
        mem.close_session("chat")
        mem.index(now=NOW)
        assert _found(mem, "Biscuit") == {"Congratulations! Biscuit is a lovely name."}


def test_a_late_reply_keys_the_turn_it_answers(db_url: str) -> None:
    """The session was indexed when Pavel's turn was followed by his own; Mira's reply
    arrives late and takes its place between them: the next index run keys Pavel's turn by
    it, and Pavel's last (short) turn by its new previous message."""
    with memory(db_url) as mem:
        sid = _two_people(mem, last_speaker="Pavel")
        mem.index(now=NOW)
        assert _found(mem, "Biscuit") == set()
        assert mem.add_message("chat", "user", REPLY, AT + timedelta(minutes=3),
                               speaker="Mira").session_id == sid
        mem.index(now=NOW)
        assert _found(mem, "Biscuit") == {PUP, REPLY, "Gotta run, the turtles want their bath."}
        assert len(mem.store.session_items(sid, kind="turn")) == 5


@pytest.mark.parametrize("backend, last", [("sqlite", "0013_time_order"),
                                           ("postgres", "0017_merge_sessions")])
def test_sessions_indexed_before_are_keyed_again_by_the_migration(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str, last: str) -> None:
    """A session the previous schema indexed (its turns keyed without the reply) is queued
    by the migration; the next index run writes the new keys, embedding nothing again. A
    session with no speaker stays indexed."""
    from tests.store.test_upgrades import _apply_until, _connect, _migrate

    url = str(tmp_path / "old.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    _apply_until(backend, url, last, filler=0)  # sessions 1 and 2: no speakers
    con, q = _connect(backend, url)
    con.execute("INSERT INTO sessions (id, scope, status, started_at, ended_at, message_count,"
                " created_at, indexed_at) VALUES (3, 'chat', 'closed', 0, 20, 2, 0, 1)")
    for seq, (speaker, text) in enumerate([("Pavel", PUP), ("Mira", REPLY)], start=1):
        mid = con.execute(f"INSERT INTO messages (session_id, scope, seq, role, text, at, speaker)"
                          f" VALUES (3, 'chat', {q}, 'user', {q}, {q}, {q}) RETURNING id",
                          (seq, text, float(seq), speaker)).fetchone()[0]
        con.execute("INSERT INTO items (kind, text, at, scope, session_id, message_id, seq, keys,"
                    f" created_at, updated_at) VALUES ('turn', {q}, {q}, 'chat', 3, {q}, {q}, {q},"
                    " 0, 0)", (text, float(seq), mid, seq, speaker))
    con.execute("UPDATE sessions SET indexed_at = 1")
    con.close()
    _migrate(url)
    with memory(url) as mem:
        assert not mem.session(3).indexed and mem.session(1).indexed
        assert _found(mem, "Biscuit") == {REPLY}
        report = mem.index(now=NOW)
        assert mem.session(3).indexed
        assert _found(mem, "Biscuit") == {PUP, REPLY}
        assert report.items_indexed == 0  # no turn written (or embedded) again
