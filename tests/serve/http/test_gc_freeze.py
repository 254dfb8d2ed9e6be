"""``memlane serve``'s app keeps its start-up objects out of the garbage collector's
full collections while it runs, and gives them back when it stops."""

from __future__ import annotations

import gc
from pathlib import Path

import httpx

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving


def test_freeze_gc_while_serving_and_unfreeze_on_stop(tmp_path: Path) -> None:
    assert gc.get_freeze_count() == 0
    mem = memory(tmp_path / "frozen.db")
    try:
        with serving(create_app(mem, worker=False, freeze_gc=True)) as url:
            assert gc.get_freeze_count() > 1000  # modules, config, the store
            r = httpx.post(f"{url}/actions", timeout=30,
                           json={"kind": "memory.search", "input": {"query": "anything", "scope": "s"}})
            assert r.status_code == 200, r.text
        assert gc.get_freeze_count() == 0
        with serving(create_app(mem, worker=False)):  # a library caller's app: nothing frozen
            assert gc.get_freeze_count() == 0
    finally:
        mem.close()
