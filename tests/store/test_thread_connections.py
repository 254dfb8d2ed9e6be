"""A thread's SQLite connection does not outlive the thread: 300 short-lived threads under
a 256 file-descriptor limit (in a subprocess, so the limit is its own)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

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
