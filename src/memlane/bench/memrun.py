"""Running a conversation through a fresh memlane database: shared by both runners.

``FreshMemory`` opens a ``Memory`` on a temporary SQLite file (deleted on exit, with its
``-wal``/``-shm`` files); ``ingest`` adds sessions in order, one ``add_message`` per turn and
``close_session`` after each session, and returns the map ``(memlane session id, seq) ->
benchmark turn id`` that turns search hits back into the benchmark's ids. ``Timings``
collects the seconds spent adding, indexing and searching.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from memlane.errors import ValidationError
from memlane.protocols import Embedder

__all__ = [
    "FreshMemory",
    "SessionInput",
    "Timings",
    "TurnInput",
    "make_embedder",
    "peak_rss_mb",
    "percentile",
    "tier_of",
]


@dataclass(frozen=True, slots=True)
class TurnInput:
    ext_id: str
    """The benchmark's id for this turn (``<session>_<index>`` or a LoCoMo dia_id)."""
    role: str
    text: str
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class SessionInput:
    at: datetime
    turns: Sequence[TurnInput]


@dataclass
class Timings:
    add_seconds: float = 0.0
    index_seconds: float = 0.0
    turns_added: int = 0
    turns_skipped: int = 0
    """Turns add_message refused (e.g. empty text); they cannot be retrieved."""
    non_turn_hits: int = 0
    search_seconds: list[float] = field(default_factory=list)
    warm_seconds: float = 0.0
    """Spent by ``FreshMemory.warm`` (``--warm``): the meaning tier's vectors computed ahead."""

    def state(self) -> dict[str, Any]:
        """Every field as it is (a finished unit's, written to ``progress.jsonl``)."""
        return asdict(self)

    def merge(self, state: dict[str, Any]) -> None:
        """Add a unit's ``state()``: sums, and its search times after these."""
        for name, value in state.items():
            if isinstance(value, list):
                getattr(self, name).extend(value)
            else:
                setattr(self, name, getattr(self, name) + value)

    def as_dict(self) -> dict[str, Any]:
        lat = self.search_seconds
        total_ingest = self.add_seconds + self.index_seconds
        return {
            "turns_added": self.turns_added,
            "turns_skipped": self.turns_skipped,
            "add_seconds": round(self.add_seconds, 3),
            "index_seconds": round(self.index_seconds, 3),
            "index_turns_per_s": _rate(self.turns_added, self.index_seconds),
            "ingest_turns_per_s": _rate(self.turns_added, total_ingest),
            "searches": len(lat),
            "search_ms_p50": round(1000 * percentile(lat, 50), 2) if lat else None,
            "search_ms_p95": round(1000 * percentile(lat, 95), 2) if lat else None,
            "search_ms_mean": round(1000 * sum(lat) / len(lat), 2) if lat else None,
            "non_turn_hits": self.non_turn_hits,
            **({"warm_seconds": round(self.warm_seconds, 3)} if self.warm_seconds else {}),
        }


def _rate(n: int, seconds: float) -> float | None:
    return round(n / seconds, 1) if seconds > 0 else None


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default), 0.0 for no values."""
    if not values:
        return 0.0
    import numpy as np

    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def peak_rss_mb() -> float:
    """Peak resident set size of this process (ru_maxrss: KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024, 1)


