"""SQLite connections, nested transactions, migrations and error translation."""

from __future__ import annotations

import functools
import os
import re
import sqlite3
import sys
import threading
import time
import urllib.parse
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from memlane.errors import MigrationError, StoreError
from memlane.store.migrations import Migration, load_migrations, schema_mismatch
from memlane.store.rekey import step_of
from memlane.store.sql.placeholders import to_qmark

__all__ = ["Database", "Migration", "translate"]

Tracer = Callable[[str, str, Any], None]


@contextmanager
def translate(what: str) -> Iterator[None]:
    """Turn driver errors into StoreError, chaining the original."""
    try:
        yield
    except sqlite3.Error as e:
        if getattr(e, "sqlite_errorcode", 0) == _READONLY_ROLLBACK:
            raise StoreError(f"{what}: the file {_unfinished(what)}") from e
        hint = file_hint(e)
        raise StoreError(f"{what}: {e}" + (f" ({hint})" if hint else "")) from e


@contextmanager
def _no_busy_wait(conn: sqlite3.Connection) -> Iterator[None]:
    """Statements inside fail at once on a lock another connection holds (busy timeout 0),
    where they would wait up to ``_BUSY_SECONDS``: ``probe_write``, ``atomic(wait=False)``."""
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_SECONDS * 1000)}")


def _unfinished(path: str) -> str:
    """What a read of a file whose writer died in a transaction says: SQLite's "attempt to
    write a readonly database" (SQLITE_READONLY_ROLLBACK) on a read named no journal
    (session 37: such a file is no longer read ``immutable``, which gave torn rows)."""
    return (f"holds a transaction its writer did not finish (its {Path(path).name}-journal), "
            "which a process that may write the file rolls back: open it once there; "
            "nothing was read")


_PACKAGE = "memlane.store.sqlite"

# SQLite's primary result codes that are about the file, not the statement: their message
# ("database or disk is full", "attempt to write a readonly database", "disk I/O error")
# names no file, so the error names it (a process may have several databases open).
_FILE_ERRORS = {
    8: "the file or its folder is read-only for this process",  # SQLITE_READONLY
    10: "reading or writing the file failed",  # SQLITE_IOERR
    11: "the file is damaged",  # SQLITE_CORRUPT
    13: "the disk is full; free space and try again, nothing was written",  # SQLITE_FULL
    14: "the file cannot be opened",  # SQLITE_CANTOPEN
    26: "the file is not a SQLite database",  # SQLITE_NOTADB
}


def file_hint(e: sqlite3.Error) -> str | None:
    """What ``e`` means if it is about the file (disk full, read-only, damaged), else None."""
    code = getattr(e, "sqlite_errorcode", None)
    return _FILE_ERRORS.get(code & 0xFF) if isinstance(code, int) else None


_READONLY = 8  # SQLITE_READONLY
_IOERR = 10  # SQLITE_IOERR
_WRITE_STATEMENT = re.compile(
    r"(?:\s|--[^\n]*\n|/\*.*?\*/)*"
    r"(?:(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|VACUUM|REINDEX|ANALYZE)\b"
    r"|WITH\b.*\)\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b)", re.IGNORECASE | re.DOTALL)
"""A statement that may write, by its first word (or the one after its ``WITH``'s common
table expressions): the single statements outside a transaction that ask whether a file
open for writing was made read-only since (``Database.execute``). A read taken for one is
only judged, never refused: SQLite decides what a statement writes (``query_only``)."""
_READONLY_ROLLBACK = 776  # SQLITE_READONLY_ROLLBACK: a hot journal this connection may not roll back


def read_only_text(path: str) -> str:
    """What a write to a database this process may not write says (session 36: ``memlane
    index``, ``gc``, ``add`` … on a read-only file ended on SQLite's "query failed: …:
    attempt to write a readonly database")."""
    return (f"db: {path} is read-only for this process (the file, its folder or its mount, "
            "or ?mode=ro): nothing can be written to it, and nothing was")


def file_error(what: str, path: str, e: sqlite3.Error) -> StoreError:
    """A StoreError for ``e``; one about the file names ``path`` and says what it means."""
    hint = file_hint(e)
    if hint is None:
        return StoreError(f"{what}: {e}")
    code = getattr(e, "sqlite_errorcode", 0)
    if code == _READONLY_ROLLBACK:  # a read, which must roll the journal back first
        return StoreError(f"db: {path} {_unfinished(path)}")
    if isinstance(code, int) and code & 0xFF == _READONLY:
        error = StoreError(read_only_text(path))
        error.read_only = True
        return error
    return StoreError(f"{what}: {path}: {e} ({hint})")


