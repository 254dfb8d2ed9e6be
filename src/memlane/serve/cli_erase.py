"""Erasure from the command line (docs/erasure.md): ``memlane forget --scope S`` and
``memlane sessions forget ID``. Each asks for confirmation on a terminal unless ``--yes``;
without a terminal and without ``--yes`` it refuses (exit status 1) and erases nothing."""

from __future__ import annotations

import sys

import click

from memlane.serve.cli_common import json_option, memory_of
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


def _report(report: EraseReport, as_json: bool) -> None:
    if as_json:
        echo(dumps(report.to_dict()))
        return
    echo(report.notice)


@click.command()
@click.option("--scope", required=True, help="The scope (a user, a tenant, a conversation key) to erase.")
@click.option("--yes", is_flag=True, help="Erase without asking for confirmation.")
@json_option
@click.pass_context
def forget(ctx: click.Context, scope: str, yes: bool, as_json: bool) -> None:
    """Erase a whole scope: every session, message, item, fact, entity and pack of it."""
    mem = memory_of(ctx)
    _confirmed(f"Erase everything memlane holds of scope {scope!r}?", yes)
    _report(mem.forget_scope(scope), as_json)


@click.command("forget")
@click.argument("session_id", type=int)
@click.option("--yes", is_flag=True, help="Erase without asking for confirmation.")
@json_option
@click.pass_context
def sessions_forget(ctx: click.Context, session_id: int, yes: bool, as_json: bool) -> None:
    """Erase one session (a conversation) and everything derived from it."""
    mem = memory_of(ctx)
    s = mem.session(session_id)
    _confirmed(f"Erase session {session_id} of scope {s.scope!r} ({s.message_count} messages)"
               " and everything derived from it?", yes)
    _report(mem.forget_session(session_id), as_json)
