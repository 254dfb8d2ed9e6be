"""The ``memlane`` command line. Every data command takes ``--json``."""

from __future__ import annotations

import errno
import importlib
import json
import os
import select
import sys
from datetime import datetime
from typing import Any

import click

from memlane.clip import clip
from memlane.errors import MemlaneError
from memlane.serve.cli_common import (CliError, FileName, Float, Int, attach_global_options, error_json,
                                      global_option, json_option, less_before, memory_of, more_follow,
                                      quote_hint, root_json_option)
from memlane.serve.output import echo, safe
from memlane.serve.render import (dumps, fact_sentence, filters_given, hit_dict, item_dict, message_dict,
                                  nothing_note,
                                  place, scope_is_empty, session_dict)
from memlane.types import ImportReport

__all__ = ["COMMANDS", "cli", "console_main", "main"]


def _short(text: str, width: int = 100) -> str:
    return clip(" ".join(text.split()), width)


def _ts(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%d %H:%M")


# Commands that live in other modules, mounted by name and imported only when run (or
# asked for their help): ``memlane --help`` loads none of them. Each entry is
# ``name: ("module:attribute", "the one-line help --help lists")``; a test checks that
# each line is the command's own. Add a command module's commands here.
COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("memlane.bench.cli:bench",
              "Benchmarks: retrieval (LongMemEval, LoCoMo) with baselines, the engine "
              "(ingest), the service (serve), summaries."),
    "compact": ("memlane.serve.cli_facts:compact",
                "Fold topics' summaries into decision records; write weekly roll-ups."),
    "copy": ("memlane.serve.cli_db:copy_cmd",
             "Copy a whole memory between databases, e.g. SQLite to PostgreSQL and back."),
    "export": ("memlane.serve.cli_export:export",
               "Print every stored message as JSON Lines, the format memlane import reads."),
    "facts": ("memlane.serve.cli_facts:facts",
              "List current facts, show a fact's history, forget a fact."),
    "forget": ("memlane.serve.cli_erase:forget",
               "Erase a whole scope: every session, message, item, fact, entity and pack of it."),
    "gc": ("memlane.serve.cli_facts:gc",
           "Expire items past their TTL and evict the lowest-value items of lanes over cap."),
    "graph": ("memlane.serve.cli_facts:graph", "Explore the entity graph."),
    "keys": ("memlane.serve.cli_serve:keys", "Create, list and revoke API keys of the HTTP service."),
    "mcp": ("memlane.serve.cli_mcp:mcp_command",
            "Serve memory over the Model Context Protocol on standard input and output."),
    "migrate": ("memlane.serve.cli_db:migrate",
                "Apply pending schema migrations to --db (with --show, only list them)."),
    "serve": ("memlane.serve.cli_serve:serve",
              "Run the HTTP service: actions, REST resources, live stream, metrics."),
}


PIPE_EXIT = 141
"""The exit status when the reader of standard output went away (``memlane export | head``):
128 + SIGPIPE, what a shell reports for ``git`` or ``grep`` ended by a closed pipe. Quiet:
no message, no traceback (click exited 1 without a word)."""


def _reader_gone(e: BaseException) -> bool:
    """Whether ``e`` is standard output's closed pipe (not a socket's or a file's EPIPE)."""
    if not isinstance(e, OSError) or e.errno not in (errno.EPIPE, errno.EINVAL):
        return False
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor: output captured in-process
        return e.errno == errno.EPIPE
    if not hasattr(select, "poll"):
        return e.errno == errno.EPIPE
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(mask & select.POLLERR for _, mask in poller.poll(0))  # a pipe with no reader


