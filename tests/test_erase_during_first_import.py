"""An erase while another thread first imports a module holding a text cache (the worker
loading the offline summariser as it summarizes its first session): the module is in
``sys.modules`` from the start of its import, its functions not yet defined. Before session
25 ``forget_cached_text`` read them there and the erase failed with ``AttributeError:
partially initialized module 'memlane.index.offline' has no attribute '_name_of'`` (seen
in a stress of a worker, live messages and erases on PostgreSQL). Run in a fresh process,
where nothing has imported the module yet; its import is held half-way by a real import
hook."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r'''
import importlib.abc, importlib.util, sys, threading
from datetime import UTC, datetime, timedelta
from memlane.testing import memory

started, go = threading.Event(), threading.Event()

class Held(importlib.abc.MetaPathFinder):
    """memlane.index.offline's real loader, held after the module is in sys.modules."""
    def find_spec(self, name, path, target=None):
        if name != "memlane.index.offline":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        real = spec.loader.exec_module
        def exec_module(module):
            started.set()
            go.wait(60)
            real(module)
        spec.loader.exec_module = exec_module
        return spec

assert "memlane.index.offline" not in sys.modules
mem = memory(sys.argv[1])
at = datetime(2024, 5, 1, tzinfo=UTC)
for i in range(3):
    mem.add_message("chat", "user", f"message {i}", at=at + timedelta(minutes=i))
mem.close_session("chat")
sys.meta_path.insert(0, Held())
loader = threading.Thread(target=lambda: __import__("memlane.index.offline"))
loader.start()
assert started.wait(60)
try:
    report = mem.forget_session(mem.sessions("chat")[0].id)
finally:
    go.set()
    loader.join(60)
print("erased", report.counts["messages"], len(mem.sessions("chat")))
'''


def test_an_erase_while_a_text_cache_module_is_half_imported(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "m.db")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "erased 3 0"
