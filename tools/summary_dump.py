"""Dump every offline summary and extraction of a fixed corpus, to check a speed change
leaves the output byte-identical.

    .venv/bin/python tools/summary_dump.py --lme longmemeval_s_dev.json.xz --limit 3000 \
        --locomo locomo_dev.json --out before.jsonl
    (change the code)
    .venv/bin/python tools/summary_dump.py ... --out after.jsonl --check before.jsonl

The corpus is the labelled summary sets (dev and held-out), the first ``--limit``
distinct LongMemEval haystack sessions and, when given, every LoCoMo session (speakers as
named participants). One JSON line per session: every summary field, every entity, fact,
relation and observation. ``--check`` compares with an earlier dump and lists the first
sessions that differ (exit 1).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from memlane.bench.datasets import load_locomo, load_longmemeval
from memlane.bench.summaries.run import load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.types import Message


def corpus(lme: str | None, limit: int, locomo: str | None) -> list[tuple[str, list[Message]]]:
    out: list[tuple[str, list[Message]]] = []
    for name in ("dev", "heldout"):
        out.extend((f"{name}:{c.id}", messages_of(c)) for c in load_set(name))
    if lme:
        seen: set[str] = set()
        for q in load_longmemeval(lme):
            for s in q.sessions:
                if s.id in seen or not s.turns or len(seen) >= limit:
                    continue
                seen.add(s.id)
                out.append((f"lme:{s.id}", [
                    Message(id=t.index, session_id=1, scope=s.id, role=t.role, text=t.content,
                            at=s.date + timedelta(seconds=t.index), seq=t.index)
                    for t in s.turns]))
            if len(seen) >= limit:
                break
    if locomo:
        for conv in load_locomo(locomo):
            for sess in conv.sessions:
                out.append((f"locomo:{conv.sample_id}:{sess.index}", [
                    Message(id=i + 1, session_id=1, scope=conv.sample_id, role="user", text=t.text,
                            at=sess.date + timedelta(seconds=i), seq=i + 1, speaker=t.speaker)
                    for i, t in enumerate(sess.turns)]))
    return out


def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lme", help="a LongMemEval file (.json or .json.xz)")
    ap.add_argument("--limit", type=int, default=3000, help="LongMemEval sessions (default 3000)")
    ap.add_argument("--locomo", help="a LoCoMo file")
    ap.add_argument("--out", required=True, help="where to write the dump (JSON lines)")
    ap.add_argument("--check", help="an earlier dump the new one must equal")
    args = ap.parse_args(argv)
    backend = OfflineIntelligence()
    with Path(args.out).open("w", encoding="utf-8") as fh:
        for sid, msgs in corpus(args.lme, args.limit, args.locomo):
            summary, extraction = backend.summarize(sid, msgs)
            fh.write(json.dumps({"id": sid, "summary": _plain(summary),
                                 "extraction": _plain(extraction)}, ensure_ascii=False) + "\n")
    if not args.check:
        return 0
    old = Path(args.check).read_text(encoding="utf-8").splitlines()
    new = Path(args.out).read_text(encoding="utf-8").splitlines()
    diff = [i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
    if len(old) != len(new):
        print(f"{len(old)} sessions before, {len(new)} now", file=sys.stderr)
    for i in diff[:5]:
        print(f"differs: {json.loads(new[i])['id']}", file=sys.stderr)
    print(f"{len(new)} sessions, {len(diff)} differ")
    return 1 if diff or len(old) != len(new) else 0


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        sys.exit(main())
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