def _drop_output() -> None:
    """Point standard output at the null device: Python flushes it again at exit, which
    would print "Exception ignored … BrokenPipeError" (or the full disk's error again)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


def _leave_quietly() -> click.exceptions.Exit:
    """Stop writing to standard output and exit ``PIPE_EXIT``."""
    _drop_output()
    return click.exceptions.Exit(PIPE_EXIT)


def _writing_output(e: OSError) -> bool:
    """Whether ``e`` was raised writing standard output (``echo``): a full disk or a failed
    device under ``memlane export > file``, not a file a command reads."""
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "echo" and code.co_filename.endswith(("serve/output.py", "click/utils.py")):
            return True
        tb = tb.tb_next
    return False


def _output_failed(e: OSError) -> CliError:
    """Standard output that cannot be written (``/dev/full``: ENOSPC): one line on standard
    error and exit 1; it was a traceback."""
    _drop_output()
    return CliError(f"cannot write the output: {e.strerror or e}", code="unavailable")


class _Group(click.Group):
    """The root group: mounts ``COMMANDS`` lazily and turns memlane's errors into one
    clear line and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            module, _, attr = COMMANDS[name][0].partition(":")
            self.add_command(getattr(importlib.import_module(module), attr), name)
        command = self.commands.get(name)
        if command is not None:
            attach_global_options(command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list, with the table's help lines for commands not loaded yet."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.commands.get(name)
            if cmd is None:
                rows.append((name, COMMANDS[name][1]))
            elif not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(formatter.width - 6 - len(name))))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        """As click's, and with ``--json`` an error is also one JSON document on standard
        output (``{"error": {"code", "message", "field"}}``, the HTTP service's shape), so a
        script parsing the output never meets an empty or half-written one."""
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode or "--json" not in argv[:argv.index("--") if "--" in argv else None]:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(argv, prog_name, complete_var, False, **extra)
        except (click.ClickException, click.Abort) as e:
            click.echo(json.dumps(error_json(e), ensure_ascii=False, indent=2))
            if isinstance(e, click.ClickException):
                e.show()
                sys.exit(e.exit_code)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as e:
            e.message = safe(e.message)  # click's own messages quote the user's argument
            quote_hint(e)
            raise
        except OSError as e:  # --help or --version into a closed pipe
            if _reader_gone(e):
                raise _leave_quietly() from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MemlaneError as e:
            raise CliError(safe(str(e)), field=getattr(e, "field", None)) from e
        except click.ClickException as e:
            e.message = safe(e.message)  # a command's usage error, as make_context's
            quote_hint(e)
            raise
        except OSError as e:  # standard output's reader went away: stop, as Unix tools do
            if _reader_gone(e):
                raise _leave_quietly() from None
            if _writing_output(e):
                raise _output_failed(e) from None
            raise


_memory = memory_of


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@global_option("db")
@global_option("config_path")
@root_json_option
@click.version_option(package_name="memlane")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """memlane: long-term memory for LLM agents and chat apps.

    --db, --config and --json go before or after the command (memlane search Q --db x.db).
    """
    ctx.ensure_object(dict)


@cli.command()
@click.argument("text")
@click.option("--scope", required=True, help="Conversation key (a chat, a channel, a user).")
@click.option("--role", default="user", show_default=True, help="user, assistant, system or tool.")
@click.option("--at", default=None, help="ISO-8601 time of the message (default: now).")
@click.option("--speaker", default=None, help="Name of the speaker, if not just the role.")
@click.option("--id", "ext_id", default=None, help="Your id for the message (unique per scope).")
@json_option
@click.pass_context
def add(ctx: click.Context, text: str, scope: str, role: str, at: str | None, speaker: str | None,
        ext_id: str | None, as_json: bool) -> None:
    """Add one message to a scope's current session (TEXT - reads it from standard input,
    for a message longer than a command line takes)."""
    if text == "-":
        raw = sys.stdin.buffer.read()
        try:
            text = raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as e:
            raise click.BadParameter(  # TEXT's value, as one memlane refuses (cli_common)
                f"standard input is not valid UTF-8 (byte 0x{raw[e.start]:02x} at offset "
                f"{e.start})", ctx=ctx, param_hint="'TEXT'") from None
        text = text.removesuffix("\n").removesuffix("\r")  # the newline echo and editors add
    mem = _memory(ctx)
    # a retry without --at takes the stored message's time (``Memory.add_message``)
    msg = mem.add_message(scope, role, text, at, speaker=speaker, id=ext_id)
    again = mem.last_already_stored == (True,)  # delivered again: nothing stored
    if as_json:  # the message, and whether it was stored before (as HTTP's answer says)
        echo(dumps({**message_dict(msg), "already_stored": again}))
    elif again:
        echo(f"message {msg.id} is already stored under id {msg.ext_id!r}, in session "
             f"{msg.session_id} (turn {msg.seq}): nothing added")
    else:
        echo(f"message {msg.id} added to session {msg.session_id} (turn {msg.seq})")


