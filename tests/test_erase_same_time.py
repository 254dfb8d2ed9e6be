"""Two turns of one session at the same time (messages delivered in one batch share a
second; a clock that went back): an erase of one of them takes exactly the fact events
derived from that turn and keeps the other's, on SQLite and PostgreSQL (docs/erasure.md,
"Session 29: a fact's events know their turn"). Before session 29 the events of facts no
longer stored were matched to the erased turn by session and time: ``forget_fact``'s
marks of the erased turn stayed (another kept turn had its time), and the events of the
other turn's evicted facts went with it (every gone fact's events of the session)."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve.cli_export import export_lines
from memlane.store.copy import copy_store
from memlane.store.migrations import load_migrations
from memlane.testing import HashingEmbedder
from tests.test_erase import _rows_with

NOW = datetime(2024, 6, 1, tzinfo=UTC)
SISTER = "My sister Zqmarko lives in Porto."
WORK = "I work at Quexcorp Corp as a baker now."


def _memory(url: str, caps: tuple[str, ...] = ()) -> Memory:
    hygiene: dict[str, Any] = {"lane_caps": list(caps)} if caps else {}
    return Memory(url, config=load_config(environ={}, overrides={"hygiene": hygiene}),
                  embedder=HashingEmbedder(dim=64, char_trigrams=True))


def _one_batch(mem: Memory) -> int:
    """A session whose four messages share one time; its id."""
    at = NOW - timedelta(days=3)
    for role, text in [("user", SISTER), ("assistant", "Lovely."), ("user", WORK),
                       ("assistant", "Nice.")]:
        mem.add_message("alice", role, text, at=at)
    mem.close_session("alice")
    mem.index(now=NOW)
    [sid] = [s.id for s in mem.sessions("alice")]
    return sid


def _turn_of(mem: Memory, sid: int, text: str) -> int:
    [turn] = [i.id for i in mem.store.session_items(sid, kind="turn") if i.text == text]
    return turn


def _events(mem: Memory, word: str) -> list[tuple[Any, ...]]:
    """The fact events (id, kind) whose subject or object holds ``word``."""
    return [(r[0], r[1]) for r in mem.store.db.execute(
        "SELECT id, kind, subject, object FROM fact_events ORDER BY id")
        if word.lower() in f"{r[2]} {r[3]}".lower()]


def test_a_turn_erase_takes_its_forgotten_facts_marks_and_keeps_the_other_turns(db_url: str) -> None:
    """Both turns' facts forgotten (their marks keep the subject: the sister's name); the
    sister's turn erased: its marks go, although the kept turn has its time, and the kept
    turn's marks stay, so its fact stays forgotten when the session is read again."""
    mem = _memory(db_url)
    try:
        sid = _one_batch(mem)
        for f in mem.facts("alice"):
            mem.forget_fact(f.id)
        assert _events(mem, "Zqmarko")                 # the marks of the sister's facts
        work = [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")]
        assert work == ["added", "forgotten"]
        mem.forget_item(_turn_of(mem, sid, SISTER))
        assert _rows_with(mem.store, "zqmarko") == {}
        assert [e["kind"] for e in mem.forgotten_facts("user", "works_at", scope="alice")] == work
        mem.index(now=NOW)                             # the session read again
        assert not [f for f in mem.facts("alice", include_superseded=True)
                    if "Quexcorp" in f.object]
    finally:
        mem.close()


def test_a_turn_erase_keeps_the_events_of_the_other_turns_evicted_facts(db_url: str) -> None:
    """Every fact item evicted by ``gc`` (lanes capped at 0: the facts go, their events
    stay); the sister's turn erased: its facts' events go, the work turn's stay."""
    mem = _memory(db_url, caps=("semantic=0", "profile=0"))
    try:
        sid = _one_batch(mem)
        mem.gc(now=datetime.now(UTC) + timedelta(days=8))
        assert mem.facts("alice", include_superseded=True) == []
        work = _events(mem, "Quexcorp")
        assert work and _events(mem, "Zqmarko")
        mem.forget_item(_turn_of(mem, sid, SISTER))
        assert _rows_with(mem.store, "zqmarko") == {}
        assert _events(mem, "Quexcorp")[:len(work)] == work
    finally:
        mem.close()


def test_a_turn_erase_with_the_clock_gone_back(db_url: str) -> None:
    """The clock went back: the sister's turn, said after the work turn, carries its time;
    both facts forgotten. Erasing the sister's turn takes its marks and keeps the work
    turn's, whose fact stays forgotten when the session is read again."""
    mem = _memory(db_url)
    try:
        at = NOW - timedelta(days=3)
        for role, text, when in [("user", WORK, at), ("assistant", "Nice.", at + timedelta(minutes=1)),
                                 ("user", SISTER, at), ("assistant", "Lovely.", at + timedelta(minutes=2))]:
            mem.add_message("alice", role, text, at=when)
        mem.close_session("alice")
        mem.index(now=NOW)
        [sid] = [s.id for s in mem.sessions("alice")]
        for f in mem.facts("alice"):
            mem.forget_fact(f.id)
        work = mem.forgotten_facts("user", "works_at", scope="alice")
        mem.forget_item(_turn_of(mem, sid, SISTER))
        assert _rows_with(mem.store, "zqmarko") == {}
        assert mem.forgotten_facts("user", "works_at", scope="alice") == work
        mem.index(now=NOW)
        assert not [f for f in mem.facts("alice", include_superseded=True)
                    if "Quexcorp" in f.object]
    finally:
        mem.close()


def test_a_forgotten_fact_keeps_out_only_its_own_turns_statement(db_url: str) -> None:
    """Two sisters named in two turns of one time; one forgotten (``user sister Zqmarko``),
    then a third turn erased: the session read again must not bring her back, and must keep
    the other sister, whose statement has the same subject, predicate, session and time
    (``_forgotten`` matched a statement to a forgotten fact by them: she was lost)."""
    mem = _memory(db_url)
    try:
        at = NOW - timedelta(days=3)
        for role, text in [("user", SISTER), ("assistant", "Lovely."),
                           ("user", "My sister Zqana lives in Faro."), ("assistant", "Nice.")]:
            mem.add_message("alice", role, text, at=at)
        mem.close_session("alice")
        mem.index(now=NOW)
        [sid] = [s.id for s in mem.sessions("alice")]
        [marko] = [f for f in mem.facts("alice") if f.object == "Zqmarko"]
        mem.forget_fact(marko.id)
        mem.forget_item(_turn_of(mem, sid, "Nice."))
        mem.index(now=NOW)
        assert sorted(f.object for f in mem.facts("alice", "user")) == ["Zqana"]
    finally:
        mem.close()


def _column_dropped(mem: Memory) -> None:
    """The database as the code before session 29 left it: no ``fact_events.message_id``,
    the migration that adds it not applied."""
    name = next(m.name for m in load_migrations(f"memlane.store.{mem.store.backend}")
                if m.name.endswith("_fact_event_message"))
    with mem.store.atomic():
        mem.store._run("DROP INDEX fact_events_message")
        mem.store._run("ALTER TABLE fact_events DROP COLUMN message_id")
        mem.store._run("DELETE FROM schema_migrations WHERE name = %s", (name,))


def test_an_old_database_gets_each_events_turn_where_it_can_be_told(db_url: str) -> None:
    """Facts of a session of one time (SISTER and WORK), some forgotten, and of a session a
    minute a turn, written by the real pipeline; the column dropped and the migration
    unapplied; opened again: every row kept, and each event has the turn the code gives a
    new one (an ``added`` event of a stored fact by its fact, a mark by its time when one
    message has it, a ``forgotten`` mark by its ``added`` mark), except the marks of the
    session of one time (no turn: matched by time, as before). An erase then takes a
    derived mark by its turn."""
    mem = _memory(db_url)
    sid = _one_batch(mem)
    at = NOW - timedelta(days=2)
    for i, (role, text) in enumerate([("user", "My sister Zqana lives in Faro."),
                                      ("assistant", "Nice."), ("user", "I love hiking.")]):
        mem.add_message("alice", role, text, at=at + timedelta(minutes=i))
    mem.close_session("alice")
    mem.index(now=NOW)
    [other] = [s.id for s in mem.sessions("alice") if s.id != sid]
    for f in mem.facts("alice"):
        if f.object in ("Porto", "Zqana") or f.subject == "Zqana":
            mem.forget_fact(f.id)
    cols = "id, fact_id, kind, scope, subject, predicate, object, other_id, session_id, at"
    before = {r[0]: tuple(r) for r in mem.store.db.execute(f"SELECT {cols}, message_id FROM fact_events")}
    marks = {r[0] for r in before.values() if r[6] == "" and r[8] == sid}
    assert marks and len({r[8] for r in before.values() if r[6] == ""}) == 2
    _column_dropped(mem)
    mem.close()

    mem = _memory(db_url)
    try:
        after = {r[0]: tuple(r) for r in mem.store.db.execute(f"SELECT {cols}, message_id FROM fact_events")}
        assert {i: r[:-1] for i, r in after.items()} == {i: r[:-1] for i, r in before.items()}
        assert {i: r[-1] for i, r in after.items()} == {
            i: None if i in marks else r[-1] for i, r in before.items()}
        assert all(r[-1] is not None for r in after.values() if r[8] == other)
        [turn] = [i.id for i in mem.store.session_items(other, kind="turn") if "Zqana" in i.text]
        mem.forget_item(turn)
        assert _rows_with(mem.store, "zqana") == {}
        mem.index(now=NOW)
        assert sorted(f.object for f in mem.facts("alice", "user")) == [
            "Quexcorp Corp as a baker", "Zqmarko", "hiking"]
    finally:
        mem.close()


def test_export_import_and_copy_keep_each_events_turn(db_url: str, tmp_path: Path) -> None:
    """``memlane export | memlane import`` moves messages and the facts are read again:
    each event names the new memory's message of its statement; ``memlane copy`` keeps
    every event's message as it is."""
    mem = _memory(db_url)
    try:
        _one_batch(mem)
        lines = list(export_lines(mem))
        copy = _memory(str(tmp_path / "copy.db"))
        try:
            copy_store(mem.store, copy.store)
            cols = "id, fact_id, kind, session_id, message_id, at"
            assert [tuple(r) for r in copy.store.db.execute(f"SELECT {cols} FROM fact_events ORDER BY id")] \
                == [tuple(r) for r in mem.store.db.execute(f"SELECT {cols} FROM fact_events ORDER BY id")]
        finally:
            copy.close()
    finally:
        mem.close()
    moved = _memory(str(tmp_path / "moved.db"))
    try:
        report = moved.import_file(io.StringIO("".join(json.dumps(x) + "\n" for x in lines)))
        assert report.errors == ()
        moved.index(now=NOW)
        said = {}
        for f in moved.facts("alice"):
            said[(f.subject, f.object)] = [(e["kind"], moved.store.get_message(e["message_id"]).text)
                                           for e in moved.fact_history(f.subject, f.predicate, "alice")
                                           [0]["events"]]
        assert said == {("user", "Zqmarko"): [("added", SISTER)],
                        ("Zqmarko", "Porto"): [("added", SISTER)],
                        ("user", "Quexcorp Corp as a baker"): [("added", WORK)]}
    finally:
        moved.close()
