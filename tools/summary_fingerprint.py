"""A fingerprint of the offline summarizer's output, to check a speed change leaves every
output unchanged: one hash per session of every summary field, entity, fact, relation,
topic and observation, both ways (the shipped sentence model, and the patterns alone).

    PYTHONPATH=src .venv/bin/python tools/summary_fingerprint.py \
        --lme longmemeval_s_dev.json.xz --out before.tsv
    (change the code)
    PYTHONPATH=src .venv/bin/python tools/summary_fingerprint.py \
        --lme longmemeval_s_dev.json.xz --out after.tsv --check before.tsv

The corpus: every packaged labelled set (:data:`SETS`, :data:`TRAIN`, :data:`FRESH`) except
heldout31 (measured once, by its own rule: nothing else runs on it), and the first
``--limit`` (500) distinct LongMemEval haystack sessions, read as ``bench summaries --speed``
reads them; ``--locomo`` adds every LoCoMo session (speakers as named participants). One
line per session and way: ``way<TAB>session<TAB>sha256``, and a last line hashing them
all. ``--check`` compares with an earlier fingerprint, lists the first sessions that
differ and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from memlane.bench.datasets import load_locomo, load_longmemeval
from memlane.bench.summaries.run import FRESH, SETS, TRAIN, load_set, messages_of
from memlane.index.offline import OfflineIntelligence
from memlane.types import Message

_NEVER = ("heldout31",)
"""Sets nothing else may run on (measured once at their session's start and end)."""


def corpus(lme: str | None, limit: int, locomo: str | None) -> list[tuple[str, list[Message]]]:
    """Every session the fingerprint covers, named ``set:id``, ``lme:id`` or ``locomo:...``."""
    out: list[tuple[str, list[Message]]] = []
    for name in (*SETS, *TRAIN, *FRESH):
        if name not in _NEVER:
            out.extend((f"{name}:{c.id}", messages_of(c)) for c in load_set(name))
    if lme:  # as bench.summaries.run.session_speed reads them
        seen: set[str] = set()
        for q in load_longmemeval(lme):
            for s in q.sessions:
                if s.id in seen or not s.turns:
                    continue
                seen.add(s.id)
                out.append((f"lme:{s.id}", [
                    Message(id=t.index, session_id=1, scope=s.id, role=t.role, text=t.content,
                            at=s.date + timedelta(seconds=t.index), seq=t.index)
                    for t in s.turns]))
                if len(seen) >= limit:
                    break
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


def _digest(summary: Any, extraction: Any) -> str:
    # repr of the dataclasses: every field, in order, floats to the last bit
    return hashlib.sha256(repr((summary, extraction)).encode("utf-8")).hexdigest()


def fingerprint(sessions: list[tuple[str, list[Message]]]) -> list[str]:
    """``way<TAB>session<TAB>hash`` for every session, both ways, and the hash of them all."""
    lines = []
    for way, model in (("model", "shipped"), ("patterns", None)):
        backend = OfflineIntelligence(model)
        for sid, msgs in sessions:
            lines.append(f"{way}\t{sid}\t{_digest(*backend.summarize(sid, msgs))}")
    total = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    return [*lines, f"all\t{len(lines)}\t{total}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--lme", help="a LongMemEval file (.json or .json.xz)")
    ap.add_argument("--limit", type=int, default=500, help="LongMemEval sessions (default 500)")
    ap.add_argument("--locomo", help="a LoCoMo file")
    ap.add_argument("--out", required=True, help="where to write the fingerprint")
    ap.add_argument("--check", help="an earlier fingerprint the new one must equal")
    args = ap.parse_args(argv)
    new = fingerprint(corpus(args.lme, args.limit, args.locomo))
    Path(args.out).write_text("\n".join(new) + "\n", encoding="utf-8")
    print(new[-1])
    if not args.check:
        return 0
    old = Path(args.check).read_text(encoding="utf-8").splitlines()
    if len(old) != len(new):
        print(f"{len(old)} lines before, {len(new)} now", file=sys.stderr)
    diff = [b for a, b in zip(old, new, strict=False) if a != b]
    for line in diff[:5]:
        print("differs: " + " ".join(line.split("\t")[:2]), file=sys.stderr)
    print(json.dumps({"lines": len(new), "differ": len(diff)}))
    return 1 if diff or len(old) != len(new) else 0


if __name__ == "__main__":
    from memlane.bench.datasets import DatasetError

    try:
        sys.exit(main())
    except DatasetError as exc:  # a data file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
