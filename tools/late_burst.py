"""A burst of late messages into one closed, summarized session, with the index worker
running: how many times the session is summarized, and how long until it is summarized
with every message in (session 23, docs/session-intelligence.md).

    PYTHONPATH=src python tools/late_burst.py --messages 500 --rate 50 --poll 1 [--db URL]

An app replaying its outbox after a week offline delivers last week's messages one by one,
``--rate`` a second, while ``memory.start_worker(--poll)`` indexes; the offline backend
summarizes (no model), counted by a wrapper. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memlane.config import load_config
from memlane.index.offline import OfflineIntelligence
from memlane.memory import Memory
from memlane.testing import HashingEmbedder


class Counting(OfflineIntelligence):
    """The offline backend, counting its summaries and the seconds they took."""

    def __init__(self) -> None:
        super().__init__()
        self.calls, self.seconds = 0, 0.0

    def summarize(self, scope: str, messages: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return super().summarize(scope, messages)
        finally:
            self.calls += 1
            self.seconds += time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=500)
    ap.add_argument("--rate", type=float, default=50.0, help="late messages a second")
    ap.add_argument("--poll", type=float, default=1.0, help="the worker's poll_seconds")
    ap.add_argument("--db", default=None, help="default: a SQLite file in a temporary folder")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or str(Path(tmp) / "burst.db")
        intel = Counting()
        mem = Memory(config=load_config(environ={}, overrides={"db": url}),
                     embedder=HashingEmbedder(dim=256, char_trigrams=True), intelligence=intel)
        with mem:
            now = datetime.now(UTC)
            week_ago = now - timedelta(days=7)
            sid = 0
            for i in range(20):
                sid = mem.add_message("outbox", "user" if i % 2 == 0 else "assistant",
                                      f"turn {i}: we talked about the garden and the shed",
                                      at=week_ago + timedelta(minutes=i)).session_id
            mem.close_session("outbox")
            mem.index()
            base = intel.calls
            mem.add_message("outbox", "user", "good morning", at=now)
            mem.start_worker(poll_seconds=args.poll)
            t0 = time.perf_counter()
            for k in range(args.messages):
                at = week_ago + timedelta(minutes=19 * k / args.messages, seconds=1)
                mem.add_message("outbox", "user", f"late note {k} about the roses", at=at)
                wait = t0 + (k + 1) / args.rate - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            sent = time.perf_counter() - t0
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                s = mem.session(sid)
                if s.summarized and s.message_count == 20 + args.messages:
                    break
                time.sleep(0.05)
            done = time.perf_counter() - t0
            s = mem.session(sid)
            print(json.dumps({
                "messages": args.messages, "rate": args.rate, "poll": args.poll,
                "store": mem.store.url.split(":")[0],
                "summaries": intel.calls - base, "summary_seconds": round(intel.seconds, 2),
                "delivered_s": round(sent, 2), "summarized_all_s": round(done, 2),
                "summarized": s.summarized, "message_count": s.message_count,
            }))


if __name__ == "__main__":
    main()
