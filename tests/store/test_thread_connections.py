"""A thread's SQLite connection does not outlive the thread: 300 short-lived threads under
a 256 file-descriptor limit (in a subprocess, so the limit is its own)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time

from memlane.testing import memory

SCRIPT = textwrap.dedent("""
    import os, resource, sys, threading
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    from memlane.testing import memory

    mem = memory(sys.argv[1])
    errors = []

    def work(i):
        try:
            mem.add_message(f"s{i % 7}", "user", f"message {i}")
            mem.sessions(scope=f"s{i % 7}", limit=1)
        except Exception as e:  # the test reports whatever a thread hit
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    for i in range(300):
        t = threading.Thread(target=work, args=(i,))
        t.start()
        t.join()
    fds = len(os.listdir("/proc/self/fd"))
    print(len(errors), mem.stats()["messages"], mem.store.db.open_connections(), fds)
    print("\\n".join(errors[:3]))
    mem.close()
""")


def test_300_short_lived_threads_do_not_leak_connections(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "m.db")],
                         capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert out.returncode == 0, out.stderr
    errors, messages, connections, fds = out.stdout.split("\n")[0].split()
    assert errors == "0", out.stdout
    assert messages == "300"
    assert int(connections) == 1  # only the main thread's
    assert int(fds) < 40


def test_close_still_closes_every_live_threads_connection(tmp_path):
    mem = memory(tmp_path / "m.db")
    ready, done = threading.Event(), threading.Event()

    def hold():
        mem.sessions(limit=1)
        ready.set()
        done.wait()

    t = threading.Thread(target=hold)
    t.start()
    ready.wait()
    assert mem.store.db.open_connections() == 2
    mem.close()
    assert mem.store.db.open_connections() == 0
    done.set()
    t.join()


def test_writers_of_one_process_take_turns_and_a_failed_one_frees_the_next(tmp_path):
    """Eight threads writing at once all commit every message (they queue on the process's
    writer lock, not on SQLite's sleeping busy handler), and a transaction that failed
    leaves no lock behind: the next writer commits at once."""
    mem = memory(str(tmp_path / "w.db"))
    errors: list[str] = []

    def work(n: int) -> None:
        try:
            for j in range(25):
                mem.add_messages([{"scope": f"w{n}", "role": "user", "text": f"m {n} {j} {k}"}
                                  for k in range(4)])
        except Exception as e:  # the test reports whatever a thread hit
            errors.append(f"thread {n}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert mem.stats()["messages"] == 8 * 25 * 4

    class Boom(Exception):
        pass

    try:
        with mem.store.atomic():
            mem.store.db.execute("UPDATE messages SET text = 'x'")
            raise Boom
    except Boom:
        pass
    done = threading.Event()

    def writer() -> None:
        mem.add_message("after", "user", "the next writer")
        done.set()

    t = threading.Thread(target=writer)
    t.start()
    t.join(20)
    assert done.is_set(), "a failed transaction kept the writer lock"
    assert mem.stats()["messages"] == 8 * 25 * 4 + 1
    assert mem.store.db.execute("SELECT count(*) FROM messages WHERE text = 'x'").fetchone() == (0,)
    mem.close()


def test_postgres_threads_that_ended_leave_no_connection_open_on_the_server(pg_url):
    """The same on PostgreSQL, counted on the server (``pg_stat_activity``): a thread's
    connection was kept until ``Memory.close()``, so ``memlane serve``, whose anyio worker
    threads end after 10 idle seconds, left ~10 more connections open after each burst of
    requests, until the server's ``max_connections`` refused every client."""
    import psycopg

    mem = memory(pg_url)
    db = pg_url.rsplit("/", 1)[1]

    def on_server(want: int) -> int:
        """The server's count once it reaches ``want`` (or after 15 s): a connection the
        client closed leaves ``pg_stat_activity`` when its backend process has exited, which
        a loaded machine can delay past the client's ``close()``."""
        deadline = time.monotonic() + 15
        while True:
            with psycopg.connect(pg_url, autocommit=True) as admin:
                n = int(admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
                    " AND application_name = 'memlane'", (db,)).fetchone()[0])
            if n == want or time.monotonic() > deadline:
                return n
            time.sleep(0.05)

    try:
        errors: list[str] = []

        def work(i: int) -> None:
            try:
                mem.add_message(f"s{i % 3}", "user", f"message {i}")
            except Exception as e:  # the test reports whatever a thread hit
                errors.append(f"thread {i}: {type(e).__name__}: {e}")

        for i in range(30):
            t = threading.Thread(target=work, args=(i,))
            t.start()
            t.join(60)
        assert errors == []
        assert mem.stats()["messages"] == 30
        assert on_server(1) == 1  # only the main thread's
        assert mem.store.db.open_connections() == 1
    finally:
        mem.close()
    assert on_server(0) == 0
