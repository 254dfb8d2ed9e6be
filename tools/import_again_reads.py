"""Import each example file twice and count, for the second import (every line stored
already), the SQL statements it ran and the reads of stored messages by id
(``memlane.testing.IdReads``): the figure of docs/hardening.md's "Session 36: fix36".

    PYTHONPATH=src .venv/bin/python tools/import_again_reads.py [FILE ...]

(default: the example files shipped in the package). Run it with another tree's ``src`` on
``PYTHONPATH`` to compare.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, example_files

try:
    from memlane.testing import IdReads
except ImportError:  # a tree before session 36 (to compare): its statements, read from src
    from importlib import util

    spec = util.spec_from_file_location(
        "_testing36", Path(__file__).resolve().parents[1] / "src/memlane/testing/__init__.py")
    assert spec is not None and spec.loader is not None
    _kit = util.module_from_spec(spec)
    spec.loader.exec_module(_kit)
    IdReads = _kit.IdReads


def main(files: list[Path]) -> None:
    for f in files:
        reads, statements = IdReads(), []

        def tracer(kind: str, detail: str, params: object = None) -> None:
            statements.append(detail)
            reads(kind, detail, params)

        with tempfile.TemporaryDirectory() as tmp:
            cfg = load_config(environ={}, overrides={"db": str(Path(tmp) / "m.db")})
            with Memory(config=cfg, embedder=HashingEmbedder(dim=64), tracer=tracer) as mem:
                mem.import_file(f)
                statements.clear()
                reads.clear()
                again = mem.import_file(f)
        print(f"{f.name}: {again.lines} lines, {again.skipped_duplicates} skipped; "
              f"{len(statements)} statements, {sum(reads.reads.values())} message reads, "
              f"at most {max(reads.reads.values(), default=0)} of one id")


if __name__ == "__main__":
    main([Path(a) for a in sys.argv[1:]] or example_files())