@cli.command("import")
@click.argument("file", type=FileName(dir_okay=False, allow_dash=True))
@click.option("--strict", is_flag=True, help="Check every line first; import nothing if one is bad.")
@click.option("--scope", default=None, help="Scope for lines that carry none.")
@json_option
@click.pass_context
def import_(ctx: click.Context, file: str, strict: bool, scope: str | None, as_json: bool) -> None:
    """Import a JSON Lines conversation file (- for standard input).

    One message per line: {"scope", "role", "text", "at", "id"?, "speaker"?, "agent"?,
    "project"?, "session"?, "closed"?, "session_agent"?, "session_project"?,
    "participants"?} (a new session label starts a session of the scope; with a label,
    closed says how its session ended and the session_ fields and participants are the
    session's own, as memlane export writes them; README: Import format); or one JSON
    list of them (what memlane export --json writes).
    """
    mem = _memory(ctx)
    source = sys.stdin.buffer if file == "-" else file  # bytes: exact line and column of a bad byte
    from memlane.ingest.importer import ImportInterrupted

    try:
        report = mem.import_file(source, strict=strict, scope=scope)
    except ImportInterrupted as e:
        done = e.report
        raise CliError(safe(
            f"{file}: interrupted: {done.imported} message(s) stored"
            + (f" (the lines up to {done.lines})" if done.lines else "")
            + ", nothing after them; importing the file again skips what is stored"),
            code="interrupted", extra={"report": json.loads(dumps(done))}) from None
    packed = f" from a {report.compression}-compressed file" if report.compression else ""
    if as_json and not report.errors:
        echo(dumps(report))
    elif not as_json:
        echo(f"imported {report.imported} message(s){packed}"
                   + (f", skipped {report.skipped_duplicates} line(s) already stored"
                      if report.skipped_duplicates else ""))
    if not report.errors and not report.lines:  # "imported 0" alone: was the file read?
        name = "standard input" if file == "-" else safe(file)
        what = (" holds no message (only blank lines, or an empty JSON list)" if not report.empty
                else f" is empty once decompressed ({report.compression})" if report.compression
                else " is empty")
        echo(f"nothing imported: {name}{what}", err=True)
    if report.errors:
        line, message = report.errors[0]
        # what the report counts, not the line number: a JSON list's items share lines
        kept = _kept_before(report, strict)
        # with --json the report goes beside the error: one JSON document on stdout
        # the line's field (or None: the line as a whole) and the line, as the message says
        raise CliError(safe(f"{file}: {message} ({kept})"), code="invalid",
                       field=report.error_field,
                       extra={"line": line, "report": json.loads(dumps(report))})


def _kept_before(report: ImportReport, strict: bool) -> str:
    """What an import stopped by a bad line kept of the messages before it: the ones it
    stored and the ones it skipped as already stored, each said (a duplicate was counted
    among "the N message(s) before it were kept" though nothing of it was stored;
    session 33). What the report counts, not line numbers: a JSON list's items share lines."""
    new, dupes = report.imported, report.skipped_duplicates
    if strict or not new + dupes:
        return "nothing was imported"
    if not dupes:
        return f"the {new} message(s) before it were kept"
    if not new:
        return f"the {dupes} message(s) before it were already stored: skipped, nothing stored"
    return (f"of the {new + dupes} message(s) before it, {new} were stored and {dupes} skipped "
            "as already stored")


@cli.command()
@click.option("--now", default=None, help="Treat this ISO-8601 time as now when closing idle sessions.")
@click.option("--resummarize", is_flag=True,
              help="Also redo summaries written with an older summary schema version.")
@click.option("--scope", default=None,
              help="Only this scope's sessions (default: every scope), as Memory.index(scope=).")
@click.option("--warm-meaning", is_flag=True,
              help="Then compute the meaning tier's vectors not cached yet of the items no "
                   "session holds and of every indexed session's items (of --scope's, if "
                   "given), newest sessions first: what the worker's backfill "
                   "(retrieval.meaning_backfill) does a little a round.")
@json_option
@click.pass_context
def index(ctx: click.Context, now: str | None, resummarize: bool, scope: str | None,
          warm_meaning: bool, as_json: bool) -> None:
    """Close idle sessions, index every closed session's turns, then summarize them.

    Summaries, facts and entities come from the backend of [memory.indexing]
    (offline by default); failures are retried with backoff on later runs.
    """
    import signal

    mem = _memory(ctx)
    # SIGTERM stops the run as Ctrl-C does (it ended the process where it stood): the
    # sessions it claimed and did not summarize are given back at once, not left to wait
    # out indexing.lease_seconds (session 25)
    before = signal.signal(signal.SIGTERM, signal.default_int_handler)
    pending = mem.stats()["sessions_unindexed"]
    show = not as_json and sys.stderr.isatty()
    # the turns' bar, then (when sessions wait for them) the summaries' (session 25: the
    # summaries, the longer part of a backlog, showed no progress)
    bars = [click.progressbar(length=max(pending, 1), label="indexing sessions",
                              file=sys.stderr, hidden=not show)]
    last = [0]

    def progress(sessions: int, _items: int) -> None:
        bars[0].update(sessions - last[0])
        last[0] = sessions

    def summarizing(done: int, waiting: int) -> None:
        if len(bars) == 1:
            if not waiting:
                return
            bars[0].__exit__(None, None, None)  # the turns' bar ends as it stands
            bars.append(click.progressbar(length=waiting, label="summarizing sessions",
                                          file=sys.stderr, hidden=not show))
            bars[1].__enter__()
            last[0] = 0
        bars[1].update(min(done, bars[1].length) - last[0])
        last[0] = min(done, bars[1].length)

    bars[0].__enter__()
    try:
        report = mem.index(now, progress=progress, resummarize=resummarize, scope=scope,
                           summary_progress=summarizing)
    finally:
        bars[-1].__exit__(None, None, None)
        signal.signal(signal.SIGTERM, before)  # a caller's own (a test's runner)
    if scope is not None and not report.sessions_indexed and scope_is_empty(mem, scope):
        # a mistyped --scope indexed nothing and said only "indexed 0 session(s)", where
        # search, pack and export say the scope holds nothing (session 33)
        echo(f"scope {scope!r} holds nothing: no session of it to index", err=True)
    # a stopped warm loses nothing: what it cached stays, the next one computes the rest
    warmed = _warm_meaning(mem, scope, show) if warm_meaning else None
    if as_json:
        echo(dumps(report) if warmed is None
             else dumps({**json.loads(dumps(report)), "meaning_vectors_computed": warmed}))
    else:
        echo(
            f"closed {report.sessions_closed} idle session(s); indexed {report.sessions_indexed} "
            f"session(s), {report.items_indexed} turn(s); summarized {report.sessions_summarized}, "
            f"{report.sessions_skipped} too small for a summary, failed {report.sessions_failed}"
            f"{f' ({report.summary_jobs} processes)' if report.summary_jobs > 1 else ''}; "
            f"{report.seconds:.2f}s"
        )
        if report.sessions_leased and report.leased_until is not None:
            echo(f"{report.sessions_leased} session(s) are leased by another worker (or one that "
                 f"was stopped) until {report.leased_until:%Y-%m-%d %H:%M:%S} UTC; they are "
                 "summarized after that", err=True)
        if warmed is not None:
            echo(f"computed {warmed} meaning vector(s) not cached yet")


