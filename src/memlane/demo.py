"""``make demo``: memlane's main job on the embedded default, end to end.

Imports the example conversations shipped with the package into a fresh database, closes
and indexes their sessions with the default embedder, then runs a search and a pack.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from memlane import Memory
from memlane.serve.cli import main as cli_main


def _run(*args: str) -> None:
    print(f"\n$ {shlex.join(['memlane', *args])}", flush=True)  # paste-ready in a shell
    try:
        cli_main_args(list(args))
    except SystemExit as e:
        if e.code not in (0, None):
            raise


def cli_main_args(args: list[str]) -> None:
    sys.argv = ["memlane", *args]
    cli_main()


def _derive_embedding_table() -> bool:
    """The first run derives the default embedder's table (about a minute): show progress.
    True when it was derived now."""
    from memlane.backends.embed.static import _load_table, ensure_static_table, static_table_path
    from memlane.config import load_config
    from memlane.errors import MemlaneError

    if load_config().embedding.backend != "static":
        return False
    try:
        if _load_table(static_table_path(), mmap=True) is not None:
            return False
    except MemlaneError:
        return False  # no bundled weights: the index step says so
    print("\nderiving the embedding table from the bundled MiniLM weights (first run only, "
          "about a minute)", flush=True)
    shown = [-1]

    def progress(done: int, total: int) -> None:
        pct = done * 100 // max(total, 1)
        if pct != shown[0] and (pct % 5 == 0 or done == total):
            shown[0] = pct
            print(f"\r  {pct:3d}% of {total:,} tokens", end="", file=sys.stderr, flush=True)

    ensure_static_table(progress=progress)
    print(" — done, cached for next time", file=sys.stderr, flush=True)
    return True


NOW = "2024-06-01T00:00:00Z"
"""The demo's "now", a few weeks after its conversations: every command that reads the clock
(indexing, search, the facts' confidence, the pack) is given it, so one fact shows one
confidence throughout."""


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="memlane-demo-"))
    db = str(folder / "demo.db")
    print(f"memlane demo — database {db}")
    examples = resources.files("memlane") / "examples"
    for f in sorted(examples.iterdir()):
        if f.name.endswith(".jsonl"):
            with resources.as_file(f) as path:
                _run("--db", db, "import", str(path))
    t0 = time.perf_counter()
    derived = _derive_embedding_table()
    _run("--db", db, "index", "--now", NOW)
    if derived:
        print(f"(indexing took {time.perf_counter() - t0:.1f}s, the embedding table included: it "
              "is derived once from the bundled MiniLM weights and cached)")
    _run("--db", db, "sessions", "list")
    _run("--db", db, "search", "which half marathon did I sign up for?", "--scope", "alice-assistant", "-k", "5",
         "--now", NOW)
    _run("--db", db, "search", "what database did we pick for billing and why", "-k", "5", "--now", NOW)
    _run("--db", db, "sessions", "show", "4")
    _run("--db", db, "facts", "list", "--scope", "alice-assistant", "--now", NOW)
    _run("--db", db, "pack", "what do you know about my cat?", "--budget", "300",
         "--scope", "alice-assistant", "--model", "gpt-4", "--now", NOW)
    _run("--db", db, "stats")
    with Memory(db) as mem:
        assert mem.stats()["items"].get("turn", 0) > 0


if __name__ == "__main__":
    main()
