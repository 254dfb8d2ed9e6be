"""``memlane mcp``: serve memory to an MCP client (Claude Code, Claude Desktop, Cursor) over
stdio. The root group mounts it lazily (``memlane.serve.cli.COMMANDS``).

Standard output carries the protocol and nothing else; logs go to standard error.
"""

from __future__ import annotations

import click

from memlane.config import load_config
from memlane.serve.cli_common import check_memlane_file, db_origin, located, say_created, sqlite_file
from memlane.serve.output import echo

__all__ = ["mcp_command"]


@click.command("mcp")
@click.option("--db", default=None, metavar="URL",
              help="Database file or postgresql:// URL (default: the global --db, $MEMLANE_DB "
              "or the config's db).")
@click.option("--scope", envvar="MEMLANE_SCOPE", default=None,
              help="Default scope of the tools when a call names none (default: $MEMLANE_SCOPE, "
              "else mcp.scope).")
@click.option("--allow", "allow", multiple=True, metavar="PATTERN",
              help="Only scopes matching PATTERN (* and ? wildcards; repeatable; default: "
              "mcp.allowed_scopes, else all).")
@click.option("--read-only", is_flag=True, default=None,
              help="Refuse the tools that write or delete (default: mcp.read_only).")
@click.option("--worker/--no-worker", "worker", default=None,
              help="Index closed sessions in the background while serving "
              "(default: mcp.index_worker, on).")
@click.pass_context
def mcp_command(ctx: click.Context, db: str | None, scope: str | None, allow: tuple[str, ...],
                read_only: bool | None, worker: bool | None) -> None:
    """Serve memory over the Model Context Protocol on standard input and output.

    Tools: remember, recall, context, facts, fact_history, forget, sessions, session,
    summarize; resources memlane://{scope}/facts and memlane://{scope}/sessions/{id}; the
    prompt use-memory.
    """
    from memlane.memory import Memory
    from memlane.serve.mcp import build_server

    given = ctx.get_parameter_source("scope") == click.core.ParameterSource.COMMANDLINE
    if given and not (scope or "").strip():
        # an unset variable in a client's entry (--scope "$PROJECT") served every scope
        raise click.BadParameter("give a scope (1-256 characters) or leave --scope out",
                                 param_hint="--scope")
    if any(not pattern.strip() for pattern in allow):
        # --allow "" gave a server that could reach no scope and said so on every call
        raise click.BadParameter("an empty pattern matches no scope; give one such as "
                                 "'team-*' (or '*' for every scope)", param_hint="--allow")
    root = ctx.find_root().obj or {}
    url = db if db is not None else root.get("db")  # --db "" is an error, not the default
    config = load_config(root.get("config_path"), overrides={"db": url} if url is not None else None)
    cfg = config.mcp
    patterns = allow or cfg.allowed_scopes
    path = sqlite_file(config.db, url)
    new = path is not None and not path.exists()
    if path is not None:  # another program's database is refused before it is migrated
        check_memlane_file(path, where=db_origin(url), creates=True, create_hint="")
    with located(db_origin(url)):
        memory = Memory(config=config)
    if new:  # on standard error: standard output carries the protocol alone
        say_created(path)
    try:
        server = build_server(memory, default_scope=scope or cfg.scope or None,
                              scopes=patterns or None,
                              read_only=cfg.read_only if read_only is None else read_only)
        memory.embeddings.for_query("memlane")  # load the embedder now, not in a tool call
        if cfg.index_worker if worker is None else worker:
            memory.start_worker(cfg.worker_poll_seconds)
        import anyio

        try:
            anyio.run(server.run_stdio_async)
        except BaseExceptionGroup as group:
            # the client went away (closed its end of standard output): what it asked for
            # is done and stored, only the answers are unsent; a line, not a traceback of
            # the SDK's task groups, in the client's log
            rest = group.split((BrokenPipeError, ConnectionResetError,
                                anyio.BrokenResourceError, anyio.ClosedResourceError))[1]
            if rest is not None:
                raise
            echo("memlane mcp: the client closed the connection; stopped", err=True)
    finally:
        memory.close()