class _Slot:
    """One thread's connection. It lives in that thread's ``threading.local``, so when the
    thread ends the slot is dropped and its connection closed: short-lived threads do not
    leak connections and file descriptors until ``Database.close()``."""

    __slots__ = ("__weakref__", "conn", "depth", "generation", "refuses", "stamp")

    def __init__(self, conn: sqlite3.Connection, stamp: tuple[int, ...] | None = None,
                 refuses: bool = False, generation: int = 0) -> None:
        self.conn = conn
        self.refuses = refuses
        """Whether the connection refuses writes: opened read-only, or set ``query_only``
        once the file it opened for writing was made read-only (session 39)."""
        self.depth = 0
        self.generation = generation
        """``Database._generation`` when the connection was opened: an older one was opened
        read-only, and the file has been judged writable since (session 37, fix37b)."""
        self.stamp = stamp
        """For a connection reading the file ``immutable``: the file as it was then
        (``file_stamp``); None otherwise."""

    def __del__(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:
            pass  # already closed, or the interpreter is shutting down


_BUSY_SECONDS = 30.0
"""How long a writer waits for the database before it gives up with an error."""


def _wal(conn: sqlite3.Connection) -> None:
    """Put the file in WAL mode. Switching a new file's journal mode takes an exclusive lock
    that SQLite does not wait for through the busy handler: processes opening one new file at
    once got "database is locked" here (4 at once under load). A file already in WAL mode
    needs no switch; otherwise the switch is retried for up to ``_BUSY_SECONDS``."""
    deadline = time.monotonic() + _BUSY_SECONDS
    pause = 0.005
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


MMAP_BYTES = 2**31 - 2**16
"""How much of the file each connection reads through a memory map (SQLite's default cap,
``SQLITE_MAX_MMAP_SIZE``; a larger file maps its first ``MMAP_BYTES``). A page read
through the map costs no system call and no copy into the connection's page cache: a
search at 1M items reads a few hundred rows scattered over the file (candidates, the
vector stage's filter check, FTS5's row sizes), most of them outside the 64 MB cache.
Measured at 1M items: 400 random items read in 1.95 against 2.8 ms of CPU, the vector
stage's filter check of 400 ids 0.67 against 1.3 ms (docs/scaling.md, seventh round).
The mapped pages are the operating system's file cache, shared by every process and
connection, and counted in a process's resident memory (``RssFile``) once touched."""


def check_location(path: str, *, folder_missing_ok: bool = False) -> Path:
    """The file a database ``path`` names (``~`` expanded), refused when it cannot be one:
    its folder missing (unless ``folder_missing_ok``) or a file, the path a folder, or a
    path the system cannot look up (a loop of symbolic links, a name too long, a folder
    this process may not enter: ``RuntimeError`` and ``OSError`` escaped from pathlib,
    session 29), each a ``StoreError`` naming ``db``."""
    try:
        file = Path(path).expanduser()
        parent = file.resolve().parent
        if not parent.exists():
            if folder_missing_ok:
                return file
            raise StoreError(f"db: folder {parent} does not exist; create it or pass another --db")
        if not parent.is_dir():
            raise StoreError(f"db: {parent} is a file, not a folder; pass a path inside a folder")
        if file.is_dir():
            raise StoreError(f"db: {path} is a folder, not a database file; pass a file "
                             "path (e.g. " + str(Path(path) / "memlane.db") + ")")
        return file
    except (OSError, RuntimeError) as e:  # RuntimeError: pathlib's symbolic link loop, ~user
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        why = "a loop of symbolic links" if why.startswith("Symlink loop") else why
        raise StoreError(f"db: {path} cannot be used: {why}; pass another --db") from None


def _chattr_immutable(file: Path) -> bool:
    """Whether ``file`` carries Linux's immutable attribute (``chattr +i``): not even root
    may write it. False where the system or the file system cannot say."""
    if not sys.platform.startswith("linux"):
        return False
    import fcntl
    import struct

    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        flags = fcntl.ioctl(fd, 0x80086601, b"\0" * 8)  # FS_IOC_GETFLAGS
        return bool(struct.unpack_from("i", flags)[0] & 0x10)  # FS_IMMUTABLE_FL
    except OSError:  # a file system without attributes
        return False
    finally:
        os.close(fd)


def nobody_writes(file: Path) -> bool:
    """Whether no process may change ``file`` while it is read: its mode gives no one write
    access, its mount is read-only, or it is ``chattr +i``. A file only this process may
    not write (another user's, or opened ``?mode=ro``) can be written by another process."""
    try:
        if not file.stat().st_mode & 0o222:
            return True
        if os.statvfs(file).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return _chattr_immutable(file)


def settled(file: Path) -> bool:
    """Whether ``file`` holds all of itself: no ``-wal``, or an empty one with no ``-shm``
    beside it. No connection in WAL mode is open on it (one keeps the two files; a writer
    makes its ``-wal`` when it opens the file), and the last one to close checkpointed
    everything into the file. A ``-shm`` with no ``-wal`` indexes nothing (session 38: one
    left so, the ``-wal`` removed or never copied, in a folder this process may not write,
    could not be read at all, as SQLite reading through the ``-shm`` must make the
    ``-wal``). Nor a ``-journal`` that is not empty (session 37): a file taken out of WAL
    mode whose writer died in a transaction keeps the pages to restore there, and read
    ``immutable`` (which ignores the journal) it gave the half-written transaction's rows
    without an error."""
    wal, shm, journal = Path(f"{file}-wal"), Path(f"{file}-shm"), Path(f"{file}-journal")
    try:
        return ((not wal.exists() or (wal.stat().st_size == 0 and not shm.exists()))
                and (not journal.exists() or journal.stat().st_size == 0))
    except OSError:
        return False


def opens_read_only(file: Path, *, mode_ro: bool = False, resolved: bool = False) -> bool:
    """Whether memlane opens the SQLite file ``file`` read-only (or, missing, cannot make
    it): asked to (``mode_ro``: ``?mode=ro``), or this process may not write the file, or
    a ``-wal`` or ``-shm`` beside it, or may write neither its folder nor both of those
    WAL writes through (they lie beside the file a symbolic link names, as SQLite puts
    them). The one judgment of "may this database be written": ``Database`` opens by it,
    and the CLI refuses a writing command by it before opening (session 37: the two were
    written twice, and the CLI's left ``?mode=ro`` to be found after the opening had made
    a ``-wal`` and a ``-shm``). ``resolved``: ``file`` is a resolved path already (an open
    ``Database``'s, asked before each write transaction since session 38); the checks are
    ``os`` calls on strings, as pathlib's cost that ask several times over (measured in
    docs/hardening.md, "Session 38: fix38")."""
    if mode_ro:
        return True
    name = os.fspath(file)
    if os.path.exists(name) and not os.access(name, os.W_OK):
        return True
    real = name if resolved else os.fspath(file.resolve())
    sides = [(side, os.path.exists(side)) for side in (f"{real}-wal", f"{real}-shm")]
    if any(there and not os.access(side, os.W_OK) for side, there in sides):
        return True  # (another user's reader made them: SQLite's every write fails there)
    return (not all(there for _, there in sides)
            and not os.access(os.path.dirname(real), os.W_OK))


def reads_immutable(path: str | Path) -> bool:
    """Whether a reader opens the SQLite file ``path`` ``immutable`` (``read_only_uri``): it
    holds all of itself (``settled``) and no process may write it (``nobody_writes``), or
    this process may not write its folder (where SQLite could not make the ``-shm`` a
    reader beside a writer needs). ``Database._reopen`` judges a changed file by it too."""
    file = Path(path).expanduser().resolve()
    return settled(file) and (nobody_writes(file) or not os.access(file.parent, os.W_OK))


def read_only_uri(path: str | Path, *, immutable: bool | None = None) -> str:
    """The URI that opens the SQLite file ``path`` for reading only. A reader of a WAL
    database in a folder it may write made an empty ``-wal`` and a ``-shm`` beside it and,
    unable to delete them (only a writer checkpoints and deletes), left them (session 36:
    ``memlane search``, ``stats``, ``serve``, the check that a file is memlane's, on a
    ``chmod 444`` file). A settled file no process may write is opened ``immutable`` (SQLite
    then takes no lock and makes no file); one another process may write is opened
    ``mode=ro`` alone, as SQLite needs the ``-shm`` to read beside a writer (it is made if
    missing). ``immutable`` given decides it (``Database`` decided it already)."""
    file = Path(path).expanduser().resolve()
    if immutable is None:
        immutable = reads_immutable(file)
    # the path's bytes quoted: a name that is not UTF-8 holds lone surrogates, which
    # ``quote`` of the str cannot encode (session 37: every command on such a file failed)
    return (f"file:{urllib.parse.quote(os.fsencode(file))}?mode=ro"
            + ("&immutable=1" if immutable else ""))


def _references(conns: list[sqlite3.Connection]) -> list[int]:
    """How many references each of ``conns`` has (``sys.getrefcount``)."""
    return [sys.getrefcount(conn) for conn in conns]


@functools.cache
def _references_alone() -> int | None:
    """What ``_references`` counts for a connection its list alone holds: the list's entry,
    the count's own, and the connection's (its statement cache refers to it). Measured, not
    assumed (it differs between Pythons); None where references are not counted (PyPy has
    no ``sys.getrefcount``), or where a cursor held does not raise the count (a Python whose
    count is not exact: session 39): then no retired connection is closed before ``close``,
    as before session 38, and none in use ever is."""
    if not hasattr(sys, "getrefcount"):
        return None
    held = [sqlite3.connect(":memory:")]
    held[0].execute("SELECT 1").fetchall()
    try:
        alone = _references(held)[0]
        cursor = held[0].execute("SELECT 1")  # a use: the connection is referred to once more
        used = _references(held)[0]
        del cursor
        return alone if used > alone else None
    finally:
        held[0].close()


def _close_unused(conns: list[sqlite3.Connection]) -> list[sqlite3.Connection]:
    """Of ``conns`` (retired connections, held by that list only), close those nothing else
    refers to (no cursor of one is left to read, no caller holds it); the others, still
    open. None is closed where references are not counted."""
    alone = _references_alone()  # (measured at the first swap, not at import)
    if alone is None:
        return conns
    kept = []
    for conn, n in zip(conns, _references(conns), strict=True):
        if n > alone:
            kept.append(conn)
            continue
        try:
            conn.close()
        except sqlite3.Error:
            pass
    return kept


def write_stamp(file: str) -> tuple[int, ...] | None:
    """What may change when whether this process may write the open SQLite file ``file``
    (a resolved path) changes, while its ``-wal`` and ``-shm`` are there (a writer keeps
    them): the file's and the ``-shm``'s device, inode, mode, owner, group and change
    time (``chmod``, ``chattr +i``, an ACL, another file renamed over it all move it; a
    write moves neither: the file's only at a checkpoint, the mapped ``-shm``'s not), and
    the ``-wal``'s inode, mode, owner and group, not its change time, which every write
    moves (``chattr +i`` or an ACL on the ``-wal`` alone is not seen here: SQLite's next
    write into it fails, "disk I/O error", nothing stored, and that error has the file
    judged again, ``Database._error``, session 40). None when one of the three is
    missing (then the folder decides, which this does not see). ``Database`` judges
    ``opens_read_only`` again only when it differs (session 39: the judgment was asked at
    every write transaction and every ``read_only``, 20-51 us each under load)."""
    try:
        st = os.stat(file)
        wal = os.stat(f"{file}-wal")
        shm = os.stat(f"{file}-shm")
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_mode, st.st_uid, st.st_gid, st.st_ctime_ns,
            shm.st_dev, shm.st_ino, shm.st_mode, shm.st_uid, shm.st_gid, shm.st_ctime_ns,
            wal.st_ino, wal.st_mode, wal.st_uid, wal.st_gid)


