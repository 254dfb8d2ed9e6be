"""``Memory.last_notice`` is the calling thread's (docs/hardening.md, "Session 33: rev33": the
"Left" of "Session 32: rev32" said two threads of one ``Memory`` could read each other's
notice; they cannot, and this holds it)."""

from __future__ import annotations

import threading
from typing import Any

from memlane.testing import memory


def test_a_thread_reads_its_own_search_notice_not_another_threads(tmp_path: Any) -> None:
    mem = memory(str(tmp_path / "m.db"))
    try:
        mem.add_message("u", "user", "I moved to Lisbon")
        mem.close_session("u")
        mem.index()
        wordless, found = threading.Event(), threading.Event()
        seen: dict[str, Any] = {}

        def asks_no_words() -> None:
            mem.search("???", scope="u")
            wordless.set()
            found.wait(30)
            seen["no words"] = mem.last_notice

        def asks_lisbon() -> None:
            wordless.wait(30)
            seen["hits"] = len(mem.search("Lisbon", scope="u"))
            seen["lisbon"] = mem.last_notice
            found.set()

        threads = [threading.Thread(target=f) for f in (asks_no_words, asks_lisbon)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert seen["hits"] >= 1 and seen["lisbon"] is None
        assert "'???' has no words to search for" in seen["no words"]
    finally:
        mem.close()
