"""What ``tools/software_names.py`` and ``tools/proper_names.py`` share: reading Debian's
English word lists and writing a list of names as a Python module holding one frozenset."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def entries(paths: Sequence[str]) -> list[str]:
    """Every entry of the word lists (one a line), stripped, without a possessive "'s"."""
    out = []
    for p in paths:
        for line in Path(p).read_text("utf-8", errors="replace").splitlines():
            w = line.strip().removesuffix("'s")
            if w:
                out.append(w)
    return out


def write_names_module(out: str | Path, doc: str, name: str, listed: Sequence[str], order: str,
                       tail: str = "") -> None:
    """Write ``name = frozenset((...).split())`` with ``listed`` wrapped at 96 columns under
    the module docstring ``doc``; ``order`` says how the names are ordered; ``tail``, lists
    written by hand, follows it unchanged."""
    lines, line = [], ""
    for n in listed:
        if len(line) + len(n) + 1 > 96:
            lines.append(line)
            line = ""
        line += (" " if line else "") + n
    lines.append(line)
    body = "\n".join(f'    "{x} "' for x in lines)
    Path(out).write_text(f'"""{doc}"""\n\n{name} = frozenset((\n{body}\n).split())\n'
                         f'"""{len(listed)} names, {order}."""\n{tail}', encoding="utf-8")
    print(f"{len(listed)} names -> {out}")
