"""``memlane compact`` run twice at once writes each decision record and roll-up once
(session 27).

Compaction reads the summaries, embeds each new record's text, then writes it. A second
compaction that ran in between (two `memlane compact` at once: a cron job and a user) had
folded the same summaries and written the same weeks: the first wrote them all again
(LoCoMo's first three conversations, two processes: 30 decision records instead of 15, each
summary absorbed twice). The records are now looked for again under the scope's links lock.
Here the second compaction runs inside the first one's embedding call, between its read
and its write, on its own ``Memory`` (its own connections), on both stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from memlane.config import load_config
from memlane.index.embed import text_hash
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, add_sessions

NOW = datetime(2024, 9, 2, tzinfo=UTC)


def _run(n: int, subject: str) -> list[tuple[str, str]]:
    return [("user", f"I'm training for the Lisbon half marathon, {subject} {n} of the plan."),
            ("assistant", "Nice. How did the long run go?"),
            ("user", "I ran 14 km on Sunday and my knee felt fine. I decided to add a rest day."),
            ("assistant", "Good call, keep the easy runs easy.")]


class _Meddler(HashingEmbedder):
    """Runs ``then`` once, the first time it is asked for a text starting with ``prefix``."""

    def __init__(self, prefix: str) -> None:
        super().__init__(dim=64)
        self.prefix = prefix
        self.then: Any = None

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        if self.then is not None and any(t.startswith(self.prefix) for t in texts):
            then, self.then = self.then, None
            then()
        return super().embed_batch(texts)


def _open(url: str, embedder: HashingEmbedder) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides={"db": url}), embedder=embedder)


@pytest.mark.parametrize("between", ["Decision record", "Week "])
def test_two_compactions_at_once_write_each_record_once(db_url: str, between: str) -> None:
    meddler = _Meddler(between)
    with _open(db_url, meddler) as mem:
        # three old sessions on one topic (a decision record), and two of another scope in
        # one past week (a roll-up)
        add_sessions(mem, [(200, _run(1, "week")), (199, _run(2, "week")),
                           (198, _run(3, "week"))], now=NOW, scope="race")
        add_sessions(mem, [(10, _run(1, "day")), (9, _run(2, "day"))], now=NOW, scope="week")
        with _open(db_url, HashingEmbedder(dim=64)) as other:
            seen: list[Any] = []
            meddler.then = lambda: seen.append(other.compact(now=NOW))
            first = mem.compact(now=NOW)
        assert seen, "the second compaction did not run"
        (second,) = seen
        records = mem.store.items_of_kind("decision", "race")
        rollups = [s for s in mem.store.items_of_kind("summary")
                   if s.extra.get("rollup") == "week"]
        # one record absorbing the three summaries, one roll-up of the week's two
        assert len(records) == 1 and len(records[0].extra["absorbed"]) == 3, records
        assert [(r.scope, len(r.children)) for r in rollups] == [("week", 2)], rollups
        assert first.decision_records + second.decision_records == 1
        assert first.weekly_rollups + second.weekly_rollups == 1
        assert mem.stats()["counters"]["summaries_absorbed"] == 3


@pytest.mark.parametrize("between", ["Decision record", "Week "])
def test_a_session_erased_during_a_compaction(db_url: str, between: str) -> None:
    """An erase between a compaction's read and its write: the record of the erased
    summary is not written (a roll-up's link to it failed the compaction, "item N does not
    exist"), and no vector of the record's text is cached (it was, before the write)."""
    meddler = _Meddler(between)
    with _open(db_url, meddler) as mem:
        add_sessions(mem, [(200, _run(1, "week")), (199, _run(2, "week")),
                           (198, _run(3, "week"))], now=NOW, scope="race")
        add_sessions(mem, [(10, _run(1, "day")), (9, _run(2, "day"))], now=NOW, scope="week")
        doomed = mem.sessions("race" if between == "Decision record" else "week")[0].id
        with _open(db_url, HashingEmbedder(dim=64)) as other:
            meddler.then = lambda: other.forget_session(doomed)
            report = mem.compact(now=NOW)
        assert meddler.then is None, "the erase did not run"
        if between == "Decision record":
            assert report.decision_records == 0
            assert mem.store.items_of_kind("decision") == []
        else:
            assert report.weekly_rollups == 0
            assert not [s for s in mem.store.items_of_kind("summary", "week")
                        if s.extra.get("rollup")]
        run = mem.store._run  # type: ignore[attr-defined]
        items = run("SELECT id, text FROM items").fetchall()  # superseded ones too
        texts = {text_hash(t) for _, t in items}
        texts |= {text_hash(t) for t in mem.store.vector_texts([i for i, _ in items]).values()}
        cached = {bytes(r[0]) for r in run("SELECT hash FROM embed_cache").fetchall()}
        assert cached <= texts, "a cached vector of a text no item holds"
