"""A SQLite database named by a relative path stays the file it named when the process's
working folder changes (session 38, rev38). ``Database`` opened each thread's connection,
and session 37's connections opened again (``_reopen``, ``_renew``), by the path as given:
after a ``chdir`` (a notebook's ``%cd``, a daemon moving to ``/``, a script's
``os.chdir``) a new thread of a ``Memory`` (the service's request threads, a worker)
wrote to and read from another file of that name in the new folder, made there if
missing, while the checks of a read-only file's change (``file_stamp``) looked at the
first one."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.testing import memory


@pytest.fixture
def back_home() -> Iterator[None]:
    home = os.getcwd()
    try:
        yield
    finally:
        os.chdir(home)


def _in_thread(call: Callable[[], Any]) -> Any:
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(call()))
    worker.start()
    worker.join()
    return out[0]


@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["m.db", "./m.db", "sub/../m.db"]),
       other=st.sampled_from(["none", "memlane"]))
@pytest.mark.usefixtures("back_home")
def test_a_thread_after_a_chdir_uses_the_file_the_path_named(
        tmp_path_factory: pytest.TempPathFactory, name: str, other: str) -> None:
    first = tmp_path_factory.mktemp("first")
    (first / "sub").mkdir()
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "sub").mkdir()
    if other == "memlane":  # another database of that name where the process moves
        with memory(elsewhere / "m.db") as mem:
            mem.add_message("t", "user", "another database", at="2024-01-01T10:00:00Z")
    os.chdir(first)
    with memory(name) as mem:
        mem.add_message("s", "user", "I moved to Lisbon", at="2024-03-02T10:00:00Z")
        os.chdir(elsewhere)
        _in_thread(lambda: mem.add_message("s", "user", "the tram was late",
                                           at="2024-03-02T10:01:00Z"))
        assert _in_thread(lambda: mem.stats()["messages"]) == 2
    with memory(first / "m.db") as mem:
        assert mem.stats()["messages"] == 2
    held = sorted(p.name for p in elsewhere.iterdir() if p.name.startswith("m.db"))
    assert held == ([] if other == "none" else ["m.db"])


@pytest.mark.usefixtures("back_home")
def test_a_thread_after_a_link_is_pointed_elsewhere_uses_the_first_file(
        tmp_path: Path) -> None:
    """A symbolic link pointed at another database while a ``Memory`` has it open (a
    deployment that swaps a link): every thread goes on with the file the link named when
    it opened, as the threads already open do (SQLite holds that file)."""
    for name, n in (("a.db", 1), ("b.db", 3)):
        with memory(tmp_path / name) as mem:
            for i in range(n):
                mem.add_message("s", "user", f"note {i}", at=f"2024-01-01T10:0{i}:00Z")
    (tmp_path / "m.db").symlink_to(tmp_path / "a.db")
    with memory(tmp_path / "m.db") as mem:
        assert mem.stats()["messages"] == 1
        (tmp_path / "next").symlink_to(tmp_path / "b.db")
        os.replace(tmp_path / "next", tmp_path / "m.db")
        _in_thread(lambda: mem.add_message("s", "user", "one more", at="2024-01-01T11:00:00Z"))
        assert (mem.stats()["messages"], _in_thread(lambda: mem.stats()["messages"])) == (2, 2)
    with memory(tmp_path / "b.db") as mem:
        assert mem.stats()["messages"] == 3
