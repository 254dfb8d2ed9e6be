"""Erasure (docs/erasure.md): ``Memory.forget_scope`` and ``Memory.forget_session`` on real
SQLite and real PostgreSQL leave nothing of what they erase anywhere in the database, and
touch nothing else.

Each scope's messages carry a marker word no other scope uses; after the erase, no read
(search, pack, facts, graph, sessions, the live stream) and no row of any table holds it,
on SQLite not even the file's bytes (free pages, full-text segments, the WAL)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memlane.config import load_config
from memlane.errors import NotFoundError, ValidationError
from memlane.memory import Memory
from memlane.serve import live
from memlane.store import open_store
from memlane.index.embed import text_hash
from memlane.store.sql.erase import ERASE_KINDS
from memlane.testing import HashingEmbedder, add_sessions

NOW = datetime(2024, 6, 1, tzinfo=UTC)
OVERRIDES = {"hygiene": {"compact_min_summaries": 2}}


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=256, char_trigrams=True))


def _turns(marker: str, i: int) -> list[tuple[str, str]]:
    return [
        ("user", f"I moved to {marker}ville last week; my sister Ana {marker} lives there too."),
        ("assistant", f"Nice! How do you like {marker}ville so far?"),
        ("user", f"I work at {marker} Corp in Lisbon as a baker now, session {i}."),
        ("assistant", "Sounds great."),
        ("user", "I love hiking in the Alps on weekends."),   # the same text in every scope
        ("assistant", f"Enjoy the {marker} trails!"),
    ]


def _history(mem: Memory, scope: str, marker: str, sessions: int = 3) -> None:
    add_sessions(mem, [(30 - 3 * i, _turns(marker, i)) for i in range(sessions)],
                 now=NOW, scope=scope)
    mem.add_fact("user", "favourite colour", f"{marker} blue", scope=scope)
    mem.upsert(f"Note: {marker} allergy to cats", scope=scope, kind="note")
    mem.pack(f"where does my sister live {marker}", 400, scope=scope)
    mem.compact(scope=scope, now=NOW)


@pytest.fixture
def world(db_url: str) -> Any:
    mem = _memory(db_url)
    _history(mem, "alice", "Zorblax")
    _history(mem, "bob", "Quimbly")
    mem.pack("who lives in Zorblaxville", 400)   # a pack over every scope, quoting alice
    mem.pack("who lives in Quimblyville", 400)
    yield mem
    mem.close()


def _rows_with(store: Any, needle: str) -> dict[str, int]:
    """Rows of every table of the database whose text holds ``needle`` (any case)."""
    out = {}
    if store.backend == "postgres":
        tables = [r[0] for r in store.db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        for t in tables:
            n = store.db.execute(f"SELECT count(*) FROM {t} x WHERE x::text ILIKE %s",
                                 (f"%{needle}%",)).fetchone()[0]
            if n:
                out[t] = n
        return out
    tables = [r[0] for r in store.db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")]
    for t in tables:
        n = 0
        for row in store.db.execute(f"SELECT * FROM {t}"):
            blob = b" ".join(v if isinstance(v, bytes) else str(v).encode() for v in row)
            n += needle.lower().encode() in blob.lower()
        if n:
            out[t] = n
    return out


def _reads(mem: Memory, marker: str) -> list[str]:
    """Everything memlane's reads show that mentions ``marker``, over every scope."""
    found = []
    for q in (f"{marker}ville", f"sister {marker}", f"{marker} Corp", "hiking Alps"):
        found += [h.item.text for h in mem.search(q, k=50, now=NOW) if marker in h.item.text]
        found += [line for line in mem.pack(q, 2000, now=NOW).text.splitlines() if marker in line]
    found += [f.object for f in mem.facts(None, include_superseded=True) if marker in f.object]
    found += [s.scope for s in mem.sessions(limit=1000) if s.scope == "alice"]
    try:
        found += [str(n) for n in mem.graph(f"{marker} Corp")["entity"]]
    except NotFoundError:
        pass
    return found


def _bob_hits(mem: Memory) -> list[tuple[str, float]] | list[str]:
    """bob's hits for "hiking Alps": with their scores on SQLite; on PostgreSQL in their order
    only. Neither backend's BM25 is per scope: its document count and each term's document
    frequency are of the whole table (FTS5's; on PostgreSQL the highest id and
    ``memlane_term_df``), so another scope's items weigh a term, and on PostgreSQL the
    statistics are also read from ANALYZE's estimates and kept for a minute
    (``TermStats``), which docs/erasure.md already leaves out of the scores an erase
    promises. What bob finds, and in what order, is what the erase must not touch."""
    hits = mem.search("hiking Alps", scope="bob", now=NOW)
    if mem.store.backend == "postgres":
        return [h.item.text for h in hits]
    return [(h.item.text, h.score) for h in hits]