def as_utc(dt: datetime) -> datetime:
    """Benchmark dates carry no zone; read them as UTC."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt


def tier_of(config: Any, preset: str | None = None) -> str:
    """The retrieval tier a run uses: ``meaning`` (a transformer re-scores the best
    candidates) or ``quick`` (lexical + static vectors only)."""
    from memlane.retrieve.presets import PRESETS

    p = PRESETS.get(preset or "")
    if p is not None and p.meaning is not None:
        return "meaning" if p.meaning else "quick"
    r = getattr(config, "retrieval", None)
    return "meaning" if r is not None and r.meaning else "quick"


def make_embedder(name: str | None) -> Embedder:
    """The named embedder (default: the configured default) wrapped in a CachedEmbedder."""
    from memlane.backends.embed import CachedEmbedder
    from memlane.backends.registry import make_embedder as build
    from memlane.config import Config

    return CachedEmbedder(build(Config(), name))


class FreshMemory:
    """A ``Memory`` on a new temporary database file, removed on exit.

    When ``config.db`` is a PostgreSQL URL the memory lives there instead, and every
    scope this object is given is made unique to it (the database is shared by all the
    questions of a run and is left as it is: use a scratch database).
    """

    def __init__(
        self, embedder: Embedder, *, config: Any = None, workdir: str | Path | None = None
    ) -> None:
        from memlane import Memory
        from memlane.store import parse_db_url

        self._dir = tempfile.TemporaryDirectory(prefix="memlane-bench-", dir=workdir)
        self.path = Path(self._dir.name) / "bench.db"
        url = getattr(config, "db", "") or ""
        shared = bool(url) and parse_db_url(url).is_postgres
        self._prefix = f"{uuid.uuid4().hex[:12]}:" if shared else ""
        self.mem = Memory(url if shared else self.path, config=config, embedder=embedder)

    def scope_of(self, scope: str) -> str:
        """The scope as stored (unique to this object on a shared database)."""
        return self._prefix + scope

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.mem.close()
        finally:
            self._dir.cleanup()

    def ingest(
        self, scope: str, sessions: Iterable[SessionInput], timings: Timings
    ) -> dict[tuple[int, int], str]:
        """Add each session's turns then close it; map (session id, seq) -> ext id."""
        key: dict[tuple[int, int], str] = {}
        scope = self._prefix + scope
        t0 = time.perf_counter()
        for s in sessions:
            at = as_utc(s.at)
            for t in s.turns:
                try:
                    msg = self.mem.add_message(scope, t.role, t.text, at=at, speaker=t.speaker)
                except ValidationError:
                    timings.turns_skipped += 1
                    continue
                key[(msg.session_id, msg.seq)] = t.ext_id
                timings.turns_added += 1
            self.mem.close_session(scope)
        timings.add_seconds += time.perf_counter() - t0
        return key

    def index(self, now: datetime, timings: Timings) -> Any:
        t0 = time.perf_counter()
        report = self.mem.index(now=as_utc(now))
        timings.index_seconds += time.perf_counter() - t0
        return report

    def warm(self, scope: str, timings: Timings) -> int:
        """What the index worker does with the meaning tier on (``retrieval.meaning_worker``):
        the transformer vectors of every session of ``scope``, computed and cached ahead of
        the queries (the benches' ``--warm``). Returns how many it computed."""
        from memlane.retrieve.meaning import shared_tier

        r = self.mem.config.retrieval
        t0 = time.perf_counter()
        tier = shared_tier(r.meaning_max_tokens, r.meaning_window)
        sessions = self.mem.store.list_sessions(scope=self._prefix + scope, limit=1_000_000)
        n = tier.warm(self.mem.store, [s.id for s in sessions])
        timings.warm_seconds += time.perf_counter() - t0
        return n

    def search(
        self,
        query: str,
        scope: str,
        k: int,
        now: datetime,
        key: dict[tuple[int, int], str],
        timings: Timings,
        **search_kwargs: Any,
    ) -> list[str]:
        """The hits' benchmark turn ids, best first (non-turn hits counted and skipped).

        ``search_kwargs`` go to ``Memory.search`` (e.g. ``preset="flat"``).
        """
        t0 = time.perf_counter()
        hits = self.mem.search(query, scope=self._prefix + scope, k=k, now=as_utc(now),
                               **search_kwargs)
        timings.search_seconds.append(time.perf_counter() - t0)
        out = []
        for h in hits:
            item = h.item
            ext = None
            if item.kind == "turn" and item.session_id is not None and item.seq is not None:
                ext = key.get((item.session_id, item.seq))
            if ext is None:
                timings.non_turn_hits += 1
                continue
            out.append(ext)
        return out
