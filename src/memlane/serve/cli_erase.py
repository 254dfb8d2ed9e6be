"""Erasure from the command line (docs/erasure.md): ``memlane forget --scope S`` and
``memlane sessions forget ID``. Each asks for confirmation on a terminal unless ``--yes``;
without a terminal and without ``--yes`` it refuses (exit status 1) and erases nothing."""

from __future__ import annotations

import sys
from typing import Any

import click

from memlane.serve.cli_common import Int, json_option, memory_of
from memlane.serve.output import echo, safe
from memlane.serve.render import dumps
from memlane.types import EraseReport

__all__ = ["forget", "sessions_forget"]


def _confirmed(question: str, yes: bool) -> None:
    if yes:
        return
    if not sys.stdin.isatty():
        raise click.ClickException("nothing erased: pass --yes to erase without a terminal to confirm on")
    if not click.confirm(safe(question) + " This cannot be undone.", default=False):
        raise click.ClickException("nothing erased")


VACUUM_HELP = ("Then rewrite the database (SQLite VACUUM, PostgreSQL VACUUM FULL) so no page "
               "keeps a stale copy of an erased row ([memory.erase] vacuum does it always).")


def vacuum_after(mem: Any, vacuum: bool) -> None:
    """``--vacuum``: rewrite the database after the erase, unless the erase did."""
    if vacuum and not mem.config.erase.vacuum:
        mem.vacuum()


def _report(report: EraseReport, as_json: bool) -> None:
    if as_json:
        echo(dumps(report.to_dict()))
        return
    echo(report.notice)


@click.command()
@click.option("--scope", required=True, help="The scope (a user, a tenant, a conversation key) to erase.")
@click.option("--yes", is_flag=True, help="Erase without asking for confirmation.")
@click.option("--vacuum", is_flag=True, help=VACUUM_HELP)
@json_option
@click.pass_context
def forget(ctx: click.Context, scope: str, yes: bool, vacuum: bool, as_json: bool) -> None:
    """Erase a whole scope: every session, message, item, fact, entity and pack of it."""
    mem = memory_of(ctx)
    _confirmed(f"Erase everything memlane holds of scope {scope!r}?", yes)
    report = mem.forget_scope(scope)
    vacuum_after(mem, vacuum)
    _report(report, as_json)


@click.command("forget")
@click.argument("session_id", type=Int.of("forget_session", "session_id"))
@click.option("--yes", is_flag=True, help="Erase without asking for confirmation.")
@click.option("--vacuum", is_flag=True, help=VACUUM_HELP)
@json_option
@click.pass_context
def sessions_forget(ctx: click.Context, session_id: int, yes: bool, vacuum: bool,
                    as_json: bool) -> None:
    """Erase one session (a conversation) and everything derived from it."""
    mem = memory_of(ctx)
    s = mem.session(session_id)
    count = f"{s.message_count} message{'' if s.message_count == 1 else 's'}"
    _confirmed(f"Erase session {session_id} of scope {s.scope!r} ({count}) and everything "
               "derived from it?", yes)
    report = mem.forget_session(session_id)
    vacuum_after(mem, vacuum)
    _report(report, as_json)
