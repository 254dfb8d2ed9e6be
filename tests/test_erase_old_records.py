"""Erasure meets what was deleted before it (docs/erasure.md, session 27).

A late message joins a session that was already summarised: ``clear_intelligence`` deletes
its summary, facts, entities and observations, and the next index run writes them again.
The deleted rows' change-log records (the live stream's log) kept their documents, with
the session's words; a journaled pack could quote the deleted summary, and the embedding
cache kept its text's vector. An erase (``forget_session``, ``forget_item`` of a turn)
took the traces of the rows it deleted itself, not of those deleted before: the erased
words stayed in the ``changes`` table (found by the surfaces property on PostgreSQL; the
SQLite store runs the same SQL and kept them too), and every erase, ``forget_scope``
included, left the deleted texts' vectors in the embedding cache.

Real SQLite files and real PostgreSQL databases, the offline summariser, the hashing
embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.config import load_config
from memlane.index.embed import text_hash
from memlane.memory import Memory
from memlane.serve import live
from memlane.testing import HashingEmbedder
from tests.test_erase import _rows_with

NOW = datetime(2024, 6, 1, tzinfo=UTC)


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}, overrides={}),
                  embedder=HashingEmbedder(dim=64, char_trigrams=True))


def _history(mem: Memory) -> tuple[int, list[str], int]:
    """Session 1 of scope A says Zqold and Zqmid, is summarised and packed; a late
    message (Zqlate) joins it, so its first summary is deleted and written again. A kept
    session 2 follows. The session's id, the first summary's texts, the late turn's id."""
    start = NOW - timedelta(days=10)
    for i, (role, text) in enumerate([
            ("user", "I moved to Zqold last month."),
            ("assistant", "How do you like it so far?"),
            ("user", "My sister Zqmid lives in Porto."),
            ("assistant", "Do you see her often?"),
            ("user", "We decided to use Zqbill for billing because it is cheaper."),
            ("assistant", "Sounds sensible.")]):
        mem.add_message("A", role, text, at=start + timedelta(minutes=i))
    mem.close_session("A")
    mem.add_message("A", "user", "I work at Keptco as a baker now.", at=NOW - timedelta(days=3))
    mem.close_session("A")
    mem.index(now=NOW)
    first = mem.sessions(scope="A", limit=10)
    sid = min(s.id for s in first)
    old = [i.text for i in mem.store.session_items(sid) if i.kind != "turn"]
    assert any("Zqold" in t for t in old)
    # a pack that quotes only an item of the first summary ("user sister Zqmid")
    pack = mem.pack("sister", 40, scope="A", now=NOW)
    assert "Zqmid" in pack.text and pack.id is not None
    assert all(e.kind == "fact" for e in pack.entries if e.kept)
    mem.add_message("A", "user", "I moved to Zqlate last month.",
                    at=start + timedelta(minutes=3, seconds=30))
    assert mem.store.get_session(sid).message_count == 7
    mem.index(now=NOW)
    late = [i.id for i in mem.store.session_items(sid, kind="turn") if "Zqlate" in i.text]
    return sid, old, late[0]


@pytest.mark.parametrize("how", ["scope", "session", "turn"])
def test_an_erase_takes_the_traces_of_rows_deleted_before_it(db_url: str, how: str) -> None:
    mem = _memory(db_url)
    try:
        sid, old, late = _history(mem)
        if how == "scope":
            mem.forget_scope("A")
            words = ["Zqold", "Zqmid", "Zqbill", "Zqlate", "Keptco"]
        elif how == "session":
            mem.forget_session(sid)
            words = ["Zqold", "Zqmid", "Zqbill", "Zqlate"]
        else:   # the sister's turn: its words were in the first summary and the pack
            turn = [i.id for i in mem.store.session_items(sid, kind="turn")
                    if "Zqmid" in i.text]
            assert len(turn) == 1 and turn[0] != late
            mem.forget_item(turn[0])
            words = ["Zqmid"]
        for w in words:
            assert _rows_with(mem.store, w) == {}, w
            replay = repr(live.changes_since(mem.store, "A", 0, limit=10_000)).lower()
            assert w.lower() not in replay
        erased = [t for t in old if any(w in t for w in words)]
        assert erased and mem.store.cached_vectors(
            mem.embeddings.model, [text_hash(t) for t in erased]) == {}
        if how == "scope":
            return
        # what was not erased stays
        assert _rows_with(mem.store, "Keptco")
        if how == "turn":
            assert _rows_with(mem.store, "Zqlate")
        state = live.snapshot(mem.store, "A")[1]
        assert "keptco" in repr(state).lower()
    finally:
        mem.close()


def test_an_entity_only_an_earlier_summary_named_goes_with_the_session(db_url: str) -> None:
    """The first summary names "Zqghost"; a late message speaks of "Zqghost Cloud", and
    the second names that instead. The graph's node "Zqghost" (its context the sentence it
    was read in) no longer had an entity item; the erase rebuilt only the names of the
    entity items it deleted, so the node stayed after ``forget_session``."""
    mem = _memory(db_url)
    try:
        start = NOW - timedelta(days=10)
        for i, (role, text) in enumerate([
                ("user", "I started using Zqghost for my notes."),
                ("assistant", "How is Zqghost working out?"),
                ("user", "My sister Zqmid lives in Porto."),
                ("assistant", "Nice."),
                ("user", "We decided to use Zqbill for billing because it is cheaper."),
                ("assistant", "Ok.")]):
            mem.add_message("A", role, text, at=start + timedelta(minutes=i))
        mem.close_session("A")
        mem.add_message("A", "user", "I work at Keptco as a baker now.", at=NOW - timedelta(days=2))
        mem.close_session("A")
        mem.index(now=NOW)
        mem.add_message("A", "user", "Actually I moved my notes to Zqghost Cloud,"
                        " Zqghost Cloud is great.", at=start + timedelta(minutes=3, seconds=30))
        mem.index(now=NOW)
        names = {e.name for e in mem.store.scope_entities("A")}
        # the re-summary rebuilds the nodes the first summary named (session 27, second
        # round: tests/facts/test_graph_after_forget.py), so "Zqghost" went with it; a
        # database written before that keeps the node, as here, and the erase takes it
        assert "Zqghost Cloud" in names and "Zqghost" not in names
        with mem.store.atomic():
            mem.store.upsert_entity("A", "Zqghost", "zqghost", "name",
                                    "I started using Zqghost for my notes.", start.timestamp())
        sid = min(s.id for s in mem.sessions(scope="A", limit=10))
        mem.forget_session(sid)
        assert [e.name for e in mem.store.scope_entities("A")] == ["Keptco"]
        assert _rows_with(mem.store, "Zqghost") == {}
    finally:
        mem.close()
