"""Write ``src/memlane/index/propernames.py``: the proper names of Debian's English word lists
that no English word spells ("Daniel", "Rotterdam", "Singapore"; not "Will", "May", "Bill"),
which the offline backend reads as names even opening a sentence ("Daniel cries at old
photos") (docs/summary-eval.md, session 18).

    python tools/proper_names.py \
        --words /usr/share/dict/american-english-large /usr/share/dict/british-english-large

``--words``: word lists, one word a line (Debian's ``wamerican-large`` and ``wbritish-large``);
an entry that opens with a capital is a proper name, one that does not is an English word,
and a possessive "'s" is dropped. A proper name is kept when it is three letters or more ("Eu",
"Mr", "Ci" are symbols and abbreviations), letters only, its second letter small ("ABCs" is no
name), and no English word of the lists is spelled as it is in lower case. The list comes from the word lists only, never from the labelled sets.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wordlists import entries, write_names_module

_OUT = Path(__file__).resolve().parent.parent / "src" / "memlane" / "index" / "propernames.py"


def proper_names(paths: list[str]) -> list[str]:
    words: set[str] = set()
    names: set[str] = set()
    for w in entries(paths):
        (names if w[0].isupper() else words).add(w)
    return sorted(n for n in names if n.isalpha() and len(n) > 2 and n[1].islower() and n.lower() not in words)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", nargs="+", required=True)
    ap.add_argument("--out", default=str(_OUT))
    a = ap.parse_args()
    write_names_module(
        a.out,
        "Proper names that no English word spells: the capitalised entries of Debian's English\n"
        "word lists (wamerican-large, wbritish-large) of three letters or more, letters only, the\n"
        "second small, and not a lower-case entry of the lists as well. Written by ``tools/proper_names.py``\n"
        "(docs/summary-eval.md, session 18); not from the labelled sets.",
        "PROPER_NAMES", proper_names(a.words), "in alphabetical order")


if __name__ == "__main__":
    main()