def test_forget_scope_leaves_nothing_and_touches_nothing_else(world: Memory) -> None:
    mem = world
    bob_before = {
        "search": _bob_hits(mem),
        "facts": [(f.subject, f.predicate, f.object, f.status) for f in mem.facts("bob")],
        "sessions": [(s.id, s.message_count) for s in mem.sessions("bob")],
        "entities": sorted((e.name, e.mentions, e.context) for e in mem.store.scope_entities("bob")),
    }
    assert _reads(mem, "Zorblax") and _rows_with(mem.store, "Zorblax")
    items = mem.stats()["items"]

    report = mem.forget_scope("alice")

    assert report.erased and report.scope == "alice" and report.session_id is None
    assert list(report.counts) == list(ERASE_KINDS)
    assert report.counts["sessions"] == 3 and report.counts["messages"] == 18
    assert report.counts["packs"] >= 2   # alice's own and the all-scope ones that quote her
    assert report.counts["entities"] >= 1 and report.counts["facts"] >= 1
    assert sum(items.values()) - sum(mem.stats()["items"].values()) == report.counts["items"]
    assert _rows_with(mem.store, "Zorblax") == {}
    assert _reads(mem, "Zorblax") == []   # (journals packs whose queries name the marker)
    assert mem.sessions("alice") == [] and mem.facts("alice") == []
    assert mem.search("hiking Alps", scope="alice", now=NOW) == []
    # bob is untouched: the same text, the shared entity name (Lisbon), his facts and counts
    assert _bob_hits(mem) == bob_before["search"]
    assert [(f.subject, f.predicate, f.object, f.status) for f in mem.facts("bob")] \
        == bob_before["facts"]
    assert [(s.id, s.message_count) for s in mem.sessions("bob")] == bob_before["sessions"]
    assert sorted((e.name, e.mentions, e.context) for e in mem.store.scope_entities("bob")) \
        == bob_before["entities"]
    assert any(h.item.scope == "bob" for h in mem.search("hiking Alps", now=NOW))
    assert mem.stats()["counters"]["scopes_erased"] == 1
    # the live stream: one content-free event; a client's state ends as a fresh snapshot's
    head, state = live.snapshot(mem.store, "alice")
    assert state == {"scope": "alice", "sessions": {}, "items": {}, "facts": {}, "last_pack": None}
    changes = live.changes_since(mem.store, "alice", 0)
    assert [c.topic for c in changes] == ["scope.erased"]


def test_an_empty_scope_erases_nothing_and_says_so(world: Memory) -> None:
    before = world.store.last_change_id()
    report = world.forget_scope("nobody-here")
    assert not report.erased and set(report.counts.values()) == {0}
    assert report.notice == "scope 'nobody-here' holds nothing: nothing erased"
    assert world.store.last_change_id() == before
    world.forget_scope("alice")
    again = world.forget_scope("alice")   # its erased event is not content
    assert not again.erased


def test_forget_session_keeps_the_rest_of_its_scope(world: Memory) -> None:
    mem = world
    first, *rest = sorted(mem.sessions("alice"), key=lambda s: s.id)
    mem.add_message("alice", "user", "Gribnak is my secret word", at="2024-05-20T10:00:00Z")
    mem.close_session("alice")
    mem.index(now=NOW)
    [gone] = [s for s in mem.sessions("alice") if s.id not in {first.id, *(r.id for r in rest)}]
    assert _rows_with(mem.store, "Gribnak")

    report = mem.forget_session(gone.id)

    assert report.session_id == gone.id and report.scope == "alice"
    assert report.counts["sessions"] == 1 and report.counts["messages"] == 1
    assert _rows_with(mem.store, "Gribnak") == {}
    assert {s.id for s in mem.sessions("alice")} == {first.id, *(r.id for r in rest)}
    assert any("Zorblax" in h.item.text for h in mem.search("Zorblaxville", scope="alice", now=NOW))
    with pytest.raises(NotFoundError, match=f"session {gone.id} does not exist"):
        mem.forget_session(gone.id)
    # the stream: the session's own delete event, content-free, says it was erased
    changes = live.changes_since(mem.store, "alice", 0, limit=10_000)
    erased = [c for c in changes if c.topic == "session.erased"]
    assert [c.patch for c in erased] == [[{"op": "remove", "path": f"/sessions/{gone.id}"}]]


