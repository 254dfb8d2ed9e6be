"""Importing a file again, whole or after an interruption, gives what one clean import gives
(session 25).

A random file on two scopes (labelled by ``session`` as ``memlane export`` writes it, or
not at all; lines out of time order, labels whose sessions overlap or hold a pause longer
than the gap), cut at a random line and imported, then, after index runs that close the
scopes' open sessions as idle, imported whole: the same sessions with the same messages as
one import of the whole file into a fresh memory. Before session 25 a label whose first
line was stored already opened no session, and its new lines went to whatever session the
scope had open: one an index run had closed in between sent them to the nearest session in
time (another label's), and a message added live in between took them into its session.
"""

from __future__ import annotations

import io
import itertools
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.ingest.importer import import_jsonl
from memlane.memory import Memory
from memlane.testing import HashingEmbedder
from tests.ingest.test_export_round_trip_property import listing
from tests.pg_race import lock_waits, race
from tests.test_erase import NOW, OVERRIDES

BASE = NOW - timedelta(days=3)
LATER = BASE + timedelta(days=2)


def _open(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=64))


def _import(mem: Memory, lines: list[dict[str, Any]]) -> Any:
    report = import_jsonl(mem.store, mem.config.ingest,
                          io.StringIO("".join(json.dumps(x) + "\n" for x in lines)))
    assert not report.errors, report
    return report


def file_lines(steps: list[Any], n: int, labelled: bool) -> list[dict[str, Any]]:
    """One import file: each step a line of scope ``a`` or ``b`` some minutes after (or
    before) that scope's previous line, starting a new label or not."""
    minute = {"a": 0, "b": 0}
    label = {"a": 0, "b": 0}
    out = []
    for i, (scope, delta, new, with_id) in enumerate(steps):
        minute[scope] = max(0, minute[scope] + delta)
        label[scope] += new
        row: dict[str, Any] = {
            "scope": f"{scope}{n}", "role": "user" if i % 2 == 0 else "assistant",
            "text": f"m{i} at {minute[scope]}",
            "at": (BASE + timedelta(minutes=minute[scope])).isoformat()}
        if labelled:
            row["session"] = label[scope]
        if with_id:
            row["id"] = f"id{i}"
        out.append(row)
    return out


