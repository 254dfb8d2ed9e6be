"""Forgetting a turn (``Memory.forget_item`` of a turn item; docs/erasure.md, session 23)
erases the message it came from and everything derived from it, on SQLite and PostgreSQL:
the words are on no surface (search, pack, export, the session's messages, facts, the
live stream's snapshot and replay, the full-text index, the embedding cache, any row of
any table, and on SQLite the file's bytes); the session keeps its other messages,
numbered 1..n, and its summary and facts are written again from them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memlane.errors import NotFoundError
from memlane.index.embed import text_hash
from memlane.memory import Memory
from memlane.serve import live
from memlane.serve.cli_export import export_lines
from memlane.testing import add_sessions
from tests.test_erase import NOW, _file_bytes, _memory, _rows_with

SECRET_TURN = "I moved to Zorblatt last week with my sister Ana Quexley."
TURNS = [
    ("user", "Hi! Planning my week."),
    ("assistant", "Happy to help."),
    ("user", SECRET_TURN),
    ("assistant", "Nice!"),                       # short: its keys held the turn before's words
    ("user", "I work at Acme Corp as a baker."),
    ("assistant", "Sounds great."),
]


def _surfaces(mem: Memory, needle: str) -> list[str]:
    """Every read of memlane that shows ``needle`` (any case)."""
    low = needle.lower()
    found: list[str] = []
    for q in ("Zorblatt", "sister Ana Quexley", "where did I move", "baker Acme"):
        found += [f"search: {h.item.text}" for h in mem.search(q, k=50, now=NOW)
                  if low in h.item.text.lower()]
    found += [f"fact: {f.object}" for f in mem.facts(None, include_superseded=True)
              if low in f"{f.subject} {f.object}".lower()]
    for s in mem.sessions(limit=1000):
        found += [f"message: {m.text}" for m in mem.messages(s.id) if low in m.text.lower()]
        for scope in {s.scope}:
            _, state = live.snapshot(mem.store, scope)
            if low in repr(state).lower():
                found.append(f"snapshot of {scope}")
            replay = live.changes_since(mem.store, scope, 0, limit=10_000)
            found += [f"replay: {c.topic}" for c in replay if low in repr(c).lower()]
    found += [f"export: {line}" for line in export_lines(mem) if low in repr(line).lower()]
    for e in mem.store.scope_entities("alice"):
        if low in f"{e.name} {e.context}".lower():
            found.append(f"entity: {e.name}")
    return found


@pytest.fixture
def alice(db_url: str) -> Memory:
    mem = _memory(db_url)
    add_sessions(mem, [(5, TURNS)], now=NOW, scope="alice")
    add_sessions(mem, [(2, [("user", "Zorblatt is lovely in spring"), ("assistant", "Yes.")])],
                 now=NOW, scope="bob")  # another tenant's own words stay
    mem.pack("where did I move with my sister", 600, scope="alice", now=NOW)
    yield mem
    mem.close()


def _turn(mem: Memory, text: str) -> int:
    [sid] = [s.id for s in mem.sessions("alice")]
    [turn] = [i for i in mem.store.session_items(sid, kind="turn") if i.text == text]
    return turn.id


def test_forgetting_a_turn_erases_its_message_everywhere(alice: Memory) -> None:
    mem = alice
    assert len(_surfaces(mem, "Quexley")) >= 5   # message, turn, summary, facts, entity, pack…
    assert _rows_with(mem.store, "Quexley")
    [sid] = [s.id for s in mem.sessions("alice")]

    turn = _turn(mem, SECRET_TURN)
    mem.forget_item(turn)

    with pytest.raises(NotFoundError, match=f"item {turn} does not exist"):
        mem.forget_item(turn)
    assert _surfaces(mem, "Quexley") == []
    assert _rows_with(mem.store, "Quexley") == {}
    assert {h.item.scope for h in mem.search("Zorblatt", k=50, now=NOW)
            if "zorblatt" in h.item.text.lower()} == {"bob"}
    # the session keeps its other messages, numbered again, and is queued to be summarised
    kept = mem.messages(sid)
    assert [m.text for m in kept] == [t for _, t in TURNS if t != SECRET_TURN]
    assert [m.seq for m in kept] == [1, 2, 3, 4, 5]
    session = mem.store.get_session(sid)
    assert session.message_count == 5 and not session.summarized
    assert mem.store.get_sessions([sid])[sid].message_count == 5
    # no vector of its text in the embedding cache
    assert mem.store.cached_vectors(mem.embeddings.model, [text_hash(SECRET_TURN)]) == {}
    # the next index run writes the session's intelligence again from what is left
    mem.index(now=NOW)
    assert mem.store.get_session(sid).summarized
    assert any("Acme" in f.object for f in mem.facts("alice"))
    assert _surfaces(mem, "Quexley") == [] and _rows_with(mem.store, "Quexley") == {}
    # bob's identical word is untouched
    assert any("lovely in spring" in h.item.text for h in mem.search("Zorblatt", scope="bob", now=NOW))


def test_a_turn_forgotten_then_more_messages_of_its_session(alice: Memory) -> None:
    """Its session numbered again 1..n: a late message joins it in its place in time order
    (qa23c: after the messages no later than it, here 3 of 6) and the rest move down, with
    no number reused or skipped (a count that only dropped would have reused one)."""
    mem = alice
    [sid] = [s.id for s in mem.sessions("alice")]
    mem.forget_item(_turn(mem, "Happy to help."))
    late = mem.add_message("alice", "user", "Also, I adopted a cat.",
                           at=mem.messages(sid)[1].at)
    assert late.session_id == sid and late.seq == 3
    mem.index(now=NOW)
    assert [m.seq for m in mem.messages(sid)] == [1, 2, 3, 4, 5, 6]
    assert "Also, I adopted a cat." in [i.text for i in mem.store.session_items(sid, kind="turn")]


def test_the_last_turn_of_a_session_erases_the_session(alice: Memory) -> None:
    mem = alice
    [sid] = [s.id for s in mem.sessions("bob")]
    for text in ("Zorblatt is lovely in spring", "Yes."):
        [turn] = [i for i in mem.store.session_items(sid, kind="turn") if i.text == text]
        mem.forget_item(turn.id)
    assert mem.sessions("bob") == []
    with pytest.raises(NotFoundError, match=f"session {sid} does not exist"):
        mem.store.get_session(sid)
    assert mem.stats()["counters"]["sessions_erased"] == 1


def test_sqlite_file_keeps_no_byte_of_a_forgotten_turn(tmp_path: Path) -> None:
    path = tmp_path / "turn.db"
    mem = _memory(str(path))
    try:
        add_sessions(mem, [(5, TURNS)], now=NOW, scope="alice")
        mem.pack("where did I move with my sister", 600, scope="alice", now=NOW)
        assert b"Quexley" in _file_bytes(path) and b"quexley" in _file_bytes(path)
        mem.forget_item(_turn(mem, SECRET_TURN))
        data = _file_bytes(path)   # still open: the erase checkpointed the WAL
        for needle in (b"Quexley", b"quexley", b"uexley"):
            assert needle not in data, needle
        vocab = {r[0] for r in sqlite3.connect(path).execute("SELECT term FROM items_fts_vocab")}
        assert not {t for t in vocab if "quexley" in t}
        assert b"Acme" in data
    finally:
        mem.close()


def test_forgetting_a_note_or_a_fact_leaves_no_word_in_the_file_or_the_stream(tmp_path: Path) -> None:
    """Not a turn: the item (or fact) alone, but also the packs quoting it, its change
    records' documents (the live stream's replay) and, on SQLite, the file's bytes."""
    path = tmp_path / "note.db"
    mem = _memory(str(path))
    try:
        note = mem.upsert("Note: the locker code is Vexwolt", scope="alice", kind="note")
        fact = mem.add_fact("user", "nickname", "Plimbo", scope="alice")
        mem.pack("locker code Vexwolt nickname", 600, scope="alice", now=NOW)
        replay = repr(live.changes_since(mem.store, "alice", 0))
        assert "Vexwolt" in replay and "Plimbo" in replay
        mem.forget_item(note)
        mem.forget_fact(fact.fact_id)
        assert _rows_with(mem.store, "Vexwolt") == {} and _rows_with(mem.store, "Plimbo") == {}
        replay = repr(live.changes_since(mem.store, "alice", 0))
        assert "Vexwolt" not in replay and "Plimbo" not in replay
        data = _file_bytes(path)
        for needle in (b"Vexwolt", b"vexwolt", b"Plimbo", b"plimbo"):
            assert needle not in data, needle
    finally:
        mem.close()