def _warm_meaning(mem: Any, scope: str | None, show: bool) -> int:
    """``memlane index --warm-meaning``: the uncached meaning-tier vectors of the items no
    session holds and of every indexed session's items (``MeaningTier.warm_all``), with a
    bar of the items and sessions passed (counted, not listed: session 34 listed every
    session of the database to size it). A lease another process holds (a worker's round,
    or a stopped worker's for at most ``BACKFILL_LEASE`` seconds) is waited for, saying so
    on standard error: it waited up to a minute without a word. ``scope`` is walked as the
    database spells it (``resolve_scope``): "café" typed in NFC over an old database holding
    it in NFD, or ``team`` over one holding ``team\u200b``, walked nothing (session 34)."""
    from memlane.ingest.spellings import resolve_scope

    tier = mem._meaning_tier()
    if scope is not None:
        scope = resolve_scope(mem.store, scope)
    total = tier.walk_size(mem.store, scope)
    with click.progressbar(length=max(total, 1), label="computing meaning vectors",
                           file=sys.stderr, hidden=not show) as bar:
        last = [0]

        def progress(passed: int, _computed: int) -> None:
            bar.update(min(passed, total) - last[0])
            last[0] = min(passed, total)

        def waiting(seconds: float) -> None:
            echo(f"waiting for the meaning backfill's lease, which another process holds "
                 f"(a worker's round; a stopped worker's runs out within {seconds:.0f} s)",
                 err=True)

        return int(tier.warm_all(mem.store, scope=scope, progress=progress, waiting=waiting))


@cli.command()
@click.option("--poll", default=5.0, show_default=True,
              type=Float.of("start_worker", "poll_seconds"),
              help="Seconds between index runs.")
@click.pass_context
def worker(ctx: click.Context, poll: float) -> None:
    """Run the index worker until interrupted (Ctrl-C or SIGTERM stops it cleanly)."""
    import signal

    from memlane.index.worker import IndexWorker

    mem = _memory(ctx)

    def report(r: Any) -> None:
        # a run that only summarized (sessions indexed before, late messages) said nothing
        if r.sessions_indexed or r.sessions_closed or r.sessions_summarized or r.sessions_failed:
            jobs = f" ({r.summary_jobs} processes)" if r.summary_jobs > 1 else ""
            echo(f"closed {r.sessions_closed}, indexed {r.sessions_indexed} session(s) / "
                 f"{r.items_indexed} item(s), summarized {r.sessions_summarized}{jobs}, "
                 f"failed {r.sessions_failed}", err=True)

    # index, and with the meaning tier on its vectors (new sessions', then the backfill's:
    # session 33; it ran background_index alone, and the tier stayed cold under it)
    w = IndexWorker(lambda: mem._work_round(hygiene=False), poll_seconds=poll, on_report=report,
                    redact=mem._redact_text, **mem._worker_backoff())
    before = signal.signal(signal.SIGTERM, lambda *_: w.stop(timeout=0))
    ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, before or signal.SIG_DFL))  # as found
    echo(f"memlane worker on {mem.store.url}: polling every {poll:g}s", err=True)
    try:
        w.run_forever()
    except KeyboardInterrupt:
        pass
    if w.fatal is not None:  # the database's schema is not this memlane's
        raise CliError(safe(w.fatal), code="schema")
    echo(f"worker stopped after {w.runs} run(s), {w.failures} failure(s)", err=True)


@cli.command()
@click.argument("query")
@click.option("--scope", default=None, help="Only this scope.")
@click.option("-k", "k", default=None, type=Int.of("search", "k"),
              help="Number of hits (default search.default_k, 10).")
