"""Write ``src/memlane/index/englishwords.bin``: the lower-case entries of Debian's English word
lists as a compact hashed set, which the offline backend asks whether a capitalised word opening
a sentence is an ordinary English word ("Zendesk estimates…" names a product; "Frontend is
slow" names nothing) (docs/summary-eval.md, session 20).

    python tools/english_words.py \
        --words /usr/share/dict/american-english-large /usr/share/dict/british-english-large

``--words``: word lists, one word a line (Debian's ``wamerican-large`` and ``wbritish-large``);
an entry that does not open with a capital is an English word, a possessive "'s" dropped. Each
word is stored as the CRC-32 of its UTF-8 bytes, four bytes little-endian, sorted and without
repeats (119k words, 476 kB; :mod:`memlane.index.englishwords` reads it). The list comes from
the word lists only, never from the labelled sets.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from array import array
from pathlib import Path

from wordlists import entries

_OUT = Path(__file__).resolve().parent.parent / "src" / "memlane" / "index" / "englishwords.bin"


def english(paths: list[str]) -> set[str]:
    return {w for w in entries(paths) if not w[0].isupper()}


def write(words: set[str], out: Path) -> int:
    hashes = array("I", sorted({zlib.crc32(w.encode("utf-8")) for w in words}))
    if hashes.itemsize != 4:
        raise SystemExit("array('I') is not four bytes on this platform")
    if sys.byteorder != "little":
        hashes.byteswap()
    out.write_bytes(hashes.tobytes())
    return len(hashes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", nargs="+", required=True, help="word lists, one word a line")
    ap.add_argument("--out", default=str(_OUT))
    args = ap.parse_args()
    words = english(args.words)
    n = write(words, Path(args.out))
    print(f"{len(words)} words, {n} hashes -> {args.out}")


if __name__ == "__main__":
    main()