def test_forgetting_an_entity_item_takes_its_node_out_of_the_graph(alice: Memory) -> None:
    """``forget_item`` of ``Zorblatt (place)`` deleted the item; the graph kept the node,
    its name and its context (the sentence it was read in), and ``graph`` still showed it."""
    mem = alice
    [sid] = [s.id for s in mem.sessions("alice")]
    [entity] = [i for i in mem.store.session_items(sid, kind="entity")
                if i.extra.get("name") == "Zorblatt"]
    assert mem.graph("Zorblatt", "alice")["entity"]
    others = [(e.scope, e.name) for e in mem.store.scope_entities("bob")]
    mem.forget_item(entity.id)
    with pytest.raises(NotFoundError, match="not in the graph"):
        mem.graph("Zorblatt", "alice")
    assert "Zorblatt" not in [e.name for e in mem.store.scope_entities("alice")]
    assert [(e.scope, e.name) for e in mem.store.scope_entities("bob")] == others


def test_forgetting_an_entity_item_takes_the_relations_naming_it(alice: Memory) -> None:
    """``forget_item`` of ``Zorblatt (place)`` took its node out of the graph but left the
    relation ``user lives_in zorblatt`` read with it: the graph still showed where
    the user lives. Relations naming it go with its node; when another entity item of the
    scope still names it (the node is rebuilt), those of the forgotten item's session go."""
    mem = alice
    [sid] = [s.id for s in mem.sessions("alice")]

    def entity(name: str) -> int:
        [item] = [i for i in mem.store.session_items(sid, kind="entity")
                  if i.extra.get("name") == name]
        return item.id

    assert ("alice", "user", "lives_in", "zorblatt") in mem.store.relations_of("user", "alice")
    mem.forget_item(entity("Zorblatt"))
    assert all("zorblatt" not in r for r in mem.store.relations_of("user", "alice"))
    assert mem.store.relations_of("zorblatt", "alice") == []
    # Ana is named again in a later session: her node is rebuilt and keeps that session's
    # statement; the one read with the forgotten item goes
    add_sessions(mem, [(4, [("user", "My sister Ana visits on Sunday."), ("assistant", "Nice."),
                            ("user", "Ana loves hiking."), ("assistant", "Great.")])],
                 now=NOW, scope="alice")
    mem.index(now=NOW)
    kept = [r for r in mem.store.db.execute(
        "SELECT session_id FROM relations WHERE scope = 'alice' AND target_entity = 'ana'")]
    assert len({r[0] for r in kept}) == 2, kept
    mem.forget_item(entity("Ana"))
    assert mem.graph("Ana", "alice")["entity"]
    left = [r[0] for r in mem.store.db.execute(
        "SELECT session_id FROM relations WHERE scope = 'alice' AND target_entity = 'ana'")]
    assert left and sid not in left, left
    assert mem.graph("Zorblatt", "bob")["entity"]   # another tenant's node stays