line_step = st.tuples(st.sampled_from("ab"), st.integers(-40, 50), st.booleans(), st.booleans())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_file_imported_again_after_a_cut_gives_what_one_import_gives(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    counter = itertools.count()

    @settings(max_examples=40 if backend == "sqlite" else 15, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=st.lists(line_step, min_size=2, max_size=20), cut=st.integers(0, 10**6),
           labelled=st.booleans(), index=st.booleans(), live=st.booleans(),
           again=st.booleans())
    def run(steps: list[Any], cut: int, labelled: bool, index: bool, live: bool,
            again: bool) -> None:
        n = next(counter)
        lines = file_lines(steps, n, labelled)
        scopes = {f"a{n}", f"b{n}"}
        url = str(tmp_path / f"r{n}.db") if backend == "sqlite" else str(
            request.getfixturevalue("pg_url"))
        with _open(str(tmp_path / f"clean{n}.db")) as clean:
            _import(clean, lines)
            if live:
                clean.add_message(f"a{n}", "user", "live now", at=NOW)
            want = listing(clean, scopes)
        with _open(url) as mem:
            _import(mem, lines[:cut % len(lines)])
            if index:  # the scopes' open sessions closed as idle (a worker, memlane index)
                mem.index(now=LATER)
            if live:  # a message of today, which the file's lines must not join
                mem.add_message(f"a{n}", "user", "live now", at=NOW)
            report = _import(mem, lines)
            assert report.imported + report.skipped_duplicates == len(lines), report
            if again:  # and once more: nothing new
                assert _import(mem, lines).imported == 0
            assert listing(mem, scopes) == want
        ran.append(len(lines))

    ran: list[int] = []
    run()
    assert len(ran) >= 10, ran


def test_a_label_resumed_after_a_live_message_keeps_its_lines(db_url: str) -> None:
    """A labelled file cut inside its last label, then a message added live to the scope
    (a session of today), then the file imported whole: the label's remaining lines join
    the label's session, not the live one."""
    lines = [{"scope": "chat", "role": "user", "text": f"m{i}",
              "at": (BASE + timedelta(minutes=10 * i)).isoformat(), "session": 1}
             for i in range(4)]
    with _open(db_url) as mem:
        _import(mem, lines[:2])
        mem.index(now=LATER)
        mem.add_message("chat", "user", "live now", at=NOW)
        assert _import(mem, lines).imported == 2
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [["live now"],
                                                             ["m0", "m1", "m2", "m3"]]


def test_a_label_resumed_after_an_index_run_keeps_its_lines(db_url: str) -> None:
    """Label 2's lines at minute 30, then 5 (inside label 1's span, 0 to 10); the file cut
    after the first, an index run (the open session closed as idle), the file whole: minute
    5 joins label 2's session, not label 1's, the nearest in time."""
    lines = [{"scope": "chat", "role": "user", "text": text,
              "at": (BASE + timedelta(minutes=minute)).isoformat(), "session": label}
             for text, minute, label in [("a0", 0, 1), ("a1", 10, 1), ("b0", 30, 2),
                                         ("b1", 5, 2)]]
    with _open(db_url) as mem:
        _import(mem, lines[:3])
        mem.index(now=LATER)
        assert _import(mem, lines).imported == 1
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [["a0", "a1"], ["b1", "b0"]]


def test_two_imports_of_one_labelled_file_at_once_give_what_one_gives(pg_url: str) -> None:
    """Two processes import one labelled file at the same time (a retry while the first
    still runs). A has opened label 1's session and is about to store its lines; B finds
    label 1's first line not stored yet and waits for the scope's lock. Before session 25 B
    looked before it waited: once A committed, B closed A's session and opened another for
    the label, which got no line (all stored): an empty session. B now looks under the
    lock, finds the line stored and resumes the label in A's session."""
    lines = [{"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}",
              "at": (BASE + timedelta(minutes=10 * i)).isoformat(), "session": 1 + i // 3}
             for i in range(6)]
    body = "".join(json.dumps(x) + "\n" for x in lines)
    held, go = threading.Event(), threading.Event()

    def tracer(kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread().name == "A" and "memlane_add_messages" in sql \
                and not held.is_set():
            held.set()
            go.wait(60)

    with _open(pg_url) as mem, Memory(
            pg_url, config=load_config(environ={}, overrides=OVERRIDES), tracer=tracer,
            embedder=HashingEmbedder(dim=64)) as a, _open(pg_url) as b:
        reports: dict[str, Any] = {}

        def run(name: str, client: Memory) -> None:
            reports[name] = import_jsonl(client.store, client.config.ingest, io.StringIO(body))

        errors = race(lambda: run("A", a), lambda: run("B", b), name="A", held=held, go=go,
                      waiting=lambda: lock_waits(mem))
        assert errors == []
        assert sorted((r.imported, r.skipped_duplicates) for r in reports.values()) == [
            (0, 6), (6, 0)], reports
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [["m0", "m1", "m2"],
                                                             ["m3", "m4", "m5"]]


def test_a_resumed_labels_session_merged_away_between_batches(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The label resumed (its first line stored, its session S closed as idle) is written
    in several batches; between two of them a message added live falls within the gap of
    S and of an earlier session, goes to the earlier one and merges S into it. The label's
    next lines follow its first line into the session that holds it now (they were written
    to S's id, gone: the import failed)."""
    from memlane.ingest import importer

    lines = [{"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}",
              "at": (BASE + timedelta(minutes=minute)).isoformat(), "session": 1}
             for i, minute in enumerate([50, 55, 60, 65, 70])]
    with _open(db_url) as mem:
        _import(mem, lines[:2])
        mem.index(now=LATER)  # S closed as idle
        for minute in (0, 5):  # an earlier session, of its own (late)
            mem.add_message("chat", "user", f"early {minute}", at=BASE + timedelta(minutes=minute))
        monkeypatch.setattr(importer, "BATCH", 2)

        def source() -> Any:
            for k, x in enumerate(lines):
                if k == 3:  # after the batch of lines 1-2 (stored) and 3's
                    mem.add_message("chat", "user", "bridge",
                                    at=BASE + timedelta(minutes=22))
                yield json.dumps(x) + "\n"

        report = import_jsonl(mem.store, mem.config.ingest, source())
        assert not report.errors and report.imported == 3, report
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [
            ["early 0", "early 5", "bridge", "m0", "m1", "m2", "m3", "m4"]], got


def test_a_resumed_label_waits_for_an_indexer_writing_its_session(pg_url: str) -> None:
    """PostgreSQL: an indexer has claimed label 1's session S (closed when label 2 began)
    and is about to write its turns; the file imported again places a new line of label 1
    before two of S's messages. The import renumbered those messages, then waited for S's
    row, while the indexer's turns (which reference the messages) waited for the import: a
    deadlock (seen in a stress of imports, live messages, index runs and erases). The
    import now takes S's row first, as a late message does, and waits for the indexer."""
    lines = [{"scope": "chat", "role": "user", "text": f"m{minute}", "id": f"m{minute}",
              "at": (BASE + timedelta(minutes=minute)).isoformat(), "session": label}
             for minute, label in [(0, 1), (10, 1), (20, 1), (5, 1), (100, 2)]]
    held, go = threading.Event(), threading.Event()

    def tracer(kind: str, sql: str, params: Any = None) -> None:
        if threading.current_thread().name == "indexer" and "INSERT INTO items" in sql \
                and not held.is_set():
            held.set()
            go.wait(60)

    with _open(pg_url) as mem, Memory(
            pg_url, config=load_config(environ={}, overrides=OVERRIDES), tracer=tracer,
            embedder=HashingEmbedder(dim=64)) as indexer:
        _import(mem, lines[:3] + lines[4:])  # label 1 without minute 5, then label 2
        errors = race(lambda: indexer.index(now=LATER), lambda: _import(mem, lines),
                      name="indexer", held=held, go=go, waiting=lambda: lock_waits(indexer))
        assert errors == []
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [["m0", "m5", "m10", "m20"],
                                                             ["m100"]]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_file_imported_again_after_erasing_some_of_its_lines_gives_what_one_import_gives(
        request: pytest.FixtureRequest, tmp_path: Any, backend: str) -> None:
    """A labelled file imported, some of its messages erased (``forget_item`` of their turns:
    ``erase_messages``; a label's first line among them at random), the file imported again:
    each erased line comes back in its label's session, as one import of the file gives.
    Before, a label whose first line was erased and whose other lines were stored got its
    first line back in a session of its own (only the first line was looked up)."""
    counter = itertools.count()

    @settings(max_examples=30 if backend == "sqlite" else 10, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=st.lists(line_step, min_size=2, max_size=16),
           erased=st.sets(st.integers(0, 15), min_size=1, max_size=4), index=st.booleans())
    def run(steps: list[Any], erased: set[int], index: bool) -> None:
        n = next(counter)
        lines = file_lines(steps, n, labelled=True)
        scopes = {f"a{n}", f"b{n}"}
        url = str(tmp_path / f"e{n}.db") if backend == "sqlite" else str(
            request.getfixturevalue("pg_url"))
        with _open(str(tmp_path / f"clean-e{n}.db")) as clean:
            _import(clean, lines)
            want = listing(clean, scopes)
        with _open(url) as mem:
            _import(mem, lines)
            if index:
                mem.index(now=LATER)
            texts = {lines[i % len(lines)]["text"] for i in erased}
            ids = [m.id for s in mem.sessions(limit=10_000) if s.scope in scopes
                   for m in mem.messages(s.id) if m.text in texts]
            mem.store.erase_messages(ids)
            assert _import(mem, lines).imported == len(ids)
            assert _members(listing(mem, scopes)) == _members(want)
        ran.append(len(lines))

    ran: list[int] = []
    run()
    assert len(ran) >= 10, ran


def _members(got: list[Any]) -> list[Any]:
    """Each session as its scope and its messages without their numbers: a line that comes
    back goes after a message of its session at the same time (as a late one does), where
    one import keeps the file's order."""
    return sorted((scope, sorted(m[:4] for m in msgs)) for scope, msgs in got)


def test_a_labels_first_line_erased_comes_back_in_its_labels_session(db_url: str) -> None:
    lines = [{"scope": "chat", "role": "user", "text": text,
              "at": (BASE + timedelta(minutes=minute)).isoformat(), "session": label}
             for text, minute, label in [("a0", 0, 1), ("a1", 10, 1), ("b0", 30, 2),
                                         ("b1", 40, 2)]]
    with _open(db_url) as mem:
        _import(mem, lines)
        mem.index(now=LATER)
        (b0,) = [m.id for s in mem.sessions() for m in mem.messages(s.id) if m.text == "b0"]
        mem.store.erase_messages([b0])
        assert _import(mem, lines).imported == 1
        got = listing(mem, {"chat"})
        assert [[m[0] for m in msgs] for _, msgs in got] == [["a0", "a1"], ["b0", "b1"]]
