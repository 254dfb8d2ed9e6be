"""PostgreSQL connections, nested transactions, migrations and error translation."""

from __future__ import annotations

import os
import re
import select
import struct
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

try:
    import psycopg
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(
        "PostgreSQL support needs psycopg: pip install 'memlane[postgres]'"
    ) from e

import numpy as np
from psycopg import pq
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.sql import Composable

from memlane.errors import MigrationError, StoreError
from memlane.store.migrations import Migration, load_migrations, schema_mismatch
from memlane.store.rekey import step_of
from memlane.store.sql.base import Cursor
from memlane.store.urls import public_url, scrub

__all__ = [
    "LOCK_FACTS", "LOCK_INDEX", "LOCK_MIGRATE", "LOCK_RESERVE", "LOCK_SCOPE", "Database", "Vector", "peek_migrations",
    "public_url", "translate",
]

Tracer = Callable[[str, str, Any], None]

# Namespaces (first key) of memlane's advisory locks, so they never meet another app's.
LOCK_MIGRATE = 0x6D6C0001
LOCK_SCOPE = 0x6D6C0002
LOCK_INDEX = 0x6D6C0003
LOCK_FACTS = 0x6D6C0004
LOCK_RESERVE = 0x6D6C0005  # session-level: a session an indexer has taken to embed
LOCK_LINKS = 0x6D6C0006  # a scope's story threads and item links (link_items)

# Per-connection settings: HNSW searches deep enough (150 makes up for the cheaper
# ef_construction of search.HNSW_EF_CONSTRUCTION), and keep scanning while filters reject
# candidates (pgvector 0.8 iterative scans) so a filtered search is not starved.
_SESSION_SETTINGS = (
    "SET hnsw.ef_search = 150",
    "SET hnsw.iterative_scan = relaxed_order",
    "SET hnsw.max_scan_tuples = 40000",
)


class Vector:
    """A float32 vector sent in pgvector's binary format (bind it with ``%b``).

    ``int16 dim, int16 0, dim x float4`` big-endian: about 25 times faster to send than a
    float array cast to ``vector``. The parameter's type is left for the server to infer
    from its context (a ``vector`` column or a ``::vector(n)`` cast).
    """

    __slots__ = ("data",)

    def __init__(self, values: np.ndarray) -> None:
        a = np.asarray(values, dtype=">f4").reshape(-1)
        self.data = struct.pack(">HH", a.shape[0], 0) + a.tobytes()


class _VectorDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Vector) -> bytes:
        return obj.data


READ_ONLY_TEXT = ("db: the PostgreSQL database is read-only for this connection (a standby, a "
                  "read-only role or default_transaction_read_only): nothing can be written "
                  "to it, and nothing was")
"""What a write to a database this connection may not write says."""


_WRITES = re.compile(r"\b(?:INSERT|UPDATE|DELETE|MERGE|TRUNCATE|nextval|setval)\b"
                     r"|\bFOR\s+(?:KEY\s+)?SHARE\b"
                     r"|\bLOCK\s+TABLE\b(?![^;]*\bACCESS\s+SHARE\b)"
                     r"|\bCOPY\s+(?!\()[^;]*?\bFROM\b", re.IGNORECASE)
"""Words of a statement that needs more than SELECT (``FOR UPDATE`` and ``FOR SHARE``
need UPDATE too, ``nextval`` a sequence's USAGE or UPDATE, a ``LOCK TABLE`` in any mode
but ACCESS SHARE a write privilege, ``COPY table FROM`` INSERT; not ``COPY (query) TO``:
PostgreSQL's docs of each)."""


