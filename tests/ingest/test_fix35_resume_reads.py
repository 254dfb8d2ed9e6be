"""``memlane import`` of a whole file after a prefix of it (``ingest.importer._resume``,
session 33): deciding whether a label's session is resumed read the stored message of the
last line already stored twice, once to find where the new lines start and again as the
line before them (session 35, fix35). Each id is now read once; the import ends as before
(one session holding every line, closed as the label says). Reads counted by the store's
``tracer`` (every SQL statement), on a real SQLite file."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.config import load_config
from memlane.ingest.importer import _resume
from memlane.ingest.sessionize import prepare
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, IdReads

START = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
LABELLED, AFTER = 2, 3


def _lines() -> list[dict]:
    """A label closed by a gap (two lines), then three lines without a label, a minute apart."""
    at = [(START + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
          for i in range(LABELLED + AFTER)]
    return [{"scope": "p", "role": "user", "text": f"line {i}", "at": at[i], "id": f"p-{i}",
             **({"session": "L0", "closed": "gap"} if i < LABELLED else {})}
            for i in range(LABELLED + AFTER)]


@pytest.mark.parametrize("cut", range(LABELLED, LABELLED + AFTER + 1))
def test_resume_reads_each_id_once(tmp_path: Path, cut: int) -> None:
    tracer = IdReads()
    reads = tracer.reads
    cfg = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    lines = _lines()
    prefix = tmp_path / "prefix.jsonl"
    prefix.write_text("".join(json.dumps(x) + "\n" for x in lines[:cut]))
    with Memory(config=cfg, embedder=HashingEmbedder(dim=64), tracer=tracer) as mem:
        assert not mem.import_file(prefix).errors
        made = [prepare(cfg.ingest, x["scope"], x["role"], x["text"], x["at"], ext_id=x["id"], now=START)
                for x in lines]
        label = replace(made[0], session="L0", closed="gap")
        run = made[LABELLED:]
        reads.clear()
        with mem.store.atomic():
            _resume(mem.store, run, {"p": replace(made[LABELLED - 1], session="L0")},
                    {"p": (label, "gap")}, {})
        assert reads and max(reads.values()) == 1, reads
        (session,) = mem.sessions(scope="p")
        # resumed (the prefix's end had closed it) unless every line was stored already
        assert session.status == ("closed" if cut == LABELLED + AFTER else "open"), cut
