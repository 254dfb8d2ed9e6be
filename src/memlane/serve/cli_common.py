"""What every CLI command module shares: the root's ``Memory`` and the ``--json`` option."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from memlane.config import load_config

if TYPE_CHECKING:
    from memlane.memory import Memory

__all__ = ["json_option", "memory_of"]


def memory_of(ctx: click.Context) -> Memory:
    """The ``Memory`` of this invocation (``--db``, ``--config``), opened on first use and
    closed when the command ends."""
    from memlane.memory import Memory

    obj = ctx.find_root().obj
    if "memory" not in obj:
        config = load_config(obj["config_path"], overrides={"db": obj["db"]} if obj["db"] else None)
        obj["memory"] = Memory(config=config)
        ctx.find_root().call_on_close(obj["memory"].close)
    memory: Memory = obj["memory"]
    return memory


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
