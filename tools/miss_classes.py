"""LoCoMo's missing evidence by what it shares with the question (docs/retrieval.md, session 24).

    memlane bench locomo --data locomo_dev.json --out before
    .venv/bin/python tools/miss_classes.py --data locomo_dev.json --rankings before [--cat 1]

Reads no database: the bench's rankings (``rankings-locomo.jsonl``, the first 100 turns of
each question) and the dataset. For every evidence turn outside the first 10 of a question
missed at R_all@10 (of ``--cat``, default 1) it prints where the turn ranks (11-20, 21-50,
51-100, not in the 100) and the first of these classes that fits it, by the question's
content words (stopwords out, a crude suffix stem):

- ``name``: the turn holds a capitalised word of the question that is no speaker's name (an
  entity: a place, a pet, a book);
- ``word``: the turn holds another content word of the question;
- ``speaker``: the turn holds no content word of the question, but it is said by a speaker
  the question names;
- ``nothing``: none of these (a "yes" or a photo of the thing the question names in other
  words).

Beside the class, whether the previous turn holds a question word the turn lacks (the
index already keys a short turn by the previous message's words, ``context_words``), whether
only the next turn does (the words a turn indexed with its reply would gain), and whether its session holds another
evidence turn of the same question that ranks in the first 10 (``sibling in top 10``): the
two signals a turn indexed with its neighbour, or a session's hit lifting its evidence
siblings, would use.

``--meaning VECTORS`` (an .npz of ``tools/meaning_vectors.py``; needs the ``meaning`` extra)
also ranks each missing piece in the meaning tier's own list (``retrieval.meaning_list``: the
transformer's exact cosine of the question against every turn of the conversation, the
bundled MiniLM) and in the same list over the turns of the one speaker the question names,
by the piece's place in the rankings (11-100 or not in 100): which pieces such a list could
bring in (docs/retrieval.md, session 27).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stage_probe import stem  # noqa: E402

from memlane.bench.datasets import DatasetError, load_locomo  # noqa: E402
from memlane.bench.locomo import turn_text  # noqa: E402
from memlane.bench.report import read_rankings  # noqa: E402
from memlane.index.embed import text_hash  # noqa: E402
from memlane.index.expand import context_words  # noqa: E402
from memlane.retrieve.text import STOPWORDS  # noqa: E402

EXTRA_STOP = {"kind", "type", "thing", "things", "activities", "activity", "both", "has", "ever",
              "many", "much", "likely", "would", "might", "something", "someone", "one"}


def content(text: str) -> dict[str, str]:
    """stem -> the word as written, for the text's content words."""
    out: dict[str, str] = {}
    for w in re.findall(r"[A-Za-z][A-Za-z'\u2019]+", text):
        lw = w.lower()
        if lw in STOPWORDS or lw in EXTRA_STOP or len(lw) < 3:
            continue
        out.setdefault(stem(lw), w)
    return out


def place(rank: int | None) -> str:
    if rank is None:
        return "not in 100"
    return "11-20" if rank <= 20 else "21-50" if rank <= 50 else "51-100"


