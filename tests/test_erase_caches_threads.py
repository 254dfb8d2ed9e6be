"""An erase empties the query caches while the service's other threads search
(``textcaches.forget_cached_text``): the embeddings' query LRU and HyDE's cache were read
in two steps without a lock (``get`` then ``move_to_end``; ``in`` then ``[]``), so a
search between the two steps failed with KeyError (session 22 review)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from memlane.retrieve.hyde import HydeExpander
from memlane.testing import memory
from memlane.textcaches import forget_cached_text


@pytest.fixture
def preempting() -> Iterator[None]:
    """Threads switch as often as the interpreter allows, so the window is hit."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _race(read: Callable[[str], Any], holder: Any, rounds: int = 100_000) -> list[str]:
    errors: list[str] = []
    done = threading.Event()

    def reader() -> None:
        try:
            for i in range(rounds):
                read(f"question {i % 3}")
        except Exception as e:  # what a search in a handler thread raised
            errors.append(repr(e))
        finally:
            done.set()

    def eraser() -> None:
        while not done.is_set():
            forget_cached_text(holder)

    threads = [threading.Thread(target=reader), threading.Thread(target=eraser)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_a_query_vector_is_read_while_an_erase_empties_the_lru(
        tmp_path: Path, preempting: None) -> None:
    m = memory(tmp_path / "m.db")
    try:
        assert _race(m.embeddings.for_query, m.embeddings) == []
    finally:
        m.close()


def test_a_hyde_expansion_is_read_while_an_erase_empties_its_cache(preempting: None) -> None:
    class Answers:
        def complete(self, messages: Any, **kw: Any) -> str:  # the LLM seam's one method
            return "an answer"

    hyde = HydeExpander(Answers())
    assert _race(hyde, hyde, ) == []
