"""Whether a word is an ordinary English word: a lower-case entry of Debian's English word lists
(wamerican-large, wbritish-large; 119k words), kept as the sorted CRC-32 hashes of the words in
``englishwords.bin`` (476 kB, written by ``tools/english_words.py``; docs/summary-eval.md,
session 20; SCOWL's copyright and permission notice, which the lists carry, ships beside it as
``englishwords.LICENSE``). Read once per process on first use into an ``array`` (half a megabyte); a word
that is not listed hashes to a listed word's value about once in 36,000 asks, and is then taken
for a word. Nothing is downloaded; not from the labelled sets."""

from __future__ import annotations

import sys
import threading
import zlib
from array import array
from bisect import bisect_left

__all__ = ["DATA", "is_english_word"]

DATA = "englishwords.bin"
_LOCK = threading.Lock()
_TABLE: list[array[int]] = []


def _table() -> array[int]:
    if not _TABLE:
        with _LOCK:
            if not _TABLE:
                from importlib import resources

                hashes = array("I")
                hashes.frombytes((resources.files("memlane.index") / DATA).read_bytes())
                if sys.byteorder != "little":
                    hashes.byteswap()
                _TABLE.append(hashes)
    return _TABLE[0]


def is_english_word(word: str) -> bool:
    """Whether ``word``, lower-cased, is an entry of the word lists ("frontend" is not,
    "front" and "end" are)."""
    table = _table()
    h = zlib.crc32(word.lower().encode("utf-8"))
    i = bisect_left(table, h)
    return i < len(table) and table[i] == h
