"""What an erase costs on SQLite (docs/erasure.md): a database of SCOPES scopes of
SESSIONS sessions of MESSAGES messages each (turns indexed with the hashing embedder, no
session intelligence, so it builds in seconds), then, on copies of it, back to back:
``forget_session``, ``forget_scope`` and ``forget_item`` of a turn (session 23) as shipped,
and the same without the full-text ``optimize`` (the one step whose cost grows with the
whole database).

    PYTHONPATH=src python tools/erase_cost.py [--scopes 200] [--sessions 5] [--messages 50]
        [--only session|scope|item]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder

WORDS = ("porto lisbon faro hiking sushi jazz chess pottery tennis bakery sister market "
         "train river garden concert museum recipe coffee budget").split()


def _memory(path: Path) -> Memory:
    return Memory(str(path), config=load_config(environ={}, overrides={"indexing": {"enabled": False}}),
                  embedder=HashingEmbedder(dim=256, char_trigrams=True))


def build(path: Path, scopes: int, sessions: int, messages: int) -> None:
    mem = _memory(path)
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    n = 0
    for s in range(scopes):
        batch = []
        for k in range(sessions):
            at = t0 + timedelta(days=k)
            for i in range(messages):
                words = " ".join(WORDS[(n * 7 + j * 3) % len(WORDS)] for j in range(12))
                batch.append({"scope": f"user-{s}", "role": "user" if i % 2 == 0 else "assistant",
                              "text": f"{words} {n}", "at": at + timedelta(minutes=i)})
                n += 1
        mem.add_messages(batch)
        mem.close_idle(t0 + timedelta(days=sessions + 1))
    mem.index(now=t0 + timedelta(days=sessions + 1))
    mem.close()


def timed(src: Path, work: str, optimize: bool) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "copy.db"
        shutil.copy(src, path)
        mem = _memory(path)
        if not optimize:
            mem.store._erase_finish = lambda: None  # type: ignore[method-assign]
        sid = mem.sessions("user-1", limit=1)[0].id
        turn = mem.store.session_items(sid, kind="turn")[3].id
        t = time.perf_counter()
        if work == "scope":
            mem.forget_scope("user-1")
        elif work == "item":
            mem.forget_item(turn)
        else:
            mem.forget_session(sid)
        took = time.perf_counter() - t
        mem.close()
        return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scopes", type=int, default=200)
    ap.add_argument("--sessions", type=int, default=5)
    ap.add_argument("--messages", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["session", "scope", "item"], default=None,
                    help="one erase: forget_session, forget_scope or forget_item of a turn")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "base.db"
        t = time.perf_counter()
        build(src, a.scopes, a.sessions, a.messages)
        items = a.scopes * a.sessions * a.messages
        print(f"built {items:,} messages/items in {time.perf_counter() - t:.1f}s,"
              f" {src.stat().st_size / 1e6:.0f} MB")
        for work in [a.only] if a.only else ("session", "scope", "item"):
            for optimize in (True, False):
                runs = [timed(src, work, optimize) for _ in range(a.repeat)]
                label = "as shipped" if optimize else "without optimize"
                print(f"forget_{work} {label}: " + ", ".join(f"{r * 1e3:.0f} ms" for r in runs))


if __name__ == "__main__":
    main()