@click.option("--kind", "kinds", multiple=True, help="Only these item kinds (repeatable).")
@click.option("--agent", default=None, help="Only items of this agent (as add_message's agent).")
@click.option("--project", default=None, help="Only items of this project (as add_message's project).")
@click.option("--privacy", multiple=True,
              help="Only items of this privacy level (repeatable; default: search.default_privacy).")
@click.option("--since", default=None, help="Only items at or after this ISO-8601 time.")
@click.option("--until", default=None, help="Only items at or before this ISO-8601 time.")
@click.option("--now", default=None, help="The time the question is asked (default: now); "
              "relative dates in the query are read against it. Not a filter.")
@click.option("--session-aware/--flat", "session_aware", default=None,
              help="Two-stage (sessions, then turns inside them) or flat ranking "
              "(default: the preset's, else retrieval.session_aware).")
@click.option("--top-sessions", type=Int.of("search", "top_sessions"), default=None,
              help="Sessions kept by stage one (default retrieval.top_sessions).")
@click.option("--turns-per-session", type=Int.of("search", "turns_per_session"), default=None,
              help="Turns taken from each session by stage two (default retrieval.turns_per_session).")
@click.option("--preset", default=None,
              help="Weight preset: default (the configured weights), session, flat, arawn, "
              "recency, lexical or meaning (the meaning tier's transformer).")
@click.option("--mmr/--no-mmr", "mmr", default=None,
              help="Diversify the first hits with maximal marginal relevance (default retrieval.mmr).")
@click.option("--explain", is_flag=True,
              help="Print every signal's value and weighted contribution, each stage's rank, "
              "and the time each stage took.")
@json_option
@click.pass_context
def search(ctx: click.Context, query: str, scope: str | None, k: int | None, kinds: tuple[str, ...],
           agent: str | None, project: str | None, privacy: tuple[str, ...], since: str | None,
           until: str | None, now: str | None, session_aware: bool | None,
           top_sessions: int | None, turns_per_session: int | None, preset: str | None,
           mmr: bool | None, explain: bool, as_json: bool) -> None:
    """Search memory: sessions first, then turns inside them, reranked; prints hits with scores."""
    from memlane.retrieve.options import clash_text, flat_by_call

    clash = flat_by_call(preset, session_aware, top_sessions=top_sessions,
                         turns_per_session=turns_per_session)
    if clash is not None:  # ranked flat, the option was dropped without a word (session 33)
        flag = "--" + clash[0].replace("_", "-")
        off = "--flat" if clash[1] == "session_aware" else f"--preset {preset}"
        error = click.UsageError(clash_text(clash[0], flag, off), ctx)
        error.param_hint = flag  # type: ignore[attr-defined]  # the field --json names
        raise error
    mem = _memory(ctx)
    hits = mem.search(query, scope=scope, k=k, kinds=kinds or None, agent=agent, project=project,
                      privacy=privacy or None, since=since, until=until, now=now,
                      preset=preset, session_aware=session_aware, top_sessions=top_sessions,
                      turns_per_session=turns_per_session, mmr=mmr, explain=explain)
    note = nothing_note(mem, scope, search=True, filtered=filters_given(**{
        "--kind": kinds, "--agent": agent, "--project": project, "--privacy": privacy,
        "--since": since, "--until": until}), default_privacy=not privacy) if not hits else None
    if as_json:
        echo(dumps({"query": query, "hits": [hit_dict(h) for h in hits],
                    "timings_ms": mem.last_timings, "notice": note}))
        return
    if note:
        echo(note)
        return
    from memlane.retrieve.explain import figure

    for rank, h in enumerate(hits, start=1):
        parts = [f"score={figure(h.score, 4)}"]
        if "rrf" in h.scores:
            parts.append(f"rrf={figure(h.scores['rrf'], 4)}")
        if "lexical" in h.scores:
            parts.append(f"bm25={figure(h.scores['lexical'], 2)}#{int(h.scores['lexical_rank'])}")
        if "vector" in h.scores:
            parts.append(f"cos={figure(h.scores['vector'], 3)}#{int(h.scores['vector_rank'])}")
        if "session_rank" in h.scores:
            parts.append(f"session#{int(h.scores['session_rank'])}")
        it = h.item
        echo(f"{rank:>2}. [{it.scope} · {place(it)} · {_ts(it.at)} · {it.role or it.kind}] "
                   f"{_short(it.text)}")
        echo(f"    item {it.id}  " + "  ".join(parts))
        if explain:
            from memlane.retrieve.explain import explain_lines

            for line in explain_lines(h):
                echo(f"      {line}")
    if explain and mem.last_timings:  # what /actions answers as timings (the README says so)
        echo("stage times: " + " · ".join(f"{name.removesuffix('_ms')} {ms:.1f} ms"
                                          for name, ms in mem.last_timings.items()))


