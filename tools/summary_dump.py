"""Dump every offline summary and extraction of a fixed corpus, both ways the offline
backend runs (the shipped sentence model, and the patterns alone), to check a speed change
leaves the output byte-identical.

    .venv/bin/python tools/summary_dump.py --lme longmemeval_s_dev.json.xz --limit 500 \
        --locomo locomo_dev.json --out before.jsonl
    (change the code)
    .venv/bin/python tools/summary_dump.py ... --out after.jsonl --check before.jsonl

The corpus is every packaged labelled set but the newest untouched one (``--skip``: nothing
runs on a set before it is measured once), the first ``--limit`` distinct LongMemEval
haystack sessions (read as ``memlane bench summaries --speed`` reads them) and, when given,
every LoCoMo session (speakers as named participants). One JSON line per session and way:
every summary field, every entity, fact, relation and observation. ``--check`` compares
with an earlier dump and lists the first sessions that differ (exit 1). ``--facts-model``:
the model way with the learned facts reader on (``summary.facts_model``; the patterns way
is unchanged, the reader needs a sentence model). (Session 35 folded
``summary_fingerprint.py``, written for the same check, into this tool.)
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
from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.types import Message


def corpus(lme: str | None, limit: int, locomo: str | None,
           skip: tuple[str, ...] = (FRESH[-1],)) -> list[tuple[str, list[Message]]]:
    """Every session the dump covers, named ``set:id``, ``lme:id`` or ``locomo:...``."""
    out: list[tuple[str, list[Message]]] = []
    for name in (*SETS, *TRAIN, *FRESH):
        if name not in skip:
            out.extend((f"{name}:{c.id}", messages_of(c)) for c in load_set(name))
    if lme:  # as bench.summaries.run.session_speed reads them
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
    ap.add_argument("--limit", type=int, default=500, help="LongMemEval sessions (default 500)")
    ap.add_argument("--locomo", help="a LoCoMo file")
    ap.add_argument("--skip", default=FRESH[-1],
                    help=f"labelled sets left out, comma-separated (default {FRESH[-1]}, the newest)")
    ap.add_argument("--out", required=True, help="where to write the dump (JSON lines)")
    ap.add_argument("--check", help="an earlier dump the new one must equal")
    ap.add_argument("--facts-model", action="store_true",
                    help="the model way with the learned facts reader on (summary.facts_model)")
    args = ap.parse_args(argv)
    sessions = corpus(args.lme, args.limit, args.locomo,
                      tuple(n.strip() for n in args.skip.split(",") if n.strip()))
    with Path(args.out).open("w", encoding="utf-8") as fh:
        for way, model in (("model", "shipped"), ("patterns", None)):
            backend = OfflineIntelligence(model, facts_model=args.facts_model)
            for sid, msgs in sessions:
                summary, extraction = backend.summarize(sid, msgs)
                fh.write(json.dumps({"way": way, "id": sid, "summary": _plain(summary),
                                     "extraction": _plain(extraction)}, ensure_ascii=False) + "\n")
    if not args.check:
        return 0
    old = Path(args.check).read_text(encoding="utf-8").splitlines()
    new = Path(args.out).read_text(encoding="utf-8").splitlines()
    diff = [i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
    if len(old) != len(new):
        print(f"{len(old)} sessions before, {len(new)} now", file=sys.stderr)
    for i in diff[:5]:
        line = json.loads(new[i])
        print(f"differs: {line['way']} {line['id']}", file=sys.stderr)
    print(f"{len(new)} sessions, {len(diff)} differ")
    return 1 if diff or len(old) != len(new) else 0


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        sys.exit(main())
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