def test_erasing_every_session_of_a_scope_leaves_nothing_of_them(world: Memory) -> None:
    mem = world
    for s in mem.sessions("alice"):
        mem.forget_session(s.id)
    leftover = _rows_with(mem.store, "Zorblax")
    # what no session holds stays: the note and the hand-added fact of the scope
    assert set(leftover) <= {"items", "facts", "fact_events", "changes", "items_fts_data",
                             "embed_cache"} or leftover == {}, leftover
    texts = [i.text for i in mem.store.items_of_kind("note", "alice")]
    assert texts == ["Note: Zorblax allergy to cats"]
    assert [f.object for f in mem.facts("alice")] == ["Zorblax blue"]
    assert [e.name for e in mem.store.scope_entities("alice")] == []


def test_bad_arguments_name_the_parameter(world: Memory) -> None:
    for bad in ("", "  ", "a\nb", 7, None):
        with pytest.raises(ValidationError) as e:
            world.forget_scope(bad)  # type: ignore[arg-type]
        assert e.value.field == "scope"
    for bad in (0, -1, True, "3", 2 ** 63):
        with pytest.raises(ValidationError) as e:
            world.forget_session(bad)  # type: ignore[arg-type]
        assert e.value.field == "session_id"
    with pytest.raises(NotFoundError, match="session 999999 does not exist"):
        world.forget_session(999999)
    assert len(world.sessions("alice")) == 3


def test_a_copy_of_the_database_carries_nothing_of_it(world: Memory, tmp_path: Path) -> None:
    from memlane.store.copy import copy_store

    world.forget_scope("alice")
    target = open_store(tmp_path / "copy.db")
    try:
        copy_store(world.store, target)
        assert _rows_with(target, "Zorblax") == {}
        assert _rows_with(target, "Quimbly")
    finally:
        target.close()


def test_the_embedding_cache_loses_the_erased_texts(world: Memory) -> None:
    texts = [i.text for i in world.store.session_items(world.sessions("alice")[0].id)]
    model = world.embeddings.model
    assert world.store.cached_vectors(model, [text_hash(t) for t in texts])
    world.forget_scope("alice")
    assert world.store.cached_vectors(model, [text_hash(t) for t in texts]) == {}


# -- SQLite: the file itself ---------------------------------------------------------------
def _file_bytes(path: Path) -> bytes:
    wal = Path(f"{path}-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def test_sqlite_file_and_wal_keep_no_byte_of_an_erased_scope(tmp_path: Path) -> None:
    path = tmp_path / "erase.db"
    mem = _memory(str(path))
    try:
        _history(mem, "alice", "Zorblax", sessions=6)
        _history(mem, "bob", "Quimbly", sessions=2)
        with mem.store.atomic():   # a re-summary and a forgotten item: deletes before the erase
            mem.store.clear_intelligence(mem.sessions("alice")[0].id)
        mem.forget_item(mem.store.session_items(mem.sessions("alice")[1].id)[0].id)
        data = _file_bytes(path)
        assert b"Zorblax" in data and b"zorblax" in data   # the text and its full-text token
        mem.forget_scope("alice")
        # still open: the erase itself checkpointed and truncated the WAL
        data = _file_bytes(path)
        for needle in (b"Zorblax", b"zorblax", b"ZORBLAX", b"orblax"):
            assert needle not in data, needle
        assert b"quimbly" in data
        vocab = {r[0] for r in sqlite3.connect(path).execute("SELECT term FROM items_fts_vocab")}
        assert not {t for t in vocab if "zorblax" in t}
        assert mem.store.db.execute("PRAGMA secure_delete").fetchone()[0] == 1
    finally:
        mem.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.execute("INSERT INTO items_fts (items_fts) VALUES ('integrity-check')")
    con.close()


def test_sqlite_file_keeps_no_byte_of_an_erased_session(tmp_path: Path) -> None:
    path = tmp_path / "erase.db"
    mem = _memory(str(path))
    try:
        _history(mem, "alice", "Quimbly", sessions=2)
        add_sessions(mem, [(1, _turns("Zorblax", 9))], now=NOW, scope="alice")
        mem.pack("Zorblaxville", 400, scope="alice")
        [sid] = [s.id for s in mem.sessions("alice")
                 if any("Zorblax" in m.text for m in mem.messages(s.id))]
        mem.forget_session(sid)
        data = _file_bytes(path)
        for needle in (b"Zorblax", b"zorblax", b"orblax"):
            assert needle not in data, needle
        assert b"Quimbly" in data
    finally:
        mem.close()
