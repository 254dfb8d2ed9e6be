"""What every CLI command module shares: the root's ``Memory`` and the ``--json`` option."""

from __future__ import annotations

import math
import os
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from memlane.config import load_config, number_text
from memlane.errors import ConfigError
from memlane.serve.output import echo, safe

if TYPE_CHECKING:
    from memlane.memory import Memory

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)

__all__ = ["CREATES", "GLOBAL_OPTIONS", "WRITES", "CliError", "check_memlane_file", "FileName", "Float", "Int", "attach_global_options", "error_json", "global_option",
           "db_origin", "ignores_global", "json_option", "less_before", "located", "memory_of", "more_follow", "root_config_path",
           "root_json_option", "say_created", "sqlite_file"]

#: Commands that write, and so may create a missing SQLite database (saying so); every
#: other command refuses a database that does not exist. ``create``: ``memlane keys create``.
CREATES = {"add", "import", "worker", "serve", "create", "mcp"}

#: Commands whose work is writing the database: on one this process may not write (a
#: read-only file, folder or mount, ``?mode=ro``, a PostgreSQL standby or read-only role)
#: each is refused before it starts, naming the database (session 36: ``index``, ``gc``,
#: ``add`` … ended on SQLite's "attempt to write a readonly database", and ``compact``,
#: ``backfill embeddings`` and ``worker`` with nothing to do said they did it). The
#: commands that read (``search``, ``pack``, listings) and the servers (``serve``, ``mcp``:
#: their reads work, each write is refused) run; ``summarize`` is refused with ``--yes``
#: (``memory_of(ctx, writes=True)``; without, it previews, and a confirmed store fails
#: naming the file); ``migrate`` and ``copy`` open their databases themselves.
WRITES = {("add",), ("import",), ("index",), ("gc",), ("compact",), ("forget",), ("worker",),
          ("sessions", "close"), ("sessions", "forget"), ("facts", "forget"),
          ("keys", "create"), ("keys", "revoke"), ("backfill", "embeddings")}


def _command(ctx: click.Context) -> tuple[str, ...]:
    """The command's path below the root, ``("sessions", "close")``."""
    path: list[str] = []
    while ctx.parent is not None:
        path.insert(0, ctx.command.name or "")
        ctx = ctx.parent
    return tuple(path)


def _opens_read_only(path: Path, db: str) -> bool:
    """Whether the store opens the SQLite file ``path`` of the ``db`` setting read-only: its
    own judgment (``opens_read_only``), ``?mode=ro`` included."""
    from memlane.store import parse_db_url
    from memlane.store.sqlite.db import opens_read_only

    return opens_read_only(path, mode_ro=parse_db_url(db).read_only)


def _refuse_read_only(ctx: click.Context, path: Path | None, db: str | None) -> None:
    command = " ".join(_command(ctx))
    where = (f"{path} is read-only for this process (the file, its folder or its mount, or "
             "?mode=ro)" if path is not None else
             "the PostgreSQL database is read-only for this connection (a standby, a "
             "read-only role or default_transaction_read_only)")
    raise CliError(safe(f"db: {where}: `memlane {command}` writes to it; nothing was written"),
                   code="forbidden", field=db_origin(db))


def more_follow(what: str, command: str, options: dict[str, Any], offset: int | None,
                cursor: str) -> None:
    """Say on standard error that a listing was cut and the command that reads on: the
    command as it was given (its filters and ``--limit``) with the next ``--offset`` (None
    on a page read by cursor) and, as well, with the next ``--cursor``, which rows added or
    removed meanwhile do not shift. The hint named ``--offset`` alone, so following it
    listed every scope's facts."""
    import shlex

    words = _command_words(command, options)
    by_cursor = shlex.join([*words, "--cursor", cursor])
    click.echo(safe(f"more {what} follow: {by_cursor}" if offset is None else
                    f"more {what} follow: {shlex.join([*words, '--offset', str(offset)])}\n"
                    f"  or, however many are added or removed meanwhile: {by_cursor}"),
               err=True)


