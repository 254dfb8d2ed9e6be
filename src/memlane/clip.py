"""Cutting text short for a reader, never inside a character as the reader sees it.

A user-perceived character (an extended grapheme cluster, Unicode UAX #29) can be several
code points: an emoji family joined by zero-width joiners (``👨‍👩‍👧``, five), a flag (two
regional indicators), a skin tone, a letter with its combining accents (``á̂``), a
decomposed Hangul syllable. memlane cut text at a code point count in seven places (a pack's
session summaries, MCP's recall hits, the CLI's search lines, the offline summaries' fields
and facts' evidence, the LLM backend's transcript and answer fields, configuration
errors), and so left half a family, a lone regional
indicator or a letter without its accent before the ellipsis (session 26). ``clip`` is the
one cut they all make now.
"""

from __future__ import annotations

import regex  # type: ignore[import-untyped]  # (no stubs installed)

__all__ = ["MARK", "clip"]

MARK = "…"
"""What a cut text ends with."""

_GRAPHEME = regex.compile(r"\X")


def clip(text: str, width: int, *, words: bool = False, mark: str = MARK) -> str:
    """``text`` when it is at most ``width`` characters long, else its longest beginning of
    whole graphemes that leaves room for ``mark``, then ``mark`` (``width`` counts code
    points, as ``len`` does). ``words``: end at the last space of that beginning, when it
    holds one."""
    if len(text) <= width:
        return text
    room = width - len(mark)
    end = 0
    if room > 0 and (start := text[: room + 1]).isascii() and "\r" not in start:
        # plain ASCII: every character is a grapheme of its own but "\r\n" (the offline
        # summary cuts 6,000 texts so per 300 LongMemEval sessions; session 32, the cost)
        end = room
    else:
        for g in _GRAPHEME.finditer(text):  # lazily: a long text is read only up to the cut
            if g.end() > room:
                break
            end = g.end()
    head = text[:end]
    return (head.rsplit(" ", 1)[0] if words else head) + mark
