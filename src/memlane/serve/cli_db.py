"""Database commands: ``memlane migrate`` and ``memlane copy``.

Mounted by ``memlane.serve.cli``'s command table; ``register(group)`` adds them to
another group.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from memlane.serve.output import echo, safe
from memlane.config import load_config
from memlane.errors import MemlaneError, StoreError
from memlane.serve.cli_common import (CliError, check_memlane_file, db_origin, ignores_global, located,
                                      say_created, sqlite_file)
from memlane.serve.render import dumps

if TYPE_CHECKING:
    from memlane.store.contract import Store

__all__ = ["register"]

def _store_class(url: str) -> tuple[Any, str]:
    """The store class for ``url`` and the location its constructor takes."""
    from memlane.store import parse_db_url, store_class

    parsed = parse_db_url(url)
    return store_class(parsed), parsed.location


def _root_db(ctx: click.Context) -> str:
    obj = ctx.find_root().obj or {}
    if obj.get("db") is not None:  # --db "" is an error of its own, not the default
        return str(obj["db"])
    return load_config(obj.get("config_path")).db


def _open(url: str, *, must_exist: bool, where: str) -> Store:
    """The store ``url`` names; a refusal names ``where`` (the option that gave it)."""
    from memlane.store import open_store, parse_db_url
    from memlane.store.sqlite.db import check_location

    with located(where):
        parsed = parse_db_url(url)
        if not parsed.is_postgres and parsed.location != ":memory:":
            # a folder, or a path the system cannot look up (a name too long was an
            # OSError traceback from is_dir; session 30)
            path = check_location(parsed.location, folder_missing_ok=True)
            if must_exist and not path.is_file():
                raise StoreError(f"db: {path} does not exist; pass an existing database")
            # copy's source is read, not made: an empty file is no database to copy
            check_memlane_file(path, where=where, creates=not must_exist,
                               create_hint="pass an existing database")
        return open_store(url)


@click.command()
@click.option("--show", is_flag=True, help="List applied and pending migrations; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
@click.pass_context
def migrate(ctx: click.Context, show: bool, as_json: bool) -> None:
    """Apply pending schema migrations to --db (with --show, only list them).

    Safe while other processes use the database: each migration is applied once, in its
    own transaction. A migration edited after it was applied is refused.
    """
    where = db_origin((ctx.find_root().obj or {}).get("db"))
    try:
        url = _root_db(ctx)
        with located(where):
            cls, location = _store_class(url)
            path = sqlite_file(url, (ctx.find_root().obj or {}).get("db"))
        if path is not None:  # another program's schema_migrations is not read as memlane's
            check_memlane_file(path, where=where, creates=True, create_hint="")
        with located(where):
            before = cls.peek_migrations(location)
        if show:
            report = before
        else:
            new = path is not None and not path.exists()
            store = _open(url, must_exist=False, where=where)  # migrates, or refuses edited migrations
            if new and path is not None:  # it made the file, as add and import do: say so
                say_created(path)
            try:
                report = cls.peek_migrations(location)
                # what this process applied: others migrating at once applied the rest
                report["applied_now"] = store.migrated_now()
            finally:
                store.close()
    except MemlaneError as e:
        raise click.ClickException(safe(str(e))) from e
    if as_json:
        echo(dumps(report))
        return
    for problem in ("edited", "unknown"):
        if report[problem]:
            raise click.ClickException(f"{problem} migration(s): {', '.join(report[problem])}")
    echo(f"applied: {', '.join(report['applied']) or '-'}")
    echo(f"pending: {', '.join(report['pending']) or '-'}")
    if not show:
        echo(f"applied now: {', '.join(report['applied_now']) or 'nothing (up to date)'}")


@ignores_global(db="copies the database --from names into the one --to names: name them there")
@click.command("copy")
@click.option("--from", "source", required=True, metavar="DB",
              help="The database to copy (SQLite file or postgresql:// URL).")
@click.option("--to", "target", required=True, metavar="DB",
              help="An empty (or new) database to copy into (SQLite file or postgresql:// URL).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")
def copy_cmd(source: str, target: str, as_json: bool) -> None:
    """Copy a whole memory between databases, e.g. SQLite to PostgreSQL and back.

    Everything comes along with its ids: sessions (status, reasons, queue state),
    messages, items (every field), entities, facts, relations, vectors, the embedding
    cache, the API keys (their hashes) and the counters. The target must be
    empty; the copy is one transaction there and is checked against the source before
    it commits. A PostgreSQL source is read in one snapshot (writers may go on: the copy
    is the source as of its start); stop writers on a SQLite source while copying.
    """
    from memlane.store.copy import copy_store

    if source == target:
        raise click.ClickException("--from and --to name the same database")
    show = not as_json and sys.stderr.isatty()
    try:
        src = _open(source, must_exist=True, where="--from")
        try:
            dst = _open(target, must_exist=False, where="--to")
            try:
                def progress(kind: str, n: int) -> None:
                    if show:
                        echo(f"\r{kind}: {n:,}   ", err=True, nl=False)

                report = copy_store(src, dst, progress=progress)
            finally:
                dst.close()
        finally:
            src.close()
    except MemlaneError as e:
        raise click.ClickException(safe(str(e))) from e
    except KeyboardInterrupt:
        if show:
            echo("", err=True)
        raise _copy_interrupted(target) from None
    if show:
        echo("", err=True)
    if as_json:
        echo(dumps(report))
        return
    echo(
        f"copied {report.sessions} session(s), {report.messages} message(s), {report.items} "
        f"item(s), {report.entities} entities, {report.facts} fact(s), {report.relations} "
        f"relation(s), {report.vectors} vector(s), {report.embed_cache} cached embedding(s), "
        f"{report.api_keys} API key(s) and {len(report.counters)} counter(s) from {src.url} "
        f"to {dst.url}"
    )


def _copy_interrupted(target: str) -> CliError:
    """Ctrl-C in ``memlane copy``: the copy is one transaction on the target, rolled back
    unless the interrupt landed as it committed; say which, from the target itself."""
    from memlane.store import open_store
    from memlane.store.copy import is_empty
    from memlane.store.urls import public_url

    shown = public_url(target)
    try:
        store = open_store(target)
        try:
            empty = is_empty(store)
        finally:
            store.close()
    except (MemlaneError, KeyboardInterrupt):
        return CliError(safe(f"copy interrupted: {shown} could not be checked; the copy is one "
                             "transaction, so it holds all of it or nothing: see memlane stats"),
                        code="interrupted")
    if not empty:
        return CliError(safe(f"copy interrupted as it committed: {shown} holds the whole copy "
                             "(checked against the source before it committed)"),
                        code="interrupted")
    return CliError(safe(f"copy interrupted: nothing was written to {shown} (the copy is one "
                         "transaction); run the same command again"), code="interrupted")


def register(cli: click.Group) -> None:
    """Add ``migrate`` and ``copy`` to the root command group."""
    cli.add_command(migrate)
    cli.add_command(copy_cmd)
