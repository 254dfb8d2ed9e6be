"""CLI commands for the HTTP service: ``memlane serve`` and ``memlane keys`` (mounted by
``memlane.serve.cli``'s command table)."""

from __future__ import annotations

import errno
import os
import signal
from datetime import UTC, datetime
from functools import partial
from typing import Any

import click

from memlane.serve.cli_common import Int, json_option, memory_of
from memlane.serve.output import echo
from memlane.serve.render import dumps

__all__ = ["is_loopback", "keys", "serve"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (127.0.0.0/8, ::1, localhost): the
    service's own judgement of a client (``memlane.serve.http.proxy.is_loopback``, which
    reads an IPv4-mapped address as its IPv4 too), imported when used (``memlane keys``
    does not load the service)."""
    from memlane.serve.http.proxy import is_loopback as loopback

    return loopback(host)


def _origin(values: dict[str, Any]) -> str:
    """Where the config's ``serve.host`` / ``serve.port`` values (no option gave them) came
    from: `` (serve.host, set by MEMLANE_SERVE_HOST)``, `` (serve.port of the config)``, ""
    for the defaults. "refusing to bind 0.0.0.0" alone left a user who had set the variable
    (or the key) long ago looking at the command line they typed."""
    from memlane.config import ServeConfig

    named = []
    for key, value in values.items():
        variable = f"MEMLANE_SERVE_{key.upper()}"
        if variable in os.environ:
            named.append(f"serve.{key}, set by {variable}")
        elif value != getattr(ServeConfig(), key):
            named.append(f"serve.{key} of the config")
    return f" ({'; '.join(named)})" if named else ""


def _check_listen(host: str, port: int, origin: str = "") -> int:
    """Refuse at once, in one line, an address the service cannot listen on (a port in use,
    a name that resolves to nothing), binding as uvicorn does. The service used to print
    "memlane serving http://…", start its app and index worker, then end with uvicorn's
    "[Errno 98] … address already in use" log lines seconds later. The port bound: for
    port 0 the one the system picked, which the service then takes (its first line printed
    ``:0`` before session 25)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host.strip("[]"), port))
            return int(sock.getsockname()[1])
    except OSError as e:
        why = e.strerror or str(e)
        hint = " (is another memlane serve running? pick another --port)" \
            if getattr(e, "errno", None) in (errno.EADDRINUSE,) else ""
        err = click.ClickException(f"cannot listen on {host}:{port}{origin}: {why}{hint}")
        err.exit_code = _startup_failure()
        raise err from None


def _startup_failure() -> int:
    from uvicorn.main import STARTUP_FAILURE

    return int(STARTUP_FAILURE)


def _ts(value: float | None) -> str:
    return "-" if value is None else datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%d %H:%M")



WORKER_HEALTHCHECK_SECONDS = 60
"""How long uvicorn's supervisor waits for a worker process to answer its health check
before it kills the process (SIGKILL) and starts another. uvicorn's default, 5 s, is
missed by a worker that is starting (importing memlane, opening the store) or busy on a
loaded machine: on 2 cores at load 11, `memlane serve --workers 2` killed and restarted
its workers six times in a row, cutting the requests they were answering."""


@click.command()
@click.option("--host", default=None, help="Address to bind (default serve.host, 127.0.0.1).")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port (default serve.port, 8420).")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Database: a SQLite path or postgresql://… (same as the global --db).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="uvicorn worker processes (default serve.workers, 1).")
@click.option("--no-worker", is_flag=True,
              help="Do not run the index worker in the service (run memlane worker elsewhere).")