def _statement_text(sql: Any, conn: Any = None) -> str:
    """The text of the statement ``sql`` as sent: a ``psycopg.sql.Composable`` (a
    ``Composed`` of ``SQL``, ``Identifier`` and ``Literal`` parts) as ``conn`` renders it
    (``as_string``; session 39: its ``repr`` was read, whose parts are all quoted, so a
    write sent so was read as literals alone and not judged one); bytes decoded; "" when
    it cannot be rendered."""
    if sql is None:
        return ""
    if isinstance(sql, str):
        return sql
    if isinstance(sql, bytes):
        return sql.decode("utf-8", "replace")
    if isinstance(sql, Composable):
        try:
            return sql.as_string(conn)
        except Exception:  # noqa: BLE001 - a closed or broken connection: nothing to read
            return ""
    return str(sql)


def _denied_write(e: psycopg.Error, sql: Any, conn: Any = None) -> bool:
    """Whether ``e`` is a write refused for want of privilege (a role granted SELECT only):
    the failing statement writes, the one in the error's context when a memlane function
    ran it (``SELECT memlane_add_message(…)``'s ``INSERT INTO sessions``), else the one
    sent (``_statement_text``, rendered for ``conn``). A denied read is not one: it is not
    a read-only database's refusal."""
    if not isinstance(e, psycopg.errors.InsufficientPrivilege):
        return False
    text = e.diag.context or _statement_text(sql, conn)
    return bool(_WRITES.search(re.sub(r"'(?:[^']|'')*'", "''", text)))  # (not in literals)


@contextmanager
def translate(what: str, dsn: str | None = None, *, sql: Any = None,
              conn: Any = None) -> Iterator[None]:
    """Turn driver errors into StoreError, chaining the original; with ``dsn``, the
    driver's message has that URL's password masked (libpq quotes a token it cannot read,
    a password with a stray ``%`` for one); ``sql``: the statement sent, on ``conn``."""
    try:
        yield
    except psycopg.Error as e:
        message = str(e).strip()
        # a standby, default_transaction_read_only: no retry helps (session 36); said as
        # SQLite's read-only file is (fix36b: "query failed: cannot execute INSERT in a
        # read-only transaction" named no database, through MCP's tools and the service);
        # a role granted SELECT only alike (session 37: "permission denied for table …",
        # a 503 of the service to retry)
        read_only = (isinstance(e, psycopg.errors.ReadOnlySqlTransaction)
                     or _denied_write(e, sql, conn))
        error = StoreError(READ_ONLY_TEXT if read_only else
                           f"{what}: {scrub(message, dsn) if dsn else message}")
        error.read_only = read_only
        error.busy = isinstance(e, psycopg.errors.LockNotAvailable)  # ``atomic(wait=False)``
        raise error from e
    except UnicodeEncodeError as e:  # e.g. a lone surrogate in a text value
        raise StoreError(f"{what}: text is not valid Unicode ({e.reason})") from e


NO_WAIT = "1ms"
"""``lock_timeout`` of a transaction asked not to wait (``atomic(wait=False)``): 0 would be
no limit, so the shortest there is."""
_PACKAGE = "memlane.store.postgres"
_FULL = ("too many clients", "too many connections", "remaining connection slots")
"""PostgreSQL's words for a server (or a role's, a database's limit) with no connection left."""
CROWDED_SECONDS = 10.0
"""How long after a connection refused for want of slots ``release_if_crowded`` gives
connections back (anyio ends an idle worker thread, and so its connection, after 10 s)."""