@cli.command()
@click.argument("query")
@click.option("--budget", default=None, type=Int.of("pack", "budget"), help="Token budget (default: pack.budget, 1000).")
@click.option("--scope", default=None, help="Only this scope (also adds its recent messages).")
@click.option("--model", default=None, help="Count tokens with this model's tokenizer (e.g. gpt-4).")
@click.option("--instructions", default=None, help="Text for the instructions slot.")
@click.option("--now", default=None, help="The time the question is asked (default: now).")
@click.option("--text", "text_only", is_flag=True,
              help="Print only the paste-ready context, without the decision table.")
@json_option
@click.pass_context
def pack(ctx: click.Context, query: str, budget: int | None, scope: str | None, model: str | None,
         instructions: str | None, now: str | None, text_only: bool, as_json: bool) -> None:
    """Build a token-budgeted context for QUERY, explaining each candidate (--text: only
    the context)."""
    _one_format(text_only, as_json)
    mem = _memory(ctx)
    p = mem.pack(query, budget, scope=scope, model=model, instructions=instructions, now=now)
    if as_json:
        echo(dumps(p))
        return
    if not p.text and not p.entries and (mem.last_notice or scope is not None):
        echo(nothing_note(mem, scope), err=True)
    elif not p.text and text_only:  # candidates, none of which fit: say so, and how
        echo(str(p.notice), err=True)
    if text_only:
        if p.text:
            echo(p.text)
        return
    _print_pack(p.text, p.used, p.budget, p.token_counter, p.entries, p.shares, p.id, p.notice)


def _one_format(text_only: bool, as_json: bool) -> None:
    """``--text`` and ``--json`` ask for two outputs: a usage error naming them (``--json``
    won, and ``--text`` was dropped without a word)."""
    if text_only and as_json:
        raise click.BadParameter("give --text (the context alone) or --json (the whole pack), "
                                 "not both", param_hint="--text")


def _print_pack(text: str, used: int, budget: int, counter: str, entries: Any, shares: Any,
                pack_id: int | None, notice: str | None = None) -> None:
    def get(e: Any, key: str) -> Any:
        return e[key] if isinstance(e, dict) else getattr(e, key)

    echo(text or f"({notice or 'nothing relevant found'})")
    kept = sum(1 for e in entries if get(e, "kept"))
    journal = f" · pack {pack_id}" if pack_id is not None else ""
    echo(f"\n-- {used}/{budget} tokens ({counter}); {kept} of {len(entries)} candidates "
               f"kept{journal}")
    if shares:
        echo("   shares: " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()))
    for e in entries:
        ident = f"item {get(e, 'item_id')}" if get(e, "item_id") is not None else (
            f"msg {get(e, 'message_id')}" if get(e, "message_id") is not None else get(e, "kind"))
        echo(f"   {ident:>11} {'kept   ' if get(e, 'kept') else 'dropped'} "
                   f"{get(e, 'tokens'):>4} tok  {get(e, 'slot'):<15} {get(e, 'reason')}")


@cli.group()
def packs() -> None:
    """Replay journaled packs."""


@packs.command("show")
@click.argument("pack_id", type=Int.of("replay_pack", "pack_id"))
@click.option("--text", "text_only", is_flag=True,
              help="Print only the paste-ready context, as memlane pack --text.")
@json_option
@click.pass_context
def packs_show(ctx: click.Context, pack_id: int, text_only: bool, as_json: bool) -> None:
    """Show a journaled pack: its query, text and every decision, as built (--text: only
    the context)."""
    _one_format(text_only, as_json)
    p = _memory(ctx).replay_pack(pack_id)
    if as_json:
        echo(dumps(p))
        return
    if text_only:
        if p["text"]:
            echo(p["text"])
        elif p["notice"]:
            echo(str(p["notice"]), err=True)
        return
    echo(f"pack {p['id']} · {p['created_at']:%Y-%m-%d %H:%M} · query: {p['query']!r}"
               + (f" · scope {p['scope']}" if p["scope"] else ""))
    _print_pack(p["text"], p["used"], p["budget"], p["token_counter"], p["entries"],
                p["config"].get("shares", {}), None, p["notice"])


@cli.command()
@click.option("--scope", required=True, help="The conversation to summarize.")
@click.option("--last", "last", required=True, type=Int.of("summarize_recent", "last"), help="How many recent messages.")
@click.option("--yes", is_flag=True, help="Store without asking for confirmation.")
@json_option
@click.pass_context
def summarize(ctx: click.Context, scope: str, last: int, yes: bool, as_json: bool) -> None:
    """Summarize the last N messages of a scope: preview, then store on confirmation."""
    mem = _memory(ctx, writes=yes)
    draft = mem.summarize_recent(scope, last)
    if as_json:
        out: dict[str, Any] = {"summary": draft.summary, "preview": draft.preview(),
                               "message_ids": list(draft.message_ids), "stored_item_id": None}
        if yes:
            out["stored_item_id"] = mem.store_summary(draft)
        echo(dumps(out))
        return
    echo(draft.preview())
    if yes or (sys.stdin.isatty() and click.confirm("\nStore this summary?", default=False)):
        echo(f"stored as item {mem.store_summary(draft)}")
    else:
        echo("not stored (pass --yes to store without asking)")