@click.pass_context
def serve(ctx: click.Context, host: str | None, port: int | None, db_url: str | None,
          workers: int | None, no_worker: bool) -> None:
    """Run the HTTP service: actions, REST resources, live stream, metrics.

    OpenAPI at /docs and /openapi.json. Without any API key the service is open and
    binds only a loopback address; memlane keys create makes one.
    """
    import uvicorn

    from memlane.serve.http.app import create_app
    from memlane.serve.http.protocol import PROTOCOL

    root = ctx.find_root().obj
    if db_url is not None:  # --db "" is an error, not the default
        root["db"] = db_url
    mem = memory_of(ctx)
    cfg = mem.config.serve
    from_config = {k: getattr(cfg, k) for k, v in (("host", host), ("port", port)) if v is None}
    host = host or cfg.host
    port = cfg.port if port is None else port
    workers = workers or cfg.workers
    index_worker = cfg.index_worker and not no_worker
    if mem.store.backend == "postgres" and cfg.db_connections:
        from memlane.serve.http.app import split_connections

        split_connections(cfg.db_connections, worker=index_worker)  # too few: said before serving
    keyed = mem.store.has_api_keys()
    if not keyed and not is_loopback(host):
        raise click.ClickException(
            f"refusing to bind {host}{_origin({k: v for k, v in from_config.items() if k == 'host'})}"
            ": no API key is defined, so anyone who can reach that "
            "address could read and change every memory. Create a key first (memlane keys "
            "create --scopes '*') or bind 127.0.0.1.")
    # port 0: the system picks a free one, named from the start
    port = _check_listen(host, port, _origin(from_config))
    # uvicorn handles SIGTERM/SIGINT itself once it serves (stop accepting, finish in-flight
    # requests, run the app's shutdown: index worker stopped, database closed), then raises
    # the signal again. Until then, and for that raise, this handler keeps the signal: one
    # that arrives while the app is being built stops the service before it serves (it was
    # swallowed, and the service ran on), and the raise becomes a clean exit with status 0.
    stopping: list[int] = []
    running: list[Any] = []

    def remember(signum: int, _frame: Any) -> None:
        stopping.append(signum)
        for server in running:  # between uvicorn's start and its own handlers
            server.should_exit = True

    for sig in (signal.SIGTERM, signal.SIGINT):
        # given back as found when the command ends: main() run in a caller's own process
        # (a test, the demo) keeps its handlers (session 26)
        before = signal.signal(sig, remember)
        ctx.call_on_close(partial(signal.signal, sig, before or signal.SIG_DFL))
    # and sse-starlette's flag, which uvicorn's stop sets for the whole process: left set,
    # every event stream served later in it (a live stream, /mcp's answers) ended at once
    from sse_starlette.sse import AppStatus

    ctx.call_on_close(partial(setattr, AppStatus, "should_exit", AppStatus.should_exit))
    shown = f"[{host}]" if ":" in host else host
    echo(f"memlane serving http://{shown}:{port} (db {mem.store.url}; "
               f"{'API keys required' if keyed else 'open: no API key defined, loopback only'}"
               f"; index worker {'on' if index_worker else 'off'}; {workers} process(es))",
               err=False)
    common: dict[str, Any] = {
        "host": host, "port": port, "log_level": "info", "access_log": False,
        "timeout_graceful_shutdown": cfg.shutdown_seconds, "server_header": False,
        "http": PROTOCOL,  # a request uvicorn cannot parse is answered in the service's shape
        # forwarded headers are the app's (serve.trusted_proxies): uvicorn's own trusted any
        # loopback client's X-Forwarded-For, a new address for each guessed key (session 28)
        "proxy_headers": False,
    }
    if workers == 1:
        app = create_app(mem, worker=index_worker, freeze_gc=True)
        server = uvicorn.Server(uvicorn.Config(app, **common))
        running.append(server)
        if not stopping:
            server.run()
        if not server.started and not stopping:  # as uvicorn.run: the port was taken...
            raise SystemExit(_startup_failure())
        echo("memlane serve stopped", err=True)
        return
    # Several processes: each builds its own app from the environment (config path,
    # database and worker switch carried as memlane's own variables).
    os.environ["MEMLANE_DB"] = mem.config.db if not db_url else db_url
    if root.get("config_path"):
        os.environ["MEMLANE_CONFIG"] = root["config_path"]
    os.environ["MEMLANE_SERVE_INDEX_WORKER"] = "true" if index_worker else "false"
    os.environ["MEMLANE_SERVE_WORKERS"] = str(workers)  # each process's share of connections
    if stopping:
        echo("memlane serve stopped", err=True)
        return
    # /metrics of any process answers for all of them (prometheus-client's multiprocess
    # mode: each process writes its counters to files in this folder, a scrape adds them
    # up). Each scrape was the answering process's alone: counters jumped between
    # processes, and Prometheus read every jump down as a restart. A folder the operator
    # set in PROMETHEUS_MULTIPROC_DIR is used as it is (and kept).
    own_dir = None
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import tempfile

        own_dir = tempfile.mkdtemp(prefix="memlane-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = own_dir
    # uvicorn.run's own steps for several workers, keeping its supervisor to read how its
    # processes ended: it stops when one cannot start (a worker that cannot open the
    # database says why and ends with STARTUP_FAILURE), and uvicorn.run then returned as
    # after a clean stop, status 0 (session 26)
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config("memlane.serve.http.app:app_from_environment", factory=True,
                            workers=workers, timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
                            **common)
    try:
        supervisor = Multiprocess(config, sockets=[config.bind_socket()])
        supervisor.run()
    finally:
        if own_dir is not None:
            import shutil

            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
            shutil.rmtree(own_dir, ignore_errors=True)
    failed = [p.pid for p in supervisor.processes if p.exitcode == _startup_failure()]
    if failed:
        err = click.ClickException(
            f"worker process {failed[0]} could not start (its error is above); "
            "memlane serve stopped")
        err.exit_code = _startup_failure()
        raise err
    echo("memlane serve stopped", err=True)  # as one process says it (session 26)

@click.group()
def keys() -> None:
    """Create, list and revoke API keys of the HTTP service."""

@keys.command("create")
@click.option("--scopes", required=True,
              help="Comma-separated scopes or patterns the key may touch, e.g. 'team-*,alex' "
              "('*' for every scope).")
@click.option("--read-only", is_flag=True, help="The key may read but not change memory.")
@click.option("--name", default=None, help="A label for the key: one line, at most 256 characters, secrets redacted (default key-<prefix>).")
@json_option
@click.pass_context
def keys_create(ctx: click.Context, scopes: str, read_only: bool, name: str | None,
                as_json: bool) -> None:
    """Create a key and print it once; only its SHA-256 is stored."""
    from memlane.serve.keys import create_key

    from memlane.errors import ValidationError

    mem = memory_of(ctx)
    try:
        new = create_key(mem.store, scopes, read_only=read_only, name=name,
                         ingest=mem.config.ingest)
    except ValidationError as e:
        if e.field != "name":
            raise
        raise click.BadParameter(str(e).removeprefix("name: "), param_hint="'--name'") from None
    if as_json:
        echo(dumps(new))
        return
    echo(new.key)
    echo(f"key {new.id} ({new.name}): scopes {', '.join(new.scopes)}"
               f"{', read-only' if new.read_only else ''}. Shown once: store it now; "
               "the database keeps only its hash.", err=True)

@keys.command("list")
@json_option
@click.pass_context
def keys_list(ctx: click.Context, as_json: bool) -> None:
    """Every key with its scopes, creation, last use and revocation (never the key)."""
    rows = memory_of(ctx).store.api_keys()
    if as_json:
        echo(dumps(rows))
        return
    if not rows:
        echo("no API keys (the service is open to loopback clients)")
    # columns as wide as this listing's widest name and scopes (a --name may hold 256)
    named = max([20, *(len(k["name"]) for k in rows)])
    scoped = max([24, *(len(",".join(k["scopes"])) for k in rows)])
    for k in rows:
        state = f"revoked {_ts(k['revoked_at'])}" if k["revoked_at"] else "active"
        # rights and last use padded too: a read-only key's row, or one never used ("-"),
        # moved the columns after them by one and by fifteen (session 33)
        rights = "read-only" if k["read_only"] else "read-write"
        echo(f"{k['id']:>4}  {k['name']:<{named}} {k['prefix']}…  "
             f"{','.join(k['scopes']):<{scoped}} {rights:<10}"
             f"  created {_ts(k['created_at'])}  used {_ts(k['last_used']):<16}  {state}")

@keys.command("revoke")
@click.argument("key_id", type=Int(1))  # an id: 1 to 2**63-1, as SQLite's
@json_option
@click.pass_context
def keys_revoke(ctx: click.Context, key_id: int, as_json: bool) -> None:
    """Revoke a key: requests with it get 401 from then on."""
    import time

    store = memory_of(ctx).store
    with store.atomic():
        changed = store.revoke_api_key(key_id, time.time())
    if as_json:
        echo(dumps({"id": key_id, "revoked": True, "already": not changed}))
    else:
        echo(f"key {key_id} revoked" if changed else f"key {key_id} was already revoked")
