"""An erased session's words leave the change log, also those of what an earlier summary
of it wrote (session 27).

A session summarised, then joined by a late message, is summarised again: the first
summary's items and facts are deleted then (their change records stay, with their
documents, for the live stream's replay). Erasing the session blanked the documents of the
rows it erased, by id, and not those earlier ones: "I moved to Zqbab" stayed in six change
records (found by ``tests/test_erase_surfaces_property.py`` on the session's base).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.testing import memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)


@pytest.mark.parametrize("erase", ["session", "turn"])
def test_no_change_record_keeps_an_erased_sessions_words(db_url: str, erase: str) -> None:
    with memory(db_url) as mem:
        at = NOW - timedelta(days=4)
        lines = ["I moved to Zqbab last month.", "How is it there?",
                 "Great, I love the food.", "Nice!"]
        for i, text in enumerate(lines):
            mem.add_message("A", "user" if i % 2 == 0 else "assistant", text,
                            at=at + timedelta(minutes=i))
        mem.close_session("A")
        mem.index(now=NOW)
        (session,) = mem.sessions("A")
        # a late message joins it: summarised again, the first summary's rows deleted
        mem.add_message("A", "user", "I also adopted a cat.", at=at + timedelta(minutes=2, seconds=30))
        mem.index(now=NOW)
        assert [s.id for s in mem.sessions("A")] == [session.id]
        if erase == "session":
            mem.forget_session(session.id)
        else:  # the turn that said it: the session is kept, its intelligence written again
            [turn] = [t for t in mem.store.session_items(session.id, kind="turn")
                      if "Zqbab" in t.text]
            mem.forget_item(turn.id)
        rows = mem.store._run("SELECT entity, op, doc FROM changes").fetchall()  # type: ignore[attr-defined]
        kept = [r[:2] for r in rows if "zqbab" in str(r[2]).lower()]
        assert kept == []