@cli.group()
def backfill() -> None:
    """Recompute derived data for items already stored."""


@backfill.command("embeddings")
@click.option("--missing-only", is_flag=True,
              help="Only items with no vector from the current embedder (default: all items).")
@click.option("--rate", type=Float.of("backfill_embeddings", "rate"), default=None, help="At most this many items per second.")
@json_option
@click.pass_context
def backfill_embeddings(ctx: click.Context, missing_only: bool, rate: float | None,
                        as_json: bool) -> None:
    """Re-embed items with the current embedder, with progress."""
    mem = _memory(ctx)
    show = not as_json and sys.stderr.isatty()
    with click.progressbar(length=max(sum(mem.stats()["items"].values()), 1),
                           label=f"embedding with {mem.embeddings.model}", file=sys.stderr,
                           hidden=not show) as bar:
        last = [0]

        def progress(done: int) -> None:
            bar.update(done - last[0])
            last[0] = done

        n = mem.backfill_embeddings(missing_only=missing_only, rate=rate, progress=progress)
    if as_json:
        echo(dumps({"embedded": n, "model": mem.embeddings.model}))
    else:
        echo(f"embedded {n} item(s) with {mem.embeddings.model}")


@cli.group()
def sessions() -> None:
    """List, show, close and forget sessions."""


@sessions.command("list")
@click.option("--scope", default=None, help="Only this scope's sessions (default: every scope).")
@click.option("--status", type=click.Choice(["open", "closed", "summarized", "failed"]), default=None,
              help="Only sessions in this state.")
@click.option("--limit", default=50, show_default=True, type=Int.of("sessions", "limit"),
              help="List at most this many sessions.")
@click.option("--offset", default=0, show_default=True, type=Int.of("sessions", "offset"),
              help="List from this position on (0 the newest).")
@click.option("--cursor", default=None,
              help="List the sessions older than the one this cursor names (the one the "
                   "hint of a cut listing gives); not with --offset.")
@click.option("--before", default=None,
              help="List the sessions newer than the one this cursor names (a page back: "
                   "the one the hint of a later page gives); not with --cursor or --offset.")
@json_option
@click.pass_context
def sessions_list(ctx: click.Context, scope: str | None, status: str | None, limit: int,
                  offset: int, cursor: str | None, before: str | None, as_json: bool) -> None:
    """List sessions, newest first. When more follow than --limit, standard error gives
    the command that reads on (--offset, or --cursor, which sessions added or removed
    meanwhile do not shift), and past the first page the one that reads back (--before)."""
    from memlane.serve.paging import session_page

    mem = _memory(ctx)
    page = session_page(mem, scope, status, limit=limit, offset=offset, cursor=cursor,
                        before=before)
    rows = page.rows
    given = {"--scope": scope, "--status": status, "--limit": None if limit == 50 else limit}
    if page.prev_cursor is not None:
        less_before("newer sessions", "sessions list", given, page.prev_cursor)
    if page.next_cursor is not None:
        # the 51st session and every older one were left out without a word
        more_follow("sessions", "sessions list", given, page.next_offset, page.next_cursor)
    if as_json:
        echo(dumps([session_dict(s) for s in rows]))
        return
    if not rows:
        echo(f"scope {scope!r} has no memories" if scope is not None and scope_is_empty(mem, scope)
             else "no sessions")
    wide = max([20, *(len(s.scope) for s in rows)])  # a UUID scope (36) kept the columns apart
    # ids and counts as wide as the page's widest too: a session of 10 messages beside one of
    # 4 moved "indexed" by one (session 33)
    ided = max([6, *(len(str(s.id)) for s in rows)])
    counted = max([1, *(len(str(s.message_count)) for s in rows)])
    for s in rows:
        echo(f"{s.id:>{ided}}  {s.status:<10} {s.scope:<{wide}} {_ts(s.started_at)} → "
             f"{_ts(s.ended_at)}  {s.message_count:>{counted}} msg  "
             f"{'indexed' if s.indexed else ''}".rstrip())


