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

It also writes ``src/memlane/index/software_words.py`` (``--words-out``): the names of the same
ranking that an English word spells but that no ``.py`` file of Python's standard library
(``--stdlib``, the running Python's by default; its tests left out) uses as a word: "pandas",
"tenacity", "celery", "pendulum", not "build", "retry", "requests", "six" (session 19). The
offline backend reads them as entities only in a conversation about software. The lists written
by hand below them there (``TOOLS``, ``SERVICES``) are kept as they are.
"""

from __future__ import annotations

import argparse
import os
import re
import sysconfig
from pathlib import Path

from wordlists import entries, write_names_module

_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_OUT = Path(__file__).resolve().parent.parent / "src" / "memlane" / "index" / "software.py"
_WORDS_OUT = _OUT.with_name("software_words.py")
_WORD_RUN = re.compile(r"[a-z][a-z0-9]+")
_HAND_WRITTEN = "\nTOOLS = frozenset(("


def hand_written(path: str) -> str:
    """The lists written by hand below the generated one in ``path``, from ``TOOLS`` on (the tools,
    session 40, moved there from ``offline.py`` in session 41; the services, session 41), so that
    a new run keeps them."""
    text = Path(path).read_text("utf-8") if Path(path).exists() else ""
    at = text.find(_HAND_WRITTEN)
    return text[at:] if at >= 0 else ""


def english(paths: list[str]) -> set[str]:
    return {w.lower() for w in entries(paths) if not w[0].isupper()}


def stdlib_words(root: str) -> set[str]:
    """Every lower-cased run of letters and digits in the ``.py`` files under ``root`` (Python's
    standard library: its tests, ``idlelib`` and ``site-packages`` left out): the words code and
    its documentation use ("build", "retry", "schema", "requests", "six")."""
    out: set[str] = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in ("site-packages", "test", "tests", "idlelib")]
        for f in files:
            if f.endswith(".py"):
                out.update(_WORD_RUN.findall(Path(folder, f).read_text("utf-8", errors="replace").lower()))
    return out


def names(ranking: str, top: int, words: set[str], keep: bool = False) -> list[str]:
    """The ranking's names ranked ``top`` or higher that no word of ``words`` spells (``keep``:
    only those one does)."""
    out: dict[str, int] = {}
    with open(ranking, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        name_at, rank_at = header.index("name"), header.index("rank_among_15000_most_downloaded")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) <= rank_at or not cols[rank_at].strip().isdigit():
                continue
            rank, name = int(cols[rank_at]), cols[name_at].lower()
            if rank <= top and len(name) > 2 and _NAME.fullmatch(name) and (name in words) == keep:
                out[name] = rank
    return sorted(out, key=lambda n: (out[n], n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranking", required=True)
    ap.add_argument("--top", type=int, default=1000)
    ap.add_argument("--words", nargs="+", required=True)
    ap.add_argument("--out", default=str(_OUT))
    ap.add_argument("--stdlib", default=sysconfig.get_paths()["stdlib"],
                    help="Python's standard library, whose words are code's (default: this Python's)")
    ap.add_argument("--words-out", default=str(_WORDS_OUT))
    a = ap.parse_args()
    words = english(a.words)
    write_names_module(
        a.out,
        "The lower-case names of well-known software packages that no English word spells:\n"
        f"the {a.top} most downloaded packages of PyPI (a snapshot of its ranking), less those whose\n"
        "name is a word of Debian's English word lists (wamerican-large, wbritish-large) and\n"
        "those of two characters. Written by ``tools/software_names.py`` (docs/summary-eval.md,\n"
        "session 17); not from the labelled sets.",
        "SOFTWARE", names(a.ranking, a.top, words), "most downloaded first")
    code = stdlib_words(a.stdlib)
    write_names_module(
        a.words_out,
        "The lower-case names of well-known software packages that an English word spells but\n"
        f"no module of Python's standard library uses: the {a.top} most downloaded packages of PyPI (a\n"
        "snapshot of its ranking) that are words of Debian's English word lists (wamerican-large,\n"
        "wbritish-large) and no word of the standard library's sources (its tests left out), which\n"
        "is the vocabulary of code (\"build\", \"retry\", \"schema\", \"requests\", \"six\" are left out;\n"
        "\"pandas\", \"tenacity\", \"celery\" stay). Written by ``tools/software_names.py``\n"
        "(docs/summary-eval.md, session 19); not from the labelled sets. Below them, :data:`TOOLS` and\n"
        ":data:`SERVICES`, written by hand (sessions 40 and 41), which a new run of the tool keeps.",
        "SOFTWARE_WORDS", [n for n in names(a.ranking, a.top, words, keep=True) if n not in code],
        "most downloaded first", hand_written(a.words_out))


if __name__ == "__main__":
    main()