def _command_words(command: str, options: dict[str, Any]) -> list[str]:
    """``memlane COMMAND`` with ``options`` (a flag for True; None and False left out)."""
    words = ["memlane", *command.split()]
    for flag, value in options.items():
        if value is True:
            words.append(flag)
        elif value is not None and value is not False:
            words += [flag, str(value)]
    return words


def less_before(what: str, command: str, options: dict[str, Any], before: str) -> None:
    """Say on standard error the command that reads the page before this one
    (``--before``, the page's ``prev_cursor``), as ``more_follow`` the one after."""
    import shlex

    click.echo(safe(f"{what} come before: "
                    f"{shlex.join([*_command_words(command, options), '--before', before])}"),
               err=True)


class CliError(click.ClickException):
    """A command's error with what ``--json`` reports of it: ``code`` (as the HTTP
    service's), ``field`` (the parameter at fault) and ``extra`` keys beside ``error``."""

    def __init__(self, message: str, *, code: str = "error", field: str | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.field, self.extra = code, field, extra or {}


def quote_hint(error: click.ClickException) -> None:
    """An option's refusal in click's words, ``Invalid value for '--mix': …``, however it was
    raised: click quotes the option it names itself, but a refusal raised by hand with
    ``param_hint="--mix"`` (a command checking a value in its own code) read ``Invalid value
    for --mix: …`` (session 31)."""
    hint = getattr(error, "param_hint", None)
    if isinstance(error, click.BadParameter) and isinstance(hint, str) and hint[:1] not in "'\"":
        error.param_hint = " / ".join(f"'{part.strip()}'" for part in hint.split(" / "))


def error_json(error: BaseException) -> dict[str, Any]:
    """``{"error": {"code", "message", "field"}}`` for an error a command ended with, the
    shape the HTTP service answers: what ``--json`` prints on standard output then."""
    from memlane.errors import (BackendError, ConflictError, NotFoundError,
                                StoreError, ValidationError)

    cause = error.__cause__
    code, field, extra = "error", None, {}
    if isinstance(error, CliError):
        code, field, extra = error.code, error.field, error.extra
    elif isinstance(error, click.UsageError):
        code = "usage"
        param = getattr(error, "param", None)
        hint = getattr(error, "param_hint", None)
        if isinstance(hint, str):
            field = hint.strip("'\"")
        elif param is not None:
            field = param.opts[0] if getattr(param, "opts", None) else param.name
        elif isinstance(error, click.NoSuchOption):
            field = error.option_name
    elif isinstance(error, click.Abort):
        code = "interrupted"
    if isinstance(error, click.UsageError):
        pass  # a bad value memlane refused (``_bad_value``) is a usage error naming the option
    elif isinstance(cause, ConflictError):
        code, field = "conflict", cause.field
    elif isinstance(cause, (ValidationError, ConfigError)):
        code, field = "invalid", getattr(cause, "field", None) or field
    elif isinstance(cause, NotFoundError):
        code = "not_found"
    elif isinstance(cause, BackendError):
        code = "backend_error"
    elif isinstance(cause, StoreError):
        code = "forbidden" if cause.read_only else "unavailable"
    message = error.format_message() if isinstance(error, click.ClickException) else "interrupted"
    return {"error": {"code": code, "message": safe(message),
                      "field": None if field is None else safe(str(field))}, **extra}


def sqlite_file(db: str, option: str | None = None) -> Path | None:
    """The file a SQLite ``db`` setting names, or None for PostgreSQL and ``:memory:``.
    A refused location is named as the user gave it (session 24): ``--db`` when ``option``
    (its value) is given, else ``MEMLANE_DB`` when set, else the file's ``memory.db``."""
    from memlane.store import parse_db_url
    from memlane.store.sqlite.db import check_location

    with located(db_origin(option)):
        url = parse_db_url(db)
        if url.is_postgres or url.location == ":memory:":
            return None
        # a path the system cannot look up failed `exists()` with a traceback (session 29)
        return check_location(url.location, folder_missing_ok=True)


def check_memlane_file(path: Path, *, where: str, creates: bool, create_hint: str) -> None:
    """Refuse an existing SQLite file that is not a memlane database before memlane opens it
    (and so migrates it): one of another application's (tables, none of them memlane's
    ``schema_migrations``) on every command, and an empty one (0 bytes, or no table) on a
    command that only reads, as a missing file is (``create_hint`` says what makes one).
    Session 33: ``memlane search --db app.db`` wrote memlane's tables into another
    program's database, and ``copy --from notes.jsonl`` (an empty file) turned the file into
    a database and said it copied nothing."""
    import sqlite3

    try:
        if not path.is_file():
            return
        size = path.stat().st_size
        tables: list[str] = []
        ours = False
        if size:
            from memlane.store.sqlite.db import read_only_uri

            con = sqlite3.connect(read_only_uri(path), uri=True)
            try:
                tables = [r[0] for r in con.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")]
                ours = "schema_migrations" in tables and _memlane_migrations(con)
            finally:
                con.close()
    except (OSError, sqlite3.Error):
        return  # not a SQLite file, or unreadable: opening it says so in its own words
    if tables and not ours:
        shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
        raise CliError(safe(
            f"{where}: {path} is a SQLite database of another program (its tables: {shown}), "
            f"not memlane's: memlane would write its own tables into it; give another {where}"),
            code="invalid", field=where)
    if not tables and not creates:
        what = "an empty file (0 bytes)" if not size else "a SQLite database holding no table"
        raise CliError(safe(f"database {path} is {what}, not a memlane database yet "
                            f"(check {where}); {create_hint}"), code="not_found", field=where)


def _memlane_migrations(con: Any) -> bool:
    """Whether the ``schema_migrations`` table of the SQLite connection ``con`` is memlane's:
    its columns (``name``, ``sha256``, ``applied_at``), and empty (a file whose first
    migration did not commit) or naming one of memlane's migrations. Rails, Ecto and
    golang-migrate keep a ``schema_migrations`` of their own (``version``): until session
    34 such a database passed as memlane's and the command ended on "query failed: no such
    column: name", and one whose table had memlane's columns was migrated (rev34)."""
    from memlane.store.migrations import load_migrations

    columns = {str(r[1]) for r in con.execute("PRAGMA table_info(schema_migrations)")}
    if not {"name", "sha256", "applied_at"} <= columns:
        return False
    names = [m.name for m in load_migrations("memlane.store.sqlite")]
    marks = ", ".join("?" * len(names))
    row = con.execute("SELECT count(*), count(CASE WHEN name IN (" + marks + ") THEN 1 END)"
                      " FROM schema_migrations", names).fetchone()
    return int(row[0]) == 0 or int(row[1]) > 0


def db_origin(option: str | None) -> str:
    """Where the database setting came from, as the user wrote it: ``--db`` when ``option``
    (its value) is given, else ``MEMLANE_DB`` when set, else the config file's ``memory.db``."""
    return ("--db" if option is not None else
            "MEMLANE_DB" if "MEMLANE_DB" in os.environ else "memory.db")


@contextmanager
def located(where: str) -> Iterator[None]:
    """A database location refused, or a database that cannot be opened, named as the user
    gave it (``--db``, ``MEMLANE_DB``, ``memory.db``, ``copy``'s ``--from`` and ``--to``), in
    the message and as ``--json``'s ``field`` (session 25): the store says ``db:``, "pass
    another --db" and "the db setting: --db, $MEMLANE_DB or db in memlane.toml" whatever
    named it, and ``field`` was null, so ``memlane copy --to DIR``, which refuses ``--db``,
    was told to pass another ``--db``."""
    from memlane.errors import StoreError

    try:
        yield
    except (ConfigError, StoreError) as e:
        text = str(e)
        if isinstance(e, ConfigError) and not text.startswith("db:"):
            raise  # another key's refusal (an embedder's, a service's): not the location's
        text = where + text.removeprefix("db") if text.startswith("db:") else text
        if where.startswith("--") and where != "--db":  # copy's --from / --to
            text = text.replace("pass another --db", f"pass another {where}").replace(
                "the db setting: --db, $MEMLANE_DB or db in memlane.toml", where)
        raise CliError(safe(text), code="invalid" if isinstance(e, ConfigError) else "unavailable",
                       field=where) from e


def memory_of(ctx: click.Context, *, writes: bool | None = None) -> Memory:
    """The ``Memory`` of this invocation (``--db``, ``--config``), opened on first use and
    closed when the command ends. A command that ``writes`` (default: it is one of
    ``WRITES``) is refused on a database this process may not write, before it is opened
    when it is a SQLite file (opening it read-only leaves ``-wal`` and ``-shm`` files)."""
    from memlane.memory import Memory

    obj = _root_obj(ctx)
    writes = _command(ctx) in WRITES if writes is None else writes
    if "memory" not in obj:
        config = load_config(obj["config_path"], overrides={"db": obj["db"]} if obj["db"] is not None else None)
        path = sqlite_file(config.db, obj["db"])
        new = path is not None and not path.exists()
        creates = ctx.command.name in CREATES
        if new and not creates:
            raise CliError(safe(
                f"database {path} does not exist (check --db, $MEMLANE_DB or the config's db"
                f"{_relative_url_hint(config.db, path)}); "
                "`memlane add` or `memlane import` creates one"), code="not_found",
                field=db_origin(obj["db"]))
        if writes and path is not None and not new and _opens_read_only(path, config.db):
            _refuse_read_only(ctx, path, obj["db"])  # (before a read leaves -wal and -shm)
        if path is not None:
            check_memlane_file(path, where=db_origin(obj["db"]), creates=creates,
                               create_hint="`memlane add` or `memlane import` creates one")
        with located(db_origin(obj["db"])):
            obj["memory"] = Memory(config=config)
        ctx.find_root().call_on_close(obj["memory"].close)
        if new:
            say_created(path)
    memory: Memory = obj["memory"]
    if writes and getattr(memory.store, "read_only", False):  # ?mode=ro, PostgreSQL's
        _refuse_read_only(ctx, sqlite_file(memory.config.db, obj["db"]), obj["db"])
    return memory


def _relative_url_hint(db: str, path: Path) -> str:
    """``sqlite:///tmp/m.db`` names ``tmp/m.db`` in the current folder (three slashes, as
    SQLAlchemy reads it), not ``/tmp/m.db``: a missing file of such a URL says so."""
    if not db.startswith("sqlite:///") or path.is_absolute():
        return ""
    return (f"; a sqlite:/// URL's path is relative to the current folder: "
            f"sqlite:////{path} names /{path}")


def say_created(path: Path) -> None:
    """``created database /abs/memlane.db`` on standard error: by its absolute path, as an
    MCP client's log or a script's does not say which folder the command ran in."""
    echo(f"created database {path.absolute()}", err=True)


class FileName(click.Path):
    """``click.Path`` that refuses a name the system cannot take (a NUL inside it) as a usage
    error naming the argument: ``os.stat`` raised ValueError, a traceback (session 25). Every
    command's file argument and option is one.."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except ValueError as e:
            self.fail(f"{value!r} is not a file name ({e})", param, ctx)


json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")


class Int(click.IntRange):
    """An integer option's type, its range in memlane's words: a bad value is a usage
    error (exit 2) ``Invalid value for '-k': must be an integer from 1 to 1000, got 0``, as
    a value memlane's checks refuse (``ValidationError``) is on every command. Click's own
    range said "0 is not in the range x>=1." beside memlane's "must be…" (exit 1)."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        from memlane.ingest.validate import INT64_MAX

        super().__init__(-INT64_MAX - 1 if low is None else low, INT64_MAX if high is None else high)

    @classmethod
    def of(cls, method: str, name: str) -> Int:
        """The range ``Memory.<method>`` takes for parameter ``name``."""
        from memlane.ingest.params import bounds

        return cls(*bounds(method, name))

    def _describe_range(self) -> str:
        """The range in ``--help`` as its error says it: ``1 to 1000``, ``at least 0``."""
        return self._wants().removeprefix("must be an integer ").removeprefix("of ").removeprefix("from ")

    def _wants(self) -> str:
        """``must be an integer from 1 to 1000``; with no upper end but 64 bits' ``of at
        least 1``: the words of every surface (``validate.int_range``)."""
        from memlane.ingest.validate import int_range

        return f"must be an integer {int_range(int(self.min), int(self.max))}"  # type: ignore[arg-type]

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from memlane.ingest.validate import int_refused

        try:
            number = value if isinstance(value, int) else int(number_text(str(value)))
        except ValueError:
            self.fail(f"{self._wants()}, got {str(value)[:40]!r}", param, ctx)
        refused = int_refused(number, int(self.min), int(self.max))  # type: ignore[arg-type]
        if refused is not None:
            self.fail(refused, param, ctx)
        return number


class Float(click.FloatRange):
    """A number option's type: finite (``nan`` passed click's range), in its range, in
    memlane's words (see ``Int``); ``above=True``: the low end itself is refused."""

    name = "number"

    def __init__(self, low: float | None, high: float | None = None, *, above: bool = False) -> None:
        super().__init__(-math.inf if low is None else low, math.inf if high is None else high,
                         min_open=above)

    @classmethod
    def of(cls, method: str, name: str) -> Float:
        from memlane.ingest.params import bounds

        return cls(*bounds(method, name))

    def _describe_range(self) -> str:
        """The range in ``--help`` as its error says it: ``0.01 to 86400``, ``above 0``."""
        return self._wants().removeprefix("must be a number ").removeprefix("from ")

    def _wants(self) -> str:
        if self.min_open and self.max == math.inf:
            return f"must be a number above {_shown(self.min)}"
        if self.max == math.inf:
            return f"must be a number of at least {_shown(self.min)}"
        return f"must be a number from {_shown(self.min)} to {_shown(self.max)}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        wants = self._wants()
        try:
            number = float(value if isinstance(value, (int, float)) else number_text(str(value)))
        except (ValueError, OverflowError):
            self.fail(f"{wants}, got {str(value)[:40]!r}", param, ctx)
        low, high = self.min, self.max
        assert low is not None and high is not None
        if (not math.isfinite(number) or number < low or number > high
                or (self.min_open and number == low)):
            self.fail(f"{wants}, got {number!r}", param, ctx)
        return number


class Choice(click.Choice):
    """An option's fixed set of values, a bad one refused in memlane's words (see ``Int``):
    ``Invalid value for '--status': must be one of open, closed, summarized, failed, got
    'bogus'``, as ``--role`` says it; click's own said "'bogus' is not one of 'open', …"."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"must be one of {', '.join(map(str, self.choices))}, got {str(value)[:40]!r}",
                      param, ctx)


def _shown(bound: float | None) -> str:
    """A range's end as a person writes it: 1000000000, not 1e+09; 0.01."""
    assert bound is not None
    return str(int(bound)) if float(bound).is_integer() and abs(bound) < 1e18 else str(bound)


def _memlane_ranges(command: click.Command) -> None:
    """Click's ranges and choices of ``command`` (a module's own ``IntRange``, ``FloatRange``,
    ``Choice``) worded as memlane's: one wording for a bad value on every command."""
    for param in command.params:
        kind = type(param.type)
        if kind is click.Choice:
            old_choice = param.type
            param.type = Choice(old_choice.choices, case_sensitive=old_choice.case_sensitive)  # type: ignore[attr-defined]
        elif kind is click.IntRange:
            old = param.type
            param.type = Int(old.min, old.max)  # type: ignore[attr-defined]
        elif kind is click.FloatRange:
            old = param.type
            param.type = Float(old.min, old.max, above=old.min_open)  # type: ignore[attr-defined]


# The root's options, accepted before the command (``memlane --db x.db search q``) or after
# it (``memlane search q --db x.db``), with one meaning; given twice with two values they
# are a usage error naming the option. ``name: (flag, metavar, help)``; the value lands in
# the root context's ``obj[name]``, and ``obj["given"][name]`` records that the command line
# (not an environment variable) gave it.
GLOBAL_OPTIONS: dict[str, tuple[str, str, str]] = {
    "db": ("--db", "PATH", "Database file or postgresql:// URL (default: memlane.db, or "
           "$MEMLANE_DB, or the config's db); before or after the command."),
    "config_path": ("--config", "FILE", "Config file (default: ./memlane.toml when present, or "
                    "$MEMLANE_CONFIG); before or after the command."),
}


def _root_obj(ctx: click.Context) -> dict[str, Any]:
    obj: dict[str, Any] = ctx.find_root().ensure_object(dict)
    for name in GLOBAL_OPTIONS:
        obj.setdefault(name, None)
    obj.setdefault("given", {})
    return obj


def _give(ctx: click.Context, param: click.Parameter, name: str, values: Any) -> None:
    """Record each command-line value of a global option, refusing a second, different one."""
    obj = _root_obj(ctx)
    given: dict[str, str] = obj["given"]
    flag = GLOBAL_OPTIONS[name][0]
    for value in values or ():
        if name in given and given[name] != value:
            raise click.BadParameter(
                f"given twice with different values, {given[name]!r} and {value!r}; pass it once",
                ctx=ctx, param=param, param_hint=flag)
        given[name] = value
        obj[name] = value


def _check_ignored(ctx: click.Context, name: str) -> None:
    command = ctx.command
    why = getattr(command, "memlane_ignores", {}).get(name)
    obj = _root_obj(ctx)
    if why and (obj.get("json") if name == "json" else name in obj["given"]):
        flag = "--json" if name == "json" else GLOBAL_OPTIONS[name][0]
        error = click.UsageError(f"{flag}: memlane {ctx.command_path.split(' ', 1)[-1]} {why}", ctx)
        error.param_hint = flag  # type: ignore[attr-defined]  # the field --json names
        raise error


def global_option(name: str, *, hidden: bool = False) -> Callable[[FC], FC]:
    """The root's ``--db`` or ``--config`` option (repeatable only with one value)."""
    flag, metavar, help_text = GLOBAL_OPTIONS[name]

    def callback(ctx: click.Context, param: click.Parameter, values: Any) -> None:
        _give(ctx, param, name, values)
        _check_ignored(ctx, name)

    return click.option(flag, name, multiple=True, expose_value=False, metavar=metavar,
                        callback=callback, help=help_text, hidden=hidden, is_eager=True)


def ignores_global(**why: str) -> Callable[[FC], FC]:
    """Mark a command that cannot honour a global option: given on the command line (before
    or after the command) it is a usage error saying ``why`` instead of being ignored.
    ``@ignores_global(db="copies --from one database --to another")``."""

    def mark(command: FC) -> FC:
        command.memlane_ignores = {("config_path" if k == "config" else k): v  # type: ignore[union-attr]
                                   for k, v in why.items()}
        return command

    return mark


def _merge_own(name: str, own: click.Option) -> None:
    """A command's own option of a global option's flag (``serve --db``, ``bench ... --db``)
    takes the value given before the command too, and refuses two different ones (given
    before and after, or twice after); one that takes many values (``bench ingest --db``)
    takes the one given before as one more."""
    original = own.callback
    many = own.multiple
    own.multiple = True  # to see every value given, not only the last one
    own.default = ()
    own.is_eager = True  # checked before --help, as the root's options are

    def callback(ctx: click.Context, param: click.Parameter, values: Any) -> Any:
        values = tuple(values or ())
        before = _root_obj(ctx)["given"].get(name)
        if before is not None and before not in values:
            values = (before, *values)
        if not many:
            if len(set(values)) > 1:
                raise click.BadParameter(
                    f"given twice with different values, {values[0]!r} and "
                    f"{next(v for v in values if v != values[0])!r}; pass it once",
                    ctx=ctx, param=param, param_hint=GLOBAL_OPTIONS[name][0])
            values = values[0] if values else None
        return values if original is None else original(ctx, param, values)

    own.callback = callback


def root_json_option(command: FC) -> FC:
    """The root's ``--json`` (``memlane --json stats``): the command's own ``--json``."""

    def record(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value:
            _root_obj(ctx)["json"] = True

    return click.option("--json", "root_json", is_flag=True, expose_value=False, is_eager=True,
                        callback=record, help="Print machine-readable JSON (the commands that "
                        "print data take it after the command too).")(command)


def _merge_json(own: click.Option) -> None:
    original = own.callback

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        value = bool(value) or bool(_root_obj(ctx).get("json"))
        return value if original is None else original(ctx, param, value)

    own.callback = callback


def attach_global_options(command: click.Command) -> None:
    """Give ``command`` and every command under it the root's options (once)."""
    if getattr(command, "memlane_globals", False):
        return
    command.memlane_globals = True  # type: ignore[attr-defined]
    if not isinstance(command, click.Group):
        own_json = [p for p in command.params if isinstance(p, click.Option) and "--json" in p.opts]
        if own_json:
            _merge_json(own_json[0])
        else:
            ignores = dict(getattr(command, "memlane_ignores", {}))
            ignores.setdefault("json", "prints no data to format: leave --json out")
            command.memlane_ignores = ignores  # type: ignore[attr-defined]
    for name, (flag, _, _) in GLOBAL_OPTIONS.items():
        own = [p for p in command.params if isinstance(p, click.Option) and flag in p.opts]
        if own:
            _merge_own(name, own[0])
        else:
            global_option(name, hidden=name in getattr(command, "memlane_ignores", {}))(command)
    if getattr(command, "memlane_ignores", None):
        parse_args = command.parse_args

        def refusing_parse_args(ctx: click.Context, args: list[str]) -> list[str]:
            for name in command.memlane_ignores:  # type: ignore[attr-defined]
                _check_ignored(ctx, name)  # given before the command: refused before --help
            return parse_args(ctx, args)

        command.parse_args = refusing_parse_args  # type: ignore[method-assign]
    if not isinstance(command, click.Group):
        _memlane_ranges(command)
        _name_not_found(command)
    for sub in getattr(command, "commands", {}).values():
        attach_global_options(sub)


def _name_not_found(command: click.Command) -> None:
    """A missing object's error names the argument that addressed it (``session_id``,
    ``fact_id``, ``entity``) in ``--json``'s ``field``: it was null ("session 9999 does not
    exist"), where a bad ``--limit`` names ``limit``."""
    from memlane.errors import NotFoundError, ValidationError

    invoke = command.invoke

    def naming_invoke(ctx: click.Context) -> Any:
        try:
            return invoke(ctx)
        except ValidationError as e:
            bad = _bad_value(command, ctx, e)
            if bad is None:
                raise
            raise bad from e
        except NotFoundError as e:
            if getattr(e, "field", None) is None:
                given = [p.name for p in command.params
                         if p.name and (p.name in ("id", "entity") or p.name.endswith("_id"))
                         and ctx.params.get(p.name) is not None]
                if len(given) == 1:
                    e.field = given[0]  # type: ignore[attr-defined]
            raise

    command.invoke = naming_invoke  # type: ignore[method-assign]


def _bad_value(command: click.Command, ctx: click.Context,
               error: Exception) -> click.BadParameter | None:
    """A value memlane's checks refused (``ValidationError`` naming ``k``, ``scope``, ``at``…)
    that the command line gave, as the usage error click gives a value its type refuses:
    ``Invalid value for '-k': must be an integer from 1 to 1000, got 0``, exit 2, ``--json``'s
    field the option (``-k``). A bad value was exit 1 and named ``k`` when memlane refused
    it, exit 2 and ``--top-sessions`` when click did; None for an error of something else
    (an import file's line, a conflict with what is stored)."""
    from memlane.errors import ConflictError, ImportFormatError

    field = getattr(error, "field", None)
    if not field or isinstance(error, (ConflictError, ImportFormatError)):
        return None
    for param in command.params:
        names = {param.name, *(o.lstrip("-").replace("-", "_") for o in param.opts)}
        value = ctx.params.get(param.name) if param.name else None
        if field in names and value is not None and value != () and value is not False:
            reason = str(error).removeprefix(f"{field}: ")
            return click.BadParameter(reason, ctx=ctx, param=param)
    return None


def root_config_path(ctx: click.Context | None = None) -> str | None:
    """The ``--config`` of this invocation (before or after the command), or None."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return None
    value = (ctx.find_root().obj or {}).get("config_path")
    return None if value is None else str(value)
