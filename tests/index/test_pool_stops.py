"""A stop of the summarizing processes' pool (``indexing.jobs``) ends in bounded time and
leaves no process behind, wherever it lands (session 28).

Seen once in CI: ``memlane index`` with ``indexing.jobs = 2`` on PostgreSQL did not end
within 120 s of its Ctrl-C, and after its SIGKILL its children held the test's pipes. The
pool blocks SIGINT and SIGTERM in the thread that spawns its children, but a mask is one
thread's: another thread of the process (the indexer's prefetch thread) took the signal and
the main thread raised ``KeyboardInterrupt`` inside ``ProcessPoolExecutor.submit``, where a
child started and not yet recorded was never sent its stop (the exit then joined it for
ever), or one left out of multiprocessing's list outlived its parent. Real processes, real
signals; every wait is bounded and a hang fails with each process's stacks."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from tests import commands

SWEEP = r'''
import os, select, signal, sys, threading
from memlane.index.pool import SummaryPool

# the lines of the executor's submit that start a child and record it, and start the
# thread that manages the children (each costs a child's start: about 0.5 s of CPU)
FILES = (os.sep.join(("concurrent", "futures", "process.py")),
         os.sep.join(("multiprocessing", "process.py")))
FUNCTIONS = {"_spawn_process", "start", "_start_executor_manager_thread"}


def drain(fd):
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def main():
    # a second thread, as memlane index has: it takes a signal the main thread blocks
    helper = threading.Thread(target=threading.Event().wait, daemon=True)
    helper.start()
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w)
    total = None
    n = 0  # 0: not interrupted, to count the lines
    while total is None or n <= total:
        count = 0

        def local(frame, event, arg):
            nonlocal count
            code = frame.f_code
            if (event == "line" and code.co_name in FUNCTIONS
                    and code.co_filename.endswith(FILES)):
                count += 1
                if count == n:  # Ctrl-C here: to the helper, as the kernel may send it
                    drain(r)
                    signal.pthread_kill(helper.ident, signal.SIGINT)
                    select.select([r], [], [], 30)  # taken: the main thread's handler runs next
            return local

        pool = SummaryPool(None, 2)
        got = "ran"
        try:
            try:
                sys.settrace(lambda frame, event, arg: local)
                pool.submit("s", [])
            finally:
                sys.settrace(None)
        except KeyboardInterrupt:
            got = "interrupted"
        finally:
            pool.close()
        print(n, count, got, flush=True)
        total = count if total is None else total
        n += 1


if __name__ == "__main__":
    main()
'''


def test_a_ctrl_c_at_any_line_of_a_childs_start_leaves_nothing_behind(tmp_path: Path) -> None:
    """Ctrl-C at each line of the executor's submit that starts a child and records it, or
    starts the thread that manages the children (one pool each): the interrupt comes out of
    ``SummaryPool.submit`` once the pool is whole, ``close()`` ends it and the program
    exits, its group empty. Before: at a line between a child's start and its record,
    ``close()`` or the exit waited for ever; between the thread's creation and its start,
    ``close()`` failed ("cannot join thread before it is started")."""
    script = tmp_path / "sweep.py"
    script.write_text(SWEEP, encoding="utf-8")
    proc = commands.start([sys.executable, str(script)])
    try:
        out, err = commands.finish(proc, timeout=600)
        assert proc.returncode == 0, (out, err)
        assert commands.wait_group_gone(proc, 30), (out, err)
    finally:
        commands.end(proc)
    (_, total, ran), *lines = [line.split() for line in out.splitlines()]
    assert ran == "ran" and int(total) >= 10 and len(lines) == int(total), out  # every line
    assert all(got == "interrupted" for _, _, got in lines), out
    assert "Traceback" not in err, err


ORPHAN = r'''
import os, sys, time
from memlane.index.pool import SummaryPool

if __name__ == "__main__":
    pool = SummaryPool(None, 2)
    futures = [pool._pool.submit(time.sleep, 1) for _ in range(2)]  # two children busy
    for f in futures:
        f.result(timeout=120)
    print(" ".join(str(p) for p in pool._pool._processes), flush=True)
    time.sleep(600)
'''


def test_a_killed_parent_leaves_no_summarizing_process(tmp_path: Path) -> None:
    """A parent killed (SIGKILL, out of memory) gives its children no stop: each waited on
    its queue for ever, holding its memory and the parent's stdout and stderr. Now each
    ends once its parent is gone (and then multiprocessing's resource tracker does)."""
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN, encoding="utf-8")
    proc = commands.start([sys.executable, str(script)])
    try:
        assert proc.stdout is not None
        children = [int(p) for p in proc.stdout.readline().split()]  # bounded: the script's
        assert len(children) == 2, children                          # own 120 s wait
        os.kill(proc.pid, signal.SIGKILL)  # the parent alone, as the kernel's OOM killer
        proc.wait(30)
        assert commands.wait_group_gone(proc, 60), "a summarizing process outlived its parent"
    finally:
        commands.end(proc)