def meaning_place(rank: int) -> str:
    return ("1-10" if rank <= 10 else "11-20" if rank <= 20 else "21-50" if rank <= 50
            else "51-100" if rank <= 100 else "> 100")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--rankings", required=True, help="a bench --out directory")
    ap.add_argument("--cat", default="1", help="categories, e.g. 1 or 1,2,3,4")
    ap.add_argument("--list", action="store_true", help="print every missing piece")
    ap.add_argument("--meaning", metavar="VECTORS", help="rank the missing pieces in the "
                    "transformer's own list over the conversation's turns (an .npz of "
                    "tools/meaning_vectors.py)")
    ap.add_argument("--stages", help="an --out of tools/stage_probe.py: cross the classes with "
                    "the stage that loses the piece (a, b, c) and whether it is a candidate")
    args = ap.parse_args()
    cats = {int(c) for c in args.cat.split(",")}
    ranked = read_rankings(Path(args.rankings), "locomo")
    stages: dict[tuple[str, str], dict] = {}
    if args.stages:
        for q, row in json.loads(Path(args.stages).read_text())["main"].items():
            for m in row.get("missing", []):
                stages[(q, m["dia"])] = m
    vectors = tier = None
    if args.meaning:
        from memlane.retrieve.meaning import load_vectors, shared_tier

        try:
            vectors = load_vectors(args.meaning)
        except ValueError as exc:
            raise DatasetError(str(exc)) from None
        tier = shared_tier()
    deep: Counter[tuple[str, str, str]] = Counter()
    cross: Counter[tuple[str, str]] = Counter()
    cls: Counter[str] = Counter()
    places: Counter[tuple[str, str]] = Counter()
    extra: Counter[str] = Counter()
    n_q = n_miss = 0
    for conv in load_locomo(args.data):
        speakers = {conv.speaker_a.lower(), conv.speaker_b.lower()}
        turns = {t.dia_id: t for s in conv.sessions for t in s.turns}
        order = {t.dia_id: (s.index, i) for s in conv.sessions for i, t in enumerate(s.turns)}
        by_pos = {v: k for k, v in order.items()}
        if vectors is not None:
            vturns = [t for t in turns.values() if text_hash(turn_text(t)) in vectors]
            matrix = np.stack([vectors[text_hash(turn_text(t))] for t in vturns])
        for qa in conv.qa:
            if qa.category not in cats or not qa.evidence:
                continue
            n_q += 1
            r = ranked.get(qa.qa_id, [])
            top = set(r[:10])
            ev = list(dict.fromkeys(qa.evidence))
            missing = [e for e in ev if e not in top]
            if not missing:
                continue
            n_miss += 1
            q = content(qa.question)
            named = {s for s in speakers if s in qa.question.lower()}
            names = {k for k, w in q.items() if w[0].isupper() and w.lower() not in speakers}
            words = set(q) - names - {stem(s) for s in speakers}
            if vectors is not None and tier is not None:
                by_cos = np.argsort(-(matrix @ tier.query_vector(qa.question)), kind="stable")
                own = {vturns[j].dia_id: r for r, j in enumerate(by_cos, 1)}
                spoken = [j for j in by_cos if len(named) == 1
                          and vturns[j].speaker.lower() in named]
                own_speaker = {vturns[j].dia_id: r for r, j in enumerate(spoken, 1)}
            for e in missing:
                t = turns[e]
                tc = set(content(turn_text(t)))
                rank = r.index(e) + 1 if e in r else None
                if names & tc:
                    c = "name"
                elif words & tc:
                    c = "word"
                elif t.speaker.lower() in named:
                    c = "speaker"
                else:
                    c = "nothing"
                cls[c] += 1
                if (st := stages.get((qa.qa_id, e))) is not None:
                    cross[(c, st["cls"] + (" cand" if st["candidate"] else " none"))] += 1
                places[(c, place(rank))] += 1
                if vectors is not None:
                    where = "not in 100" if rank is None else "11-100"
                    for lst, ranks in (("all turns", own), ("the named speaker's", own_speaker)):
                        if e in ranks:
                            deep[(lst, where, meaning_place(ranks[e]))] += 1
                s, i = order[e]
                qw = names | words
                prev = turns.get(by_pos.get((s, i - 1), ""))
                nxt = turns.get(by_pos.get((s, i + 1), ""))
                # what the index already holds: the previous message's words (context_words)
                keyed = tc | (set(content(context_words(turn_text(prev), turn_text(t))))
                              if prev else set())
                if prev and qw & (set(content(turn_text(prev))) - tc):
                    extra["the previous turn holds a question word the turn lacks"] += 1
                if nxt and qw & (set(content(turn_text(nxt))) - keyed):
                    extra["only the next turn holds a question word (not in the turn's keys)"] += 1
                if any(order[o][0] == s for o in ev if o in top):
                    extra["an evidence sibling of its session is in the top 10"] += 1
                if any(order[o][0] == s for o in ev if o != e):
                    extra["another evidence turn in its session"] += 1
                if t.blip_caption:
                    extra["shares a photo"] += 1
                if args.list:
                    print(f"{qa.qa_id} [{c}, {place(rank)}] {qa.question!r} <- "
                          f"{t.speaker}: {turn_text(t)[:140]!r}")
    total = sum(cls.values())
    print(f"categories {sorted(cats)}: {n_q} questions, {n_miss} missed at R_all@10, "
          f"{total} missing pieces")
    print("class | pieces | 11-20 | 21-50 | 51-100 | not in 100")
    for c in ("name", "word", "speaker", "nothing"):
        cells = [str(places[(c, p)]) for p in ("11-20", "21-50", "51-100", "not in 100")]
        print(f"{c} | {cls[c]} | " + " | ".join(cells))
    if cross:
        cols = sorted({k[1] for k in cross})
        print("class | " + " | ".join(cols))
        for c in ("name", "word", "speaker", "nothing"):
            print(f"{c} | " + " | ".join(str(cross[(c, k)]) for k in cols))
    if deep:
        cols = ("1-10", "11-20", "21-50", "51-100", "> 100")
        print("the transformer's own list | piece's place | " + " | ".join(cols))
        for lst in ("all turns", "the named speaker's"):
            for where in ("11-100", "not in 100"):
                print(f"{lst} | {where} | " + " | ".join(str(deep[(lst, where, k)]) for k in cols))
    for k, v in extra.most_common():
        print(f"{k}: {v}")


if __name__ == "__main__":
    try:
        main()
    except DatasetError as exc:  # a data or rankings file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