def file_stamp(file: str | Path) -> tuple[int, ...] | None:
    """What an ``immutable`` reader of ``file`` checks before each statement: the file's
    device, inode, mode, size, modification and change times, and whether a ``-shm`` or a
    ``-wal`` (and its size) is beside it; None when the file cannot be read. Session 37
    (rev37): the decision to read a file ``immutable`` was taken once, when the ``Database``
    opened; a file then made writable and written by another process, or another file
    renamed over it, was read as it had been (the writer's messages missing while its
    ``-wal`` held them, and a checkpoint could rewrite pages under the reader). A writer
    makes the ``-shm`` when it opens the file, and a change of the file's mode or contents
    moves its change time."""
    name = os.fspath(file)
    try:
        st = os.stat(name)
    except OSError:
        return None
    try:
        wal = os.stat(f"{name}-wal").st_size
    except OSError:
        wal = -1
    return (st.st_dev, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns,
            int(os.path.exists(f"{name}-shm")), wal)


class Database:
    """A SQLite file: one connection per thread (closed when the thread ends), WAL,
    foreign keys, nested ``atomic()``."""

    def __init__(self, path: str | Path, *, tracer: Tracer | None = None,
                 read_only: bool = False) -> None:
        self.path = str(path)
        self._at = self.path
        """The file every connection opens: for a file, the one the path named when the
        database opened, its symbolic links resolved (``_file``; session 38, rev38: each
        thread's connection opened the path as given, so after the process changed its
        working folder a relative path named another file there, made if missing, and
        after a link was pointed at another database a new thread read and wrote that one
        while the others kept the first)."""
        self.tracer = tracer
        self._local = threading.local()
        self._slots: weakref.WeakSet[_Slot] = weakref.WeakSet()
        self._lock = threading.Lock()
        # Writers of this process queue here, woken the moment the writer before them
        # commits; only writers of other processes meet SQLite's busy handler, which
        # polls with sleeps of up to 100 ms (under 8 concurrent writers it set a p95 of
        # 1.5 s on batched adds).
        self._write_lock = threading.Lock()
        self._closed = False
        self._pid = os.getpid()
        self._immutable = False
        self._retired: list[sqlite3.Connection] = []  # (``_reopen``; closed with the rest)
        self._asked = read_only
        """Opened read-only because asked (``?mode=ro``, ``read_only=True``): never judged
        again. A file judged read-only by what this process may write is judged again
        (``read_only``)."""
        self._generation = 0
        self._writable_at: tuple[int, ...] | None = None
        """The file's ``write_stamp`` when it was last judged writable (``_made_read_only``):
        judged again only once the stamp differs."""
        self._judged: tuple[bool, tuple[int, ...] | None] = (False, None)
        """Whether connections read the file ``immutable``, and the file as it was just
        before that was judged (``file_stamp``): a connection opened later by another
        thread checks against it, not against the file as that thread found it."""
        if self.path != ":memory:":
            check_location(self.path)
        self._file = Path(self.path).expanduser().resolve() if self.path != ":memory:" else None
        self._at = self.path if self._file is None else str(self._file)
        stamp = file_stamp(self._file) if self._file is not None else None
        # A file this process may not write (its mode, a read-only mount, an immutable
        # file) is opened read-only, as ``?mode=ro`` asks: searches and reads work, and
        # memlane skips the writes a read would make (session 22). Opened read-write,
        # SQLite failed on the first read ("attempt to write a readonly database": WAL).
        self._read_only = read_only or (
            self.path != ":memory:" and Path(self.path).expanduser().is_file()
            and opens_read_only(Path(self.path).expanduser()))
        if self._read_only and not Path(self.path).expanduser().is_file():
            raise StoreError(f"db: {self.path} does not exist; a database opened read-only "
                             "(?mode=ro) must be there already")
        if self.path != ":memory:":
            self._folder_read_only()
            if self._read_only and not self._immutable:  # session 36: no files left beside it
                file = Path(self.path).expanduser().resolve()
                self._immutable = settled(file) and nobody_writes(file)
        self._judged = (self._immutable, stamp if self._immutable else None)
        self.migrated = self.migrate()  # what this process applied (not another's)

    def _folder_read_only(self) -> None:
        """A folder this process may not write (a read-only mount, a folder of another
        user): WAL needs the ``-wal`` and ``-shm`` files beside the database, so a new
        file there is refused naming the folder (it said "unable to open database file"),
        and an existing one, which failed to open at all ("attempt to write a readonly
        database", even with ``?mode=ro``), is opened read-only; with no ``-shm`` file to
        read (a file closed cleanly) it is read as unchanging (SQLite's ``immutable``),
        which a file no process may write is (session 29)."""
        file = Path(self.path).expanduser()
        folder = file.resolve().parent
        if os.access(folder, os.W_OK):
            if not file.exists() and opens_read_only(file):  # SQLite made the file, then failed
                raise StoreError(f"db: {self.path} does not exist, and a -wal or -shm file "
                                 "left beside it is read-only for this process: a new database "
                                 "cannot be made there; remove them or pass another --db")
            return
        if not file.is_file():
            raise StoreError(f"db: folder {folder} is read-only for this process: a new "
                             "database cannot be made there; pass a path in a folder it may "
                             "write")
        if not self._read_only:
            return  # SQLite writes through the -wal and -shm that are there (opens_read_only)
        real = file.resolve()  # (a link's -wal and -shm are beside the file it names)
        wal, shm = Path(f"{real}-wal"), Path(f"{real}-shm")
        if shm.exists() and wal.exists():
            return  # SQLite reads the WAL through them (a -shm alone: ``settled``, session 38)
        if wal.exists() and wal.stat().st_size > 0:
            raise StoreError(
                f"db: {self.path} has writes in {wal.name} not yet in the file, and its folder "
                f"{folder} is read-only for this process, so SQLite cannot read them; open it "
                "once where the folder may be written (or copy the file with its -wal)")
        self._immutable = settled(file)  # not with a -journal to roll back (session 37)

    # -- connections --------------------------------------------------------------------
    def _forked(self) -> None:
        """In a child forked after connections were opened (multiprocessing, a prefork
        server with the app loaded first): the parent's connections are not the child's.
        Using one wrote through the parent's WAL state, and when the parent closed its last
        connection it checkpointed and deleted the WAL the child still wrote to: 135 of 400
        messages a child had stored were gone. The child closes the inherited ones first
        (SQLite shares one record of a file's locks among a process's connections, and
        the copy says locks are held that the child does not hold: its own connection
        then took none, and the parent, seeing no other reader, deleted the WAL), then
        opens its own. Closing one in the child releases nothing of the parent's: its
        locks are the parent process's."""
        for conn in [*(slot.conn for slot in list(self._slots)), *self._retired]:
            try:
                conn.close()
            except sqlite3.Error:
                pass
        self._pid = os.getpid()
        self._local = threading.local()
        self._slots = weakref.WeakSet()
        self._retired = []
        self._lock = threading.Lock()  # a lock another thread held at the fork stays held
        self._write_lock = threading.Lock()

    def _slot(self) -> _Slot:
        if self._pid != os.getpid():
            self._forked()
        slot: _Slot | None = getattr(self._local, "slot", None)
        if slot is None:
            if self._closed:
                raise StoreError(f"{self.path}: this database was closed (Memory.close() or the "
                                 "end of its with block); open a new Memory to use it again")
            generation = self._generation  # (before the opening: a change after it is seen)
            slot = _Slot(*self._connect(), generation=generation)
            self._local.slot = slot
            with self._lock:
                self._slots.add(slot)
        if slot.generation != self._generation and not slot.depth:
            self._renew(slot)  # opened read-only; the file may be written now
        if self._read_only and not slot.refuses and not slot.depth:
            self._refuse_writes(slot)  # opened for writing; the file was made read-only
        if slot.stamp is not None and not slot.depth:  # a new one too: judged before it
            now = file_stamp(self._file or self._at)
            if now is not None and now != slot.stamp:  # (a file gone: the old one is read)
                self._reopen(slot)
        return slot

    def _connect(self) -> tuple[sqlite3.Connection, tuple[int, ...] | None, bool]:
        """A new connection, the file's stamp when it reads the file ``immutable``
        (``_judged``'s, taken before the judgment: a change since is seen at its first
        statement), and whether it was opened read-only."""
        immutable, stamp = self._judged  # one pair: another thread's ``_reopen`` sets both
        read_only = self._read_only
        immutable = immutable and read_only
        with translate(f"opening {self.path}"):
            if read_only:
                conn = sqlite3.connect(
                    read_only_uri(self._at, immutable=immutable), uri=True,
                    isolation_level=None, check_same_thread=False, timeout=_BUSY_SECONDS)
            else:
                conn = sqlite3.connect(
                    self._at, isolation_level=None, check_same_thread=False,
                    timeout=_BUSY_SECONDS
                )
                _wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            # deleted content is overwritten with zeros, not left in free pages
            # (docs/erasure.md; Debian's SQLite compiles this on, other builds not)
            conn.execute("PRAGMA secure_delete = ON")
            conn.execute(f"PRAGMA busy_timeout = {int(_BUSY_SECONDS * 1000)}")
            conn.execute("PRAGMA temp_store = MEMORY")
            conn.execute("PRAGMA cache_size = -65536")
            conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        if self.tracer is not None:
            tracer = self.tracer
            conn.set_trace_callback(lambda sql: tracer("sql", sql, None))
        return conn, stamp if immutable else None, read_only

    def _refuse_writes(self, slot: _Slot) -> None:
        """``slot``'s connection, opened for writing, refuses writes from now on (SQLite's
        ``query_only``: reads go on, through its ``-wal`` too, and a statement that writes
        fails as read-only, ``file_error``), as the file was judged read-only since
        (``_made_read_only``). Every thread's connection is so at its next statement,
        whatever runs it: a single statement outside a transaction (session 39: fix38
        judged ``atomic`` alone, and such a statement was taken into the ``-wal`` of a
        file locked while open), a caller's own use of ``conn``. Judged writable again,
        the connection is opened again for writing (``_renew``)."""
        with translate(f"opening {self.path}"):
            slot.conn.execute("PRAGMA query_only = ON")
        slot.refuses = True

    @property
    def read_only(self) -> bool:
        """Whether the file is opened read-only: asked (``?mode=ro``), or this process may
        not write it (``opens_read_only``). The second is judged again each time it is
        asked, and before each write (``atomic``, ``probe_write``, a statement refused as
        read-only), as the ``immutable`` reader judges its file again (session 37, fix37b:
        it was judged once, and a long-lived process, ``serve``, ``mcp``, a ``Memory``, went
        on refusing writes after the file or its folder was made writable). Judged
        writable, every thread's next statement opens its connection again for writing.
        A file open for writing is judged too, each time this is asked and before each
        write transaction (``_made_read_only``, session 38): made read-only meanwhile, it is
        read-only from then on (the writes a read makes skipped, a write refused), and
        judged again as above."""
        if self._read_only:
            self._judge_read_only_again()
        else:
            self._made_read_only()
        return self._read_only

    def _judge_read_only_again(self) -> None:
        """Judge again a file this process found it may not write (not one asked read-only,
        nor ``:memory:``): written from here on if it may be now (``_judge_again``). Asked
        by ``read_only`` and before each write (``atomic``, ``probe_write``)."""
        if self._read_only and not self._asked and self._file is not None:
            self._judge_again()

    def _judge_again(self) -> bool:
        """Whether a file judged read-only by what this process may write may be written
        now; if so, the database is writable from here on (``read_only``). A file gone is
        not made again (SQLite would make an empty one)."""
        file = Path(self._at)
        if not file.is_file() or opens_read_only(file):
            return False
        with self._lock:
            if not self._read_only:
                return False  # another thread judged it first
            self._immutable = False
            self._judged = (False, None)
            self._read_only = False
            self._generation += 1
        return True

    def _renew(self, slot: _Slot) -> None:
        """``slot``'s connection was opened read-only (or made to refuse writes), and the
        file was judged writable since (``_judge_again``): opened again for writing. The old one is kept for a cursor
        being read, and closed by ``close``."""
        generation = self._generation
        self._swap(slot)
        slot.generation = generation

    def _swap(self, slot: _Slot) -> None:
        """``slot`` given a new connection (``_connect``: as the file is judged now); the
        old one retired: closed now if nothing refers to it, else kept open, so that a
        cursor of it being read goes on, and closed at a later swap once nothing does, or
        by ``close`` (``_renew``, ``_reopen``). Retired connections nothing holds (no
        cursor, no caller's variable) are closed here (session 38, rev38: each was kept to
        ``close``, so a reader whose file was renamed over again and again, a snapshot
        restored every minute, held one more descriptor of a deleted file each time, for
        each thread: the old files' space was never freed, and the process ran out of
        descriptors)."""
        old = slot.conn
        slot.conn, slot.stamp, slot.refuses = self._connect()
        with self._lock:
            self._retired.append(old)
            del old  # (held here, it would count as in use)
            self._retired = _close_unused(self._retired)

    def _writable_now(self, e: sqlite3.Error) -> bool:
        """Whether the statement that failed with ``e`` is worth running again: SQLite
        refused it as a write to a read-only file, outside a transaction, and the file is
        judged writable now (``_judge_again``): once, as the judgment turns only once."""
        code = getattr(e, "sqlite_errorcode", None)
        slot: _Slot | None = getattr(self._local, "slot", None)
        return (isinstance(code, int) and code & 0xFF == _READONLY and self._read_only
                and not self._asked and self._file is not None
                and (slot is None or not slot.depth) and self._judge_again())

    def _reopen(self, slot: _Slot) -> None:
        """``slot``'s file is no longer as its ``immutable`` connection found it (made
        writable, written, replaced; session 37): decided again as when the database
        opened (``reads_immutable``: ``immutable`` only for a settled file no process may
        write, or in a folder this process may not write), for every thread's next
        statement, and this thread's connection opened again so. The old connection is
        not closed here: a cursor of it being read goes on; ``close`` closes it."""
        file = self._file or Path(self._at)
        stamp = file_stamp(file)  # before the judgment: a change after it is seen next time
        self._immutable = reads_immutable(file)
        self._judged = (self._immutable, stamp if self._immutable else None)
        self._swap(slot)

    @property
    def conn(self) -> sqlite3.Connection:
        return self._slot().conn

    def open_connections(self) -> int:
        """How many connections are open (one per thread that used the database and is
        still alive)."""
        with self._lock:
            return len(self._slots)

    @property
    def closed(self) -> bool:
        return self._closed

    def reset_connection(self) -> None:
        """End whatever transaction this thread's connection was left in, and its depth of
        ``atomic()`` (``SqlStore.reset_connection``): what was not committed rolls back and
        the file's write lock is freed. The connection itself stays: a ``:memory:`` database
        lives in it. A forked child's copy is left alone (``_slot`` starts afresh)."""
        slot: _Slot | None = getattr(self._local, "slot", None)
        if slot is None or self._pid != os.getpid():
            return
        slot.depth = 0
        if slot.conn.in_transaction:
            try:
                slot.conn.execute("ROLLBACK")
            except sqlite3.Error as e:
                raise self._error("rollback", e) from e

    def close(self) -> None:
        """Close every thread's connection; the database cannot be used after (each call
        raises ``StoreError``, as a closed file or ``sqlite3`` connection does: a closed
        ``Memory`` used by mistake must not quietly open new connections). Closing twice is
        allowed."""
        if self._pid != os.getpid():
            self._forked()
        with self._lock:
            self._closed = True
            for conn in [*(slot.conn for slot in self._slots), *self._retired]:
                conn.close()
            self._slots = weakref.WeakSet()
            self._retired = []
        self._local = threading.local()

    @staticmethod
    def portable(sql: str) -> str:
        """Shared SQL (psycopg's placeholders) in SQLite's (see ``store.sql.placeholders``)."""
        return to_qmark(sql)

    # ``translate`` written out on the paths every write takes (a ``with`` block costs
    # 1.2 us; add_message runs five statements)
    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        try:
            return self._writing(sql).conn.execute(sql, params)
        except sqlite3.Error as e:
            if self._writable_now(e):  # made writable since it was opened (fix37b)
                return self.execute(sql, params)
            raise self._error("query failed", e) from e

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        try:
            return self._writing(sql).conn.executemany(sql, rows)
        except sqlite3.Error as e:
            # (rows a list: an iterator's rows read by the failed run would be lost)
            if isinstance(rows, list | tuple) and self._writable_now(e):
                return self.executemany(sql, rows)  # made writable since it was opened
            raise self._error("query failed", e) from e

    def _writing(self, sql: str) -> _Slot:
        """This thread's slot, for ``sql``: a statement that may write (``_WRITE_STATEMENT``)
        outside a transaction, on a file open for writing, first asks whether the file was
        made read-only since (``_made_read_only``, as ``atomic`` does); if so the connection
        refuses writes before it runs (``_slot``), and SQLite refuses it as read-only."""
        slot = self._slot()
        if (not slot.depth and not self._read_only and _WRITE_STATEMENT.match(sql)
                and self._made_read_only()):
            return self._slot()
        return slot

    @contextmanager
    def unmapped(self) -> Iterator[None]:
        """This thread's connection reads without the memory map inside the block. A bulk
        read (loading the vector index reads 1 GB at 1M items) would otherwise leave every
        page it read mapped, and counted in the process's resident memory (measured at 1M:
        RSS 3.0 GB after the load, 1.9 GB of it file pages); setting the size unmaps them,
        and the map is set up again, untouched, when the block ends."""
        conn = self.conn
        conn.execute("PRAGMA mmap_size = 0")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")

    # -- transactions -------------------------------------------------------------------
    @contextmanager
    def atomic(self, *, wait: bool = True) -> Iterator[sqlite3.Connection]:
        """A transaction (``BEGIN IMMEDIATE``) or, nested, a SAVEPOINT.

        On error everything inside rolls back and the original exception propagates.
        ``wait`` false: with the write lock held (by another thread of this process, or by
        another process: ``BEGIN IMMEDIATE`` with no busy timeout) ``StoreError`` with
        ``busy`` set is raised at once and nothing begins; nested, there is nothing to wait
        for (the transaction holds the lock).
        """
        if self._read_only:  # (a field read: a writable database pays no call)
            self._judge_read_only_again()  # the file may be writable now (fix37b)
        slot = self._slot()
        if slot.depth:
            with self._transaction(slot) as conn:
                yield conn
            return
        if self._read_only or self._made_read_only():  # (its connection may be read-write)
            error = StoreError(read_only_text(self.path))
            error.read_only = True
            raise error
        if wait:
            if not self._write_lock.acquire(timeout=_BUSY_SECONDS):
                raise StoreError(f"begin: {self.path} stayed locked by another writer of this "
                                 f"process for {_BUSY_SECONDS:.0f}s")
        elif not self._write_lock.acquire(blocking=False):
            error = StoreError(f"begin: {self.path} is being written by another thread of this process")
            error.busy = True
            raise error
        try:
            with self._transaction(slot, wait=wait) as conn:
                yield conn
        finally:
            self._write_lock.release()

    def _made_read_only(self) -> bool:
        """Whether a file open for writing was made read-only since (``chmod 444``,
        ``chattr +i``: ``opens_read_only``); if so the database is read-only from here on,
        so judged again (``read_only``) and written once it may be. Asked before each write
        transaction, which is then refused as on a file opened read-only. Session 38: such
        a file went on taking writes into its ``-wal``, which stayed writable, where a
        process opening the file now refuses them; under ``chattr +i`` they could never be
        checkpointed into the file. The open connections stay, for reads, and refuse
        writes from their next statement (``_refuse_writes``). The judgment is asked again
        only when the file's ``write_stamp`` differs from the one it last had when judged
        writable (session 39: a search asked it twice, a pack four times)."""
        if self._read_only or self._file is None:
            return False
        stamp = write_stamp(self._at)  # (before the judgment: a change after it is seen)
        if stamp is not None and stamp == self._writable_at:
            return False
        if not opens_read_only(self._file, resolved=True):
            self._writable_at = stamp
            return False
        with self._lock:
            self._read_only = True
            self._writable_at = None
        return True

    @contextmanager
    def _transaction(self, slot: _Slot, *, wait: bool = True) -> Iterator[sqlite3.Connection]:
        conn = slot.conn
        depth = slot.depth
        try:
            # (only the BEGIN may wait: once it holds the lock nothing else does)
            with nullcontext() if wait else _no_busy_wait(conn):
                conn.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT sp{depth}")
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):  # SQLITE_BUSY (after the busy timeout)
                if not wait:
                    error = StoreError(f"begin: {self.path} is being written by another process")
                    error.busy = True
                    raise error from e
                raise StoreError(
                    f"begin: {self.path} is locked: another process has held its write lock "
                    f"for {_BUSY_SECONDS:.0f}s (a long import --strict, a copy, a process "
                    "stopped inside a transaction?); nothing was written, try again") from e
            raise self._error("begin", e) from e
        except sqlite3.Error as e:
            raise self._error("begin", e) from e
        slot.depth = depth + 1
        try:
            yield conn
        except BaseException:
            slot.depth = depth
            try:
                if depth == 0:
                    conn.execute("ROLLBACK")
                else:
                    conn.execute(f"ROLLBACK TO sp{depth}")
                    conn.execute(f"RELEASE sp{depth}")
            except sqlite3.Error:
                pass  # the original error matters more than a failed rollback
            raise
        slot.depth = depth
        try:
            conn.execute("COMMIT" if depth == 0 else f"RELEASE sp{depth}")
        except sqlite3.Error as e:
            raise self._error("commit", e) from e

    def _error(self, what: str, e: sqlite3.Error) -> StoreError:
        """The ``StoreError`` for ``e`` (``file_error``). A read or write error
        (``SQLITE_IOERR``) on a file open for writing asks the judgment again whatever
        its ``write_stamp`` says: one the stamp does not see (``chattr +i`` or an ACL on
        the ``-wal`` alone, which moves only the ``-wal``'s change time, as every write
        does) was made read-only (session 40: SQLite's "disk I/O error" was said, the
        database stayed writable for ``read_only`` and every write failed so); if it was,
        the database is read-only from here on (``_made_read_only``) and ``e`` says so as
        any write refused as read-only does."""
        code = getattr(e, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF == _IOERR and not self._read_only:
            with self._lock:
                self._writable_at = None  # (judged again, not taken from the stamp)
            if self._made_read_only():
                error = StoreError(read_only_text(self.path))
                error.read_only = True
                return error
        return file_error(what, self.path, e)

    def check_schema(self) -> None:
        """Raise ``MigrationError`` naming both versions unless the database is at this
        memlane's schema (another process migrated it since it was opened, or it was
        replaced by an older copy): the index worker asks before each run, a ``Memory``'s
        call every few seconds."""
        why = schema_mismatch(self.path, [m.name for m in load_migrations(_PACKAGE)],
                              [name for name, _ in self.applied()])
        if why:
            raise MigrationError(why)

    def probe_write(self) -> None:
        """Raise ``StoreError`` unless a write could begin now: ``BEGIN IMMEDIATE`` with no
        wait (busy timeout 0), rolled back at once. A file another process holds locked (an
        ``import --strict``, a ``copy``, a process stopped inside a transaction) answers
        reads but takes no write: the index worker's read probe answered throughout, and a
        run that failed on the lock was tried again only after its whole back-off, up to
        ``worker_max_backoff_seconds`` after the lock ended (session 25)."""
        if self._read_only:  # (a field read: a writable database pays no call)
            self._judge_read_only_again()  # the file may be writable now (fix37b)
        slot = self._slot()
        if slot.depth or not self._write_lock.acquire(blocking=False):
            return  # this process is writing: the file takes writes
        conn = slot.conn
        try:
            with _no_busy_wait(conn):
                with translate(f"begin: {self.path}"):
                    conn.execute("BEGIN IMMEDIATE")
                conn.execute("ROLLBACK")
        finally:
            self._write_lock.release()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees the same committed state (WAL
        snapshot) and writers are not blocked. Inside ``atomic()`` it is that transaction."""
        slot = self._slot()
        conn = slot.conn
        if slot.depth:
            yield conn
            return
        with translate("begin"):
            conn.execute("BEGIN DEFERRED")
        slot.depth = 1
        try:
            yield conn
        finally:
            slot.depth = 0
            try:
                conn.execute("COMMIT")
            except sqlite3.Error:  # nothing was written; the read's own error matters more
                conn.execute("ROLLBACK")

    # -- migrations ---------------------------------------------------------------------
    def _ensure_table(self) -> None:
        self.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name TEXT PRIMARY KEY, sha256 TEXT NOT NULL, applied_at REAL NOT NULL)"
        )

    def applied(self) -> list[tuple[str, str]]:
        """``(name, sha256)`` of applied migrations, in order."""
        self._ensure_table()
        rows = self.execute("SELECT name, sha256 FROM schema_migrations ORDER BY name")
        return [(r[0], r[1]) for r in rows]

    def pending(self) -> list[str]:
        """Names of migrations not yet applied. Read-only."""
        done = {name for name, _ in self.applied()}
        return [m.name for m in load_migrations(_PACKAGE) if m.name not in done]

    def migrate(self) -> list[str]:
        """Apply pending migrations, each in its own transaction; refuse edited ones."""
        known = {m.name: m for m in load_migrations(_PACKAGE)}
        applied = dict(self.applied())
        newer = schema_mismatch(self.path, list(known), list(applied), older=False)
        if newer:
            raise MigrationError(newer)
        for name, sha in applied.items():
            if known[name].sha256 != sha:
                raise MigrationError(f"migration {name!r} was edited after it was applied")
        done = []
        pending = [name for name in known if name not in applied]
        if pending and self._read_only:
            raise MigrationError(
                f"database {self.path} is opened read-only, and this memlane needs to migrate "
                f"it ({', '.join(pending)}); open it once with write access")
        for name, mig in known.items():
            if name in applied:
                continue
            conn = self.conn
            step = step_of(name)
            try:
                if step is None:
                    conn.executescript(
                        "BEGIN IMMEDIATE;\n" + mig.sql + "\n;"
                        f"INSERT INTO schema_migrations VALUES ('{name}', '{mig.sha256}', {time.time()});"
                        "\nCOMMIT;"
                    )
                else:  # its Python step inside the same transaction (``memlane.store.rekey``)
                    # (not executescript after the BEGIN: it commits a pending transaction first)
                    conn.executescript("BEGIN IMMEDIATE;\n" + mig.sql + "\n;")
                    try:
                        step(self)
                        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                                     (name, mig.sha256, time.time()))
                        conn.execute("COMMIT")
                    except BaseException:
                        if conn.in_transaction:
                            conn.execute("ROLLBACK")
                        raise
            except (sqlite3.Error, StoreError) as e:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                # Another process opening the same new file applied it between our reading
                # of schema_migrations and our BEGIN IMMEDIATE: its statements then fail
                # here in whatever way they fail ("already exists", "duplicate column
                # name", the name's UNIQUE key), and ours rolled back whole.
                if name in dict(self.applied()):
                    continue
                hint = file_hint(e) if isinstance(e, sqlite3.Error) else None
                raise MigrationError(f"migration {name!r} of {self.path} failed: {e}"
                                     + (f" ({hint})" if hint else "")) from e
            done.append(name)
        return done
