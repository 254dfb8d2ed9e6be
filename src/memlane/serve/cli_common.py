"""What every CLI command module shares: the root's ``Memory`` and the ``--json`` option."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from memlane.config import load_config
from memlane.serve.output import echo, safe

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["CREATES", "json_option", "memory_of"]

#: Commands that write, and so may create a missing SQLite database (saying so); every
#: other command refuses a database that does not exist. ``create``: ``memlane keys create``.
CREATES = {"add", "import", "worker", "serve", "create", "mcp"}


def _sqlite_file(db: str) -> Path | None:
    """The file a SQLite ``db`` setting names, or None for PostgreSQL and ``:memory:``."""
    from memlane.store import parse_db_url

    url = parse_db_url(db)
    if url.is_postgres or url.location == ":memory:":
        return None
    return Path(url.location).expanduser()


def memory_of(ctx: click.Context) -> Memory:
    """The ``Memory`` of this invocation (``--db``, ``--config``), opened on first use and
    closed when the command ends."""
    from memlane.memory import Memory

    obj = ctx.find_root().obj
    if "memory" not in obj:
        config = load_config(obj["config_path"], overrides={"db": obj["db"]} if obj["db"] is not None else None)
        path = _sqlite_file(config.db)
        new = path is not None and not path.exists()
        if new and ctx.command.name not in CREATES:
            raise click.ClickException(safe(
                f"database {path} does not exist (check --db, $MEMLANE_DB or the config's db); "
                "`memlane add` or `memlane import` creates one"))
        obj["memory"] = Memory(config=config)
        ctx.find_root().call_on_close(obj["memory"].close)
        if new:
            echo(f"created database {path}", err=True)
    memory: Memory = obj["memory"]
    return memory


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