def _gone(conn: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection was closed by the server, found without a round trip.

    With nothing asked, a server that ends a connection (a restart, a fast or immediate
    shutdown, ``pg_terminate_backend``) sends FATAL, then closes: the socket is readable.
    libpq reads the FATAL as a notice and the end of the stream as a broken connection.
    Before, the connection was only known broken once a statement failed on it, so each
    thread's first call after a restart failed (session 24)."""
    if conn.broken or conn.closed:
        return True
    pg = conn.pgconn
    if (pg.transaction_status != pq.TransactionStatus.IDLE
            or pg.pipeline_status != pq.PipelineStatus.OFF or pg.is_busy()):
        return False  # something is under way: whatever arrives is its answer
    for _ in range(2):
        try:
            if not select.select([pg.socket], [], [], 0)[0]:
                return False
            pg.consume_input()
        except (OSError, ValueError, psycopg.Error):
            return True
        if pg.status != pq.ConnStatus.OK:
            return True
    return False


_SOCKET_CLOSED = "connection socket closed"
"""psycopg's words when the socket under a connection was closed as it waited on it."""


def _socket_closed(conn: psycopg.Connection[Any], exc: BaseException) -> bool:
    """Whether a statement failed because the connection's socket was closed under it: libpq
    has not read the end of the stream, so the connection is not yet ``broken``, but nothing
    goes through it again (session 55: in a PostgreSQL index run whose connection the server
    ended, a statement failed so and the session's attempt was counted as its own failure)."""
    if str(exc) == _SOCKET_CLOSED:
        return True
    try:
        os.fstat(conn.pgconn.socket)
    except (OSError, psycopg.Error):
        return True
    return False


class _Slot:
    """One thread's connection. It lives in that thread's ``threading.local``, so when the
    thread ends the slot is dropped and its connection closed, as on SQLite. They were kept
    open until ``close()``: ``memlane serve`` runs requests in anyio's worker threads, which
    end after 10 idle seconds, and each burst of requests after a pause left its threads'
    connections open on the server (10 more a burst, measured), until PostgreSQL's
    ``max_connections`` refused every client (session 24)."""

    __slots__ = ("__weakref__", "conn", "pid")

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.pid = os.getpid()

    def __del__(self) -> None:
        if os.getpid() != self.pid:  # a forked child's copy: the socket is the parent's
            return
        try:
            self.conn.close()
        except Exception:  # noqa: BLE001 - the interpreter may be shutting down
            pass


class Database:
    """A PostgreSQL database: one autocommit connection per thread, nested ``atomic()``."""

    def __init__(self, url: str, *, tracer: Tracer | None = None) -> None:
        self.dsn = url
        self.url = public_url(url)
        self.tracer = tracer
        self._local = threading.local()
        self._slots: weakref.WeakSet[_Slot] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._closed = False
        self._full_at = -CROWDED_SECONDS  # when a connection was last refused as over the limit
        self.refusals = 0
        """How many statements were refused as read-only (``StoreError.read_only``) so far,
        by any thread: ``PostgresStore.read_only`` takes a new one as its answer (session 40)."""
        try:
            self.migrated = self.migrate()  # what this process applied (not another's)
        except StoreError as e:
            self.close()
            if not str(e).startswith("connecting to "):
                raise
            # the first connection: say where the URL is set (the driver says only what
            # failed: refused, unknown host, a password refused, too many clients)
            raise type(e)(f"{e}\n(the database is the db setting: --db, $MEMLANE_DB or "
                          "db in memlane.toml)") from e
        except BaseException:
            self.close()
            raise

    # -- connections --------------------------------------------------------------------
    @property
    def conn(self) -> psycopg.Connection[Any]:
        if os.getpid() != self._pid:
            # A forked child must not share its parent's sockets: start afresh (and leave
            # the parent's connections alone; closing them here would close the parent's).
            self._pid = os.getpid()
            self._local = threading.local()
            with self._lock:
                self._slots = weakref.WeakSet()
        if self._closed:
            raise StoreError(f"{self.url}: this database was closed (Memory.close() or the end "
                             "of its with block); open a new Memory to use it again")
        slot: _Slot | None = getattr(self._local, "slot", None)
        conn = slot.conn if slot is not None else None
        if conn is not None and not getattr(self._local, "depth", 0) and (
                _gone(conn) or conn.pgconn.transaction_status != pq.TransactionStatus.IDLE):
            # the server went away between transactions (a restart, pg_terminate_backend,
            # idle_session_timeout), or a command was left unfinished outside any atomic()
            # (Ctrl-C or SIGTERM raised while this thread waited for its answer: the
            # connection refused every later command, "another command is already in
            # progress", session 25): reconnect rather than fail the next call with it
            conn.close()
            conn = None
        if conn is None:
            try:
                with translate(f"connecting to {self.url}", self.dsn):
                    conn = psycopg.connect(
                        self.dsn, autocommit=True, connect_timeout=15, application_name="memlane"
                    )
                    for sql in _SESSION_SETTINGS:
                        conn.execute(sql)
            except StoreError as e:
                if any(words in str(e) for words in _FULL):
                    e.full = True
                    self._full_at = time.monotonic()
                raise
            conn.adapters.register_dumper(Vector, _VectorDumper)
            slot = _Slot(conn)
            self._local.slot = slot
            self._local.depth = 0
            with self._lock:
                self._slots.add(slot)
        return conn

    def open_connections(self) -> int:
        """How many connections are open (one per thread that used the database and is
        still alive)."""
        with self._lock:
            return sum(not slot.conn.closed for slot in self._slots)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close every thread's connection; the database cannot be used after (each call
        raises ``StoreError``: a closed ``Memory`` used by mistake must not quietly open new
        connections). Closing twice is allowed."""
        with self._lock:
            self._closed = True
            if os.getpid() == self._pid:
                for slot in list(self._slots):
                    slot.conn.close()
            self._slots = weakref.WeakSet()
        self._local = threading.local()

    @staticmethod
    def portable(sql: str) -> str:
        """Shared SQL is written in psycopg's placeholders already: unchanged."""
        return sql

    def execute(self, sql: Any, params: Any = None, *, binary: bool = False) -> Cursor:
        """Run one statement; ``binary`` asks for its columns in binary format (a
        ``vector`` then comes back as pgvector's bytes, see ``rows.vector_bytes``)."""
        if self.tracer is not None:
            self.tracer("sql", sql if isinstance(sql, str) else repr(sql), None)
        conn = self.conn  # (a failed connection says so itself)
        with self._noting_refusals(), translate("query failed", sql=sql, conn=conn):
            cur = conn.execute(sql, params, binary=binary)
        if not getattr(self._local, "depth", 0):
            self._local.alone = getattr(self._local, "alone", 0) + 1
        return cur

    def executemany(self, sql: Any, rows: Any) -> Cursor:
        if self.tracer is not None:
            self.tracer("sql", sql if isinstance(sql, str) else repr(sql), None)
        conn = self.conn
        with self._noting_refusals(), translate("query failed", sql=sql, conn=conn):
            cur = conn.cursor()
            cur.executemany(sql, rows)
        if not getattr(self._local, "depth", 0):
            self._local.alone = getattr(self._local, "alone", 0) + 1
        return cur

    def copy_in(self, sql: str, data: bytes) -> None:
        """Send ``data`` to the ``COPY … FROM STDIN`` statement ``sql``, judged and counted
        as every other statement (``translate``, ``refusals``; session 41: a COPY refused
        for want of INSERT was the driver's "permission denied", not read-only, and not
        counted, so ``PostgresStore.read_only`` stayed false)."""
        if self.tracer is not None:
            self.tracer("sql", sql, None)
        conn = self.conn
        with self._noting_refusals(), translate("query failed", sql=sql, conn=conn), \
                conn.cursor() as cur, cur.copy(sql) as copy:
            copy.write(data)
        if not getattr(self._local, "depth", 0):
            self._local.alone = getattr(self._local, "alone", 0) + 1

    @property
    def in_transaction(self) -> bool:
        return bool(getattr(self._local, "depth", 0))

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def atomic(self, *, reads: bool = False, wait: bool = True) -> Iterator[psycopg.Connection[Any]]:
        """A transaction or, nested, a SAVEPOINT (psycopg's ``transaction()``). ``wait``
        false (a transaction, not a savepoint): a statement that would wait for a lock
        another transaction holds (a worker's facts lock, a row it updates) fails at once
        (``lock_timeout`` of ``NO_WAIT``), as ``StoreError`` with ``busy`` set, and the
        transaction rolls back. ``reads``:
        the transaction writes nothing (a consistent read, ``live_read``), so its COMMIT is
        not counted in ``progress``: it keeps nothing, and a call that read in one before
        its connection was lost may still run again (session 25: an inspector page, which
        reads the change log's head first, was never read again).

        On error everything inside rolls back and the original exception propagates (a
        failing rollback is logged by psycopg, never raised over it).
        """
        conn = self.conn
        tx = conn.transaction()
        with translate("begin"):
            tx.__enter__()
        if not self._local.depth:
            self._local.locks = set()
        self._local.depth += 1
        try:
            if not wait and self._local.depth == 1:
                with translate("begin"):
                    conn.execute(f"SET LOCAL lock_timeout = '{NO_WAIT}'")
            yield conn
        except BaseException as e:
            self._local.depth -= 1
            self._local.locks = set()  # a rolled-back savepoint released its locks
            if isinstance(e, StoreError):
                e.rolled_back = True
            tx.__exit__(type(e), e, e.__traceback__)
            raise
        self._local.depth -= 1
        if not self._local.depth:
            self._local.locks = set()
            # counted before it is sent: a COMMIT whose answer is lost (the connection ended
            # after the server had it) may have committed, so a call that sent one is never
            # run again (``progress``; session 25: a pack was journaled twice)
            if not reads:
                self._local.commits = getattr(self._local, "commits", 0) + 1
        with self._noting_refusals(), translate("commit"):
            tx.__exit__(None, None, None)

    @contextmanager
    def _noting_refusals(self) -> Iterator[None]:
        """Count a statement refused as read-only (``refusals``)."""
        try:
            yield
        except StoreError as e:
            if e.read_only:
                with self._lock:
                    self.refusals += 1
            raise

    def reset_connection(self) -> None:
        """Close this thread's connection and forget its depth of ``atomic()``
        (``SqlStore.reset_connection``): the server rolls back what it left open. A forked
        child's copy is not closed (the socket is the parent's; ``conn`` starts afresh)."""
        if os.getpid() != self._pid:
            return
        slot: _Slot | None = getattr(self._local, "slot", None)
        self._local.slot = None
        self._local.depth = 0
        self._local.locks = set()
        if slot is not None:
            slot.conn.close()

    def release_if_crowded(self) -> None:
        """Close this thread's connection if the server refused one of this database's for
        want of slots in the last ``CROWDED_SECONDS`` (and the thread is between
        transactions): a caller whose thread is going idle gives its slot back, instead of
        keeping it until the thread ends (anyio: 10 idle seconds), during which the
        process's own idle threads held every slot and its requests were refused."""
        if time.monotonic() - self._full_at > CROWDED_SECONDS or self.in_transaction:
            return
        slot: _Slot | None = getattr(self._local, "slot", None)
        if slot is not None:
            self._local.slot = None
            slot.conn.close()

    def progress(self) -> tuple[int, int]:
        """``(transactions whose COMMIT was sent, statements run outside a transaction)``
        by this thread, to compare before and after a call (``PostgresStore.may_run_again``):
        a COMMIT that failed counts, since the server may have committed it."""
        return int(getattr(self._local, "commits", 0)), int(getattr(self._local, "alone", 0))

    def lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` is this thread's connection lost in the middle of a call (the
        server ended it: ``pg_terminate_backend``, a restart, a crash; or the network
        failed), not a refused connection or an error of the statement; or a helper
        thread's connection, lost as it worked for this call (``judged_here``). The next
        call reconnects (``conn``)."""
        if isinstance(exc, StoreError) and exc.lost:
            return True
        slot: _Slot | None = getattr(self._local, "slot", None)
        return (isinstance(exc, StoreError) and isinstance(exc.__cause__, psycopg.OperationalError)
                and not str(exc).startswith("connecting to ") and slot is not None
                and (slot.conn.broken or slot.conn.closed or _socket_closed(slot.conn, exc.__cause__)))

    @contextmanager
    def judged_here(self) -> Iterator[None]:
        """A helper thread's part of a call (a search's lexical list, ``SEARCH_THREADS``):
        a ``StoreError`` leaving it is marked ``lost`` when it lost this thread's
        connection, which the calling thread cannot see (session 25: the helper's
        connection ended under an unscoped search failed it with a 503, where the same loss
        on the calling thread's connection runs it again)."""
        try:
            yield
        except StoreError as e:
            if self.lost(e):
                e.lost = True
            raise

    @staticmethod
    def ended_before_commit(exc: BaseException) -> bool:
        """Whether the server ended the failing statement's connection itself, with its
        reason (``pg_terminate_backend``, a fast shutdown: 57P01; a crash of another
        backend: 57P02): it aborts the transaction it was in, so nothing of it committed.
        A connection that merely broke says nothing of the kind."""
        return getattr(exc.__cause__, "sqlstate", None) in ("57P01", "57P02")

    def xact_lock(self, space: int, key: str) -> None:
        """``pg_advisory_xact_lock(space, hashtext(key))``, once per transaction.

        A batch that writes many rows of one scope in one transaction takes the scope's
        lock once instead of once a row (the lock is held to commit either way).
        """
        locks = getattr(self._local, "locks", None)
        if locks is not None and (space, key) in locks:
            return
        self.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (space, key))
        if locks is not None and self.in_transaction:
            locks.add((space, key))

    # -- migrations ---------------------------------------------------------------------
    def applied(self) -> list[tuple[str, str]]:
        """``(name, sha256)`` of applied migrations, in order. Read-only."""
        if self.execute("SELECT to_regclass('schema_migrations')").fetchone()[0] is None:
            return []
        rows = self.execute("SELECT name, sha256 FROM schema_migrations ORDER BY name")
        return [(r[0], r[1]) for r in rows]

    def check_schema(self) -> None:
        """Raise ``MigrationError`` naming both versions unless the database is at this
        memlane's schema (another process migrated it since it was opened, or it was
        replaced by an older copy): the index worker asks before each run, a ``Memory``'s
        call every few seconds. Read in a transaction that writes nothing, so a call that
        asked may still run again on a lost connection (``progress``)."""
        with self.atomic(reads=True):
            applied = [name for name, _ in self.applied()]
        why = schema_mismatch(self.url, [m.name for m in load_migrations(_PACKAGE)], applied)
        if why:
            raise MigrationError(why)

    def probe_write(self) -> None:
        """Raise ``StoreError`` unless the server answers (an outage is a connection's:
        PostgreSQL locks rows, never the database)."""
        self.execute("SELECT 1")

    def pending(self) -> list[str]:
        """Names of migrations not yet applied. Read-only."""
        done = {name for name, _ in self.applied()}
        return [m.name for m in load_migrations(_PACKAGE) if m.name not in done]

    def who(self) -> tuple[str, str]:
        """The role this store connects as and the schema its tables go in, for an error
        that tells what to grant (``?`` for what cannot be read)."""
        try:
            row = self.execute("SELECT current_user, current_schema()").fetchone()
        except StoreError:
            return "?", "?"
        return str(row[0]), str(row[1] or "public")

    def _check(self, known: dict[str, Migration], applied: dict[str, str]) -> None:
        newer = schema_mismatch(self.url, list(known), list(applied), older=False)
        if newer:
            raise MigrationError(newer)
        for name, sha in applied.items():
            if known[name].sha256 != sha:
                raise MigrationError(f"migration {name!r} was edited after it was applied")

    def migrate(self) -> list[str]:
        """Apply pending migrations, each in its own transaction; refuse edited ones.

        Every step holds a transaction-scoped advisory lock, so processes that start at
        once apply each migration exactly once (the others wait, then see it applied).
        """
        known = {m.name: m for m in load_migrations(_PACKAGE)}
        try:
            before = dict(self.applied())
        except StoreError as e:
            if not isinstance(e.__cause__, psycopg.errors.InsufficientPrivilege):
                raise
            raise StoreError(_may_not_read(self.url, *self.who(), _primary(e))) from e
        self._check(known, before)
        done: list[str] = []
        if all(name in before for name in known):
            # nothing to do, nothing written: a database at head opens read-only (a
            # replica, default_transaction_read_only, a role granted SELECT only)
            return done
        for name, mig in known.items():
            if name in before:
                continue
            try:
                with self.atomic():
                    self.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_MIGRATE,))
                    self.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY,"
                        " sha256 text NOT NULL, applied_at double precision NOT NULL)"
                    )
                    applied = dict(self.applied())
                    self._check(known, applied)
                    if name in applied:
                        continue  # another process applied it while we waited
                    with translate(f"migration {name!r}"):
                        self.conn.execute(mig.sql)
                    if (step := step_of(name)) is not None:  # ``memlane.store.rekey``
                        step(self)
                    self.execute(
                        "INSERT INTO schema_migrations (name, sha256, applied_at) VALUES (%s, %s, %s)",
                        (name, mig.sha256, time.time()),
                    )
            except StoreError as e:
                if isinstance(e, MigrationError):
                    raise
                hint, text = "", _primary(e)
                if 'extension "vector"' in text:
                    hint = ("\nmemlane needs pgvector: install it on the server and have a "
                            "superuser run CREATE EXTENSION vector; in this database once")
                elif isinstance(e.__cause__, psycopg.errors.InsufficientPrivilege):
                    role, schema = self.who()
                    hint = (f"\nthe role {role} may not create memlane's tables in schema "
                            f"{schema}: have the database's owner run GRANT CREATE ON SCHEMA "
                            f"{schema} TO {role}; once, or run memlane migrate as the owner "
                            f"and grant {role} reading and writing (README, PostgreSQL)")
                raise MigrationError(f"migration {name!r} of {self.url} failed: {text}{hint}") from e
            done.append(name)
        return done


def _may_not_read(url: str, role: str, schema: str, why: str) -> str:
    """What a role that may not read memlane's tables is told (opening, ``migrate``)."""
    return (f"{url}: the role {role} may not read memlane's tables ({why}): have the "
            f"database's owner run GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN "
            f"SCHEMA {schema} TO {role}; and GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN "
            f"SCHEMA {schema} TO {role};")


def _primary(e: StoreError) -> str:
    """The driver's own message of a failed statement, without the statement's text and
    caret (``LINE 1: CREATE TABLE …``) or what ``translate`` put in front of it."""
    cause = e.__cause__
    diag = getattr(cause, "diag", None)
    primary = getattr(diag, "message_primary", None)
    return str(primary) if primary else str(e)


def peek_migrations(url: str) -> dict[str, list[str]]:
    """Applied, pending, edited and unknown migrations of ``url``; changes nothing."""
    known = {m.name: m.sha256 for m in load_migrations(_PACKAGE)}
    applied: dict[str, str] = {}
    with (
        translate(f"reading migrations of {public_url(url)}", url),
        psycopg.connect(url, autocommit=True, connect_timeout=15) as conn,
    ):
        row = conn.execute("SELECT to_regclass('schema_migrations')").fetchone()
        if row is not None and row[0] is not None:
            try:
                applied = dict(conn.execute("SELECT name, sha256 FROM schema_migrations").fetchall())
            except psycopg.errors.InsufficientPrivilege as e:
                who = conn.execute("SELECT current_user, current_schema()").fetchone() or ("?", "?")
                raise StoreError(_may_not_read(public_url(url), who[0], who[1] or "public",
                                               e.diag.message_primary or str(e))) from e
    return {
        "applied": sorted(applied),
        "pending": [n for n in known if n not in applied],
        "edited": sorted(n for n, sha in applied.items() if n in known and known[n] != sha),
        "unknown": sorted(n for n in applied if n not in known),
    }
