"""The one output helper of the command line: stored text is printed escaped.

Messages are written by anyone; a stored ``ESC[2J`` printed raw would clear the reader's
screen, an OSC sequence could retitle the terminal or forge a link, a bidi override could
reorder what the reader sees, and a lone surrogate would crash the encoder. Every CLI
command prints through ``echo``, which writes those characters as ``\\uXXXX`` escapes
(valid inside JSON strings too) and keeps newlines and tabs.
"""

from __future__ import annotations

from typing import Any

import click

__all__ = ["echo", "safe"]

_KEEP = {"\n", "\t"}
_UNSAFE = [c for c in range(0x20) if chr(c) not in _KEEP] + list(range(0x7F, 0xA0)) + [
    0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE = {c: f"\\u{c:04x}" for c in _UNSAFE}


def safe(text: str) -> str:
    """``text`` with control, bidi-override and lone-surrogate characters escaped."""
    out = text.translate(_TABLE)
    if any("\ud800" <= ch <= "\udfff" for ch in out):
        out = "".join(f"\\u{ord(ch):04x}" if "\ud800" <= ch <= "\udfff" else ch for ch in out)
    return out


def echo(message: Any = "", **kwargs: Any) -> None:
    """``click.echo`` of ``message`` made safe for a terminal."""
    click.echo(safe(str(message)), **kwargs)
