"""A number said as a quantity and where a clause ends: two patterns the offline backend's
state facts (:mod:`memlane.index.offline`, session 14) and the learned facts reader's names
(:mod:`memlane.index.factmodel`, session 49) both read (moved here in session 50, so the facts
reader needs no import of the summarizer)."""

from __future__ import annotations

import re

__all__ = ["AMOUNT", "CLAUSE"]

AMOUNT = re.compile(r"(?<![\w#/@.,:-])(?<![A-Z] )(?<![A-Z][a-z] )(?<![A-Z][a-z][a-z] )(?<![A-Z][a-z]{3} )"
                    r"[£$€]?\d[\d,]*(?:\.\d+)?(?![\d,.]*[\w-]*-\d)(?![\d,.]*:\d)")
"""A number said as a quantity or a day: digits, not inside a key ("INC-3391"), not after a
capitalised word ("Xcode 16", "Order 40917": a version or an identifier), not a time ("09:14")."""
CLAUSE = re.compile(r"\s*(?:[;:]\s+|,\s+|\s+[-–—]\s+|\s+(?:so|but|because|since|though|although|which|"
                    r"while|whereas|and then|and(?!\s+[£$€]?\d))\s+)\s*")
"""Where a clause ends: punctuation, a conjunction, "and" (not between two numbers: "8 and 11")."""
