"""Write ``src/memlane/index/software.py``: the lower-case names of well-known software
packages that no English word spells, which the offline backend reads as entities
("structlog", "httpx", "pytest-xdist") (docs/summary-eval.md, session 17).

    python tools/software_names.py --ranking pypi.tsv --top 1000 \
        --words /usr/share/dict/american-english-large /usr/share/dict/british-english-large

``--ranking``: a TSV of PyPI's packages with a header line and the columns ``name``,
``version``, ``month``, ``rank_among_15000_most_downloaded``, ``summary`` (a registry
snapshot; only the name and the rank are read). ``--top``: the packages ranked this high
or higher. ``--words``: word lists, one word a line (Debian's ``wamerican-large`` and
``wbritish-large``); a word that opens with a capital there is a proper name and is no
English word here, and a possessive "'s" is dropped. A package whose name is an English
word ("requests", "click", "black", "pandas", "poetry") is left out: in a sentence it is
mostly the word. Names of two characters ("uv", "av") are left out too. The list comes
from the registry's download ranking and a dictionary only, never from the labelled sets.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from wordlists import entries, write_names_module

_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_OUT = Path(__file__).resolve().parent.parent / "src" / "memlane" / "index" / "software.py"


def english(paths: list[str]) -> set[str]:
    return {w.lower() for w in entries(paths) if not w[0].isupper()}


def names(ranking: str, top: int, words: set[str]) -> list[str]:
    out: dict[str, int] = {}
    with open(ranking, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        name_at, rank_at = header.index("name"), header.index("rank_among_15000_most_downloaded")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) <= rank_at or not cols[rank_at].strip().isdigit():
                continue
            rank, name = int(cols[rank_at]), cols[name_at].lower()
            if rank <= top and len(name) > 2 and _NAME.fullmatch(name) and name not in words:
                out[name] = rank
    return sorted(out, key=lambda n: (out[n], n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranking", required=True)
    ap.add_argument("--top", type=int, default=1000)
    ap.add_argument("--words", nargs="+", required=True)
    ap.add_argument("--out", default=str(_OUT))
    a = ap.parse_args()
    write_names_module(
        a.out,
        "The lower-case names of well-known software packages that no English word spells:\n"
        f"the {a.top} most downloaded packages of PyPI (a snapshot of its ranking), less those whose\n"
        "name is a word of Debian's English word lists (wamerican-large, wbritish-large) and\n"
        "those of two characters. Written by ``tools/software_names.py`` (docs/summary-eval.md,\n"
        "session 17); not from the labelled sets.",
        "SOFTWARE", names(a.ranking, a.top, english(a.words)), "most downloaded first")


if __name__ == "__main__":
    main()