def test_a_turn_erase_takes_the_marks_of_a_fact_it_stated_that_was_forgotten(db_url: str) -> None:
    """``forget_fact`` keeps a forgotten fact's events without its value (marks: a re-read
    of the session must not bring it back) but with its subject, here the sister's name; an
    erase of the turn that stated it takes them (session 28, third round). A fact of a kept
    turn forgotten stays forgotten after the session is read again."""
    mem = _memory(db_url)
    try:
        add_sessions(mem, [(5, [("user", "My sister Zqmarko lives in Porto."),
                                ("assistant", "Lovely."),
                                ("user", "I work at Quexcorp Corp as a baker now.")])],
                     now=NOW, scope="alice")
        by_object = {f.object.split()[0]: f for f in mem.facts("alice")}
        assert by_object["Porto"].subject == "Zqmarko"
        mem.forget_fact(by_object["Porto"].id)
        mem.forget_fact(by_object["Quexcorp"].id)
        assert mem.forgotten_facts("Zqmarko", "lives_in", scope="alice")   # its marks
        [sid] = [s.id for s in mem.sessions("alice")]
        [turn] = [i for i in mem.store.session_items(sid, kind="turn") if "Zqmarko" in i.text]
        mem.forget_item(turn.id)
        mem.index(now=NOW)
        assert _rows_with(mem.store, "zqmarko") == {}
        assert not [f for f in mem.facts("alice", include_superseded=True) if "Quexcorp" in f.object]
        assert [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")][-1] \
            == "forgotten"
    finally:
        mem.close()