@sessions.command("show")
@click.argument("session_id", type=Int.of("session", "session_id"))
@json_option
@click.pass_context
def sessions_show(ctx: click.Context, session_id: int, as_json: bool) -> None:
    """Show one session and its messages."""
    mem = _memory(ctx)
    s = mem.session(session_id)
    msgs = mem.messages(session_id)
    intel = mem.session_intelligence(session_id)
    if as_json:
        echo(dumps({"session": session_dict(s), "messages": [message_dict(m) for m in msgs],
                          **intel}))
        return
    echo(f"session {s.id} · scope {s.scope} · {s.status}"
               + (f" ({s.closed_reason})" if s.closed_reason else "")
               + f" · {_ts(s.started_at)} → {_ts(s.ended_at)} · {s.message_count} message"
               + ("" if s.message_count == 1 else "s")
               + f" · participants: {', '.join(s.participants)}")
    if s.failed_reason:
        echo(f"  last failure (attempt {s.attempts}): {s.failed_reason}")
    for m in msgs:
        echo(f"  {m.seq:>3}. {_ts(m.at)} {m.speaker or m.role}: {m.text}")
    summary = intel["summary"]
    if summary:
        echo(f"\nsummary ({summary['model']}, schema v{summary['schema_version']}):")
        for key in ("topic", "context", "decisions", "rationale", "open_questions", "next_steps",
                    "action_items", "references", "topic_tags"):
            value = summary.get(key)
            if value:
                value = "; ".join(value) if isinstance(value, list) else value
                echo(f"  {key.replace('_', ' '):>15}: {value}")
    if intel["facts"]:
        echo("facts:")
        for f in intel["facts"]:
            echo(f"  [{f['source']}] {fact_sentence(f['subject'], f['predicate'], f['object'])}"
                       + (f"  (turn {f['seq']})" if f.get("seq") else ""))
    if intel["entities"]:
        echo("entities: " + ", ".join(f"{e['name']} ({e['type']})" for e in intel["entities"]))
    if intel["relations"]:
        echo("relations: " + "; ".join(" → ".join(r) for r in intel["relations"]))
    if intel["observations"]:
        echo("observations:")
        for o in intel["observations"]:
            echo(f"  [turn {o['seq']}] {o['text']}")


@sessions.command("close")
@click.option("--scope", default=None, help="Close this scope's open session.")
@click.option("--id", "session_id", default=None, type=Int.of("close_session", "session_id"), help="Close this session.")
@click.option("--idle", is_flag=True, help="Close every session idle longer than the gap.")
@click.option("--now", default=None, help="With --idle: treat this ISO-8601 time as now.")
@json_option
@click.pass_context
def sessions_close(ctx: click.Context, scope: str | None, session_id: int | None, idle: bool,
                   now: str | None, as_json: bool) -> None:
    """Close a session: by scope, by id, or every idle one."""
    mem = _memory(ctx)
    if sum(x is not None and x is not False for x in (scope, session_id, idle or None)) != 1:
        raise click.UsageError("pass exactly one of --scope, --id or --idle")
    if now is not None and not idle:
        raise click.UsageError("--now goes with --idle (the time idle sessions are measured at)")
    if idle:
        ids = mem.close_idle(now)
        echo(dumps({"closed": ids}) if as_json else f"closed {len(ids)} idle session(s)")
        return
    s = mem.close_session(scope, session_id=session_id)
    if as_json:
        echo(dumps({"closed": [s.id] if s else []}))
    else:
        echo(f"closed session {s.id}" if s else "no open session to close")


def _sessions_forget() -> click.Command:
    from memlane.serve.cli_erase import sessions_forget

    return sessions_forget


sessions.add_command(_sessions_forget())


@cli.group()
def items() -> None:
    """Inspect memory items."""


@items.command("show")
@click.argument("item_id", type=Int.of("item", "item_id"))
@json_option
@click.pass_context
def items_show(ctx: click.Context, item_id: int, as_json: bool) -> None:
    """Show one memory item with all its fields."""
    it = _memory(ctx).item(item_id)
    if as_json:
        echo(dumps(item_dict(it)))
        return
    for key, value in item_dict(it).items():
        if value not in (None, [], {}, ""):
            echo(f"{key:>12}: {value}")


@cli.command()
@json_option
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Counts of messages, sessions, items, vectors and the event counters."""
    data = _memory(ctx).stats()
    if as_json:
        echo(dumps(data))
        return
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items()) or "-"
        elif isinstance(value, list):
            value = ", ".join(map(str, value)) or "-"
        elif isinstance(value, datetime):
            value = _ts(value) + " UTC"
        elif value is None:
            value = "-"
        echo(f"{key:>18}: {value}")


def main() -> None:
    """Console entry point."""
    try:
        cli(prog_name="memlane")
    except SystemExit:
        try:  # what is still buffered, written here rather than at exit, where a closed
            sys.stdout.flush()  # pipe printed "Exception ignored" and exited 120
        except OSError as e:
            if _reader_gone(e):
                raise SystemExit(_leave_quietly().exit_code) from None
            _output_failed(e).show()  # what was left in the buffer met a full disk
            raise SystemExit(1) from None
        raise


def console_main() -> None:
    """The ``memlane`` command itself (``[project.scripts]``, ``python -m memlane``): main(),
    then, the command ended and its exit status set, a Ctrl-C landing while the interpreter
    exits is ignored: it printed a ``KeyboardInterrupt`` traceback from threading's shutdown
    (an import's input closed and the Ctrl-C arriving about then, session 25). Only here,
    never in main(): a caller running main() in its own process (``make demo``, a test)
    keeps its SIGINT handler, and its child processes do not inherit an ignored SIGINT."""
    import signal

    try:
        main()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    console_main()
