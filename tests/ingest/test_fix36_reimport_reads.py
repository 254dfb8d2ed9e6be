"""``memlane import`` of a file whose lines are stored already (session 36, fix36): each
line's stored message was read twice, by the store's check and again by the importer's
comparison (the same message, or another under its id?), a labelled line three times and
a label's first line four. The importer now reads the batch's stored messages once, one
statement per scope (``Store.messages_by_ext_ids``), and gives the store only the lines
not stored: each id is read once, and the import ends as before (every line a skipped
duplicate, the database as it was; a line whose id holds another message still refused
naming ``id``). Reads counted by ``memlane.testing.IdReads`` on a real SQLite file."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, IdReads

START = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)

# a line: its scope, a session label (or none), its minutes after the one before
LINE = st.tuples(st.sampled_from(["p", "q"]), st.sampled_from([None, "A", "B"]),
                 st.sampled_from([1, 2, 300]))


def _file(spec: list[tuple[str, str | None, int]], closed: str | None) -> list[dict[str, Any]]:
    at, lines = START, []
    for i, (scope, label, minutes) in enumerate(spec):
        at += timedelta(minutes=minutes)
        line: dict[str, Any] = {"scope": scope, "role": "user", "text": f"line {i}",
                                "at": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "id": f"{scope}-{i}"}
        if label is not None:
            line["session"] = f"{scope}{label}"
            if closed is not None:
                line["closed"] = closed
        lines.append(line)
    return lines


def _state(mem: Memory) -> list[Any]:
    return [(s.id, s.status, s.closed_reason, [(m.ext_id, m.seq) for m in mem.messages(s.id)])
            for scope in ("p", "q") for s in mem.sessions(scope=scope)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=st.lists(LINE, min_size=1, max_size=12), closed=st.sampled_from([None, "gap", "explicit"]),
       cut=st.integers(0, 12))
def test_an_import_again_reads_each_stored_line_once(tmp_path_factory: pytest.TempPathFactory,
                                                     spec: list[tuple[str, str | None, int]],
                                                     closed: str | None, cut: int) -> None:
    tmp = tmp_path_factory.mktemp("again")
    lines = _file(spec, closed)
    whole, prefix = tmp / "whole.jsonl", tmp / "prefix.jsonl"
    whole.write_text("".join(json.dumps(x) + "\n" for x in lines))
    prefix.write_text("".join(json.dumps(x) + "\n" for x in lines[:cut]))
    tracer = IdReads()
    cfg = load_config(environ={}, overrides={"db": str(tmp / "m.db")})
    with Memory(config=cfg, embedder=HashingEmbedder(dim=64), tracer=tracer) as mem:
        if cut:
            assert not mem.import_file(prefix).errors
        first = mem.import_file(whole)
        assert not first.errors and first.imported + first.skipped_duplicates == len(lines)
        before = _state(mem)
        tracer.clear()
        again = mem.import_file(whole)
        assert (again.imported, again.skipped_duplicates, again.errors) == (0, len(lines), ())
        assert _state(mem) == before
        assert dict(tracer.reads) == {x["id"]: 1 + (x["id"] in _label_ends(lines, closed))
                                      for x in lines}, tracer.reads


def _label_ends(lines: list[dict[str, Any]], closed: str | None) -> set[str]:
    """The last line of each label, which its end reads once more to find the session it
    closes (``_end_label``: one read a label, not a line): a label ends at the next label
    of its scope (closing its session ``explicit`` if the file gives no reason) or at the
    end of the file (only when the file gives a reason)."""
    ends, label, last = set(), {}, {}
    for x in lines:
        scope, name = x["scope"], x.get("session")
        if name is None:
            continue
        if scope in label and label[scope] != name:
            ends.add(last[scope])
        label[scope], last[scope] = name, x["id"]
    return ends | (set(last.values()) if closed is not None else set())


def test_a_line_whose_id_holds_another_message_is_still_refused(tmp_path: Path) -> None:
    lines = _file([("p", "A", 1), ("p", "A", 1), ("p", None, 1)], "gap")
    path = tmp_path / "f.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    cfg = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    with Memory(config=cfg, embedder=HashingEmbedder(dim=64)) as mem:
        mem.import_file(path)
        before = _state(mem)
        for i in range(len(lines)):
            other = [dict(x, text=x["text"] + " changed") if j == i else x
                     for j, x in enumerate(lines)]
            path.write_text("".join(json.dumps(x) + "\n" for x in other))
            report = mem.import_file(path)
            assert report.error_field == "id" and report.imported == 0, report
            assert report.errors[0][0] == i + 1 and report.errors[0][1].startswith(
                f"line {i + 1}: id: '{lines[i]['id']}' already exists"), report
            assert _state(mem) == before
