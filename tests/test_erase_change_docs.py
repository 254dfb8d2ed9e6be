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

from memlane.index.embed import text_hash
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


@pytest.mark.parametrize("speaker", [None, "Mia"])
@pytest.mark.parametrize("erase", ["scope", "session", "turn"])
def test_no_cached_vector_keeps_an_erased_sessions_words(db_url: str, erase: str,
                                                         speaker: str | None) -> None:
    """The cached vectors of what the first summary wrote (its items' texts, a named
    speaker's facts in the user's form) go with the session too: they stayed after the
    re-summary deleted those items, and an erase took only the vectors of the items it
    deleted (session 27: one row, the first summary's, after the only scope was erased)."""
    with memory(db_url) as mem:
        at = NOW - timedelta(days=4)
        lines = ["I moved to Zqbab last month.", "How is it there?",
                 "Great, I love the food.", "Nice!"]
        for i, text in enumerate(lines):
            user = i % 2 == 0
            mem.add_message("A", "user" if user else "assistant", text,
                            at=at + timedelta(minutes=i), speaker=speaker if user else None)
        mem.close_session("A")
        seen: set[str] = set()

        def note() -> None:
            items = mem.store._run("SELECT id, text FROM items").fetchall()  # type: ignore[attr-defined]
            seen.update(t for _, t in items)
            seen.update(mem.store.vector_texts([i for i, _ in items]).values())

        mem.index(now=NOW)
        note()
        (session,) = mem.sessions("A")
        mem.add_message("A", "user", "I also adopted a cat.", speaker=speaker,
                        at=at + timedelta(minutes=2, seconds=30))
        mem.index(now=NOW)
        note()
        if erase == "scope":
            mem.forget_scope("A")
        elif erase == "session":
            mem.forget_session(session.id)
        else:
            [turn] = [t for t in mem.store.session_items(session.id, kind="turn")
                      if "Zqbab" in t.text]
            mem.forget_item(turn.id)
        cached = {bytes(r[0]) for r in mem.store._run(  # type: ignore[attr-defined]
            "SELECT hash FROM embed_cache").fetchall()}
        erased = {t for t in seen if "zqbab" in t.lower()}
        assert len(erased) >= 3  # the turn, the summaries, the fact
        assert [t for t in erased if text_hash(t) in cached] == []
        if erase != "turn":
            assert cached == set()


@pytest.mark.parametrize("how", ["fact", "item"])
def test_forgetting_a_facts_item_forgets_the_fact(db_url: str, how: str) -> None:
    """``forget_item`` of a fact's item is ``forget_fact``: it deleted the item, the fact
    went with it by the foreign key, and its change records (``fact.added``) and events
    kept the value ("Zqbab"), with no ``forgotten`` mark (session 27)."""
    with memory(db_url) as mem:
        at = NOW - timedelta(days=4)
        for i, text in enumerate(["I moved to Zqbab last month.", "How is it there?"]):
            mem.add_message("A", "user" if i % 2 == 0 else "assistant", text,
                            at=at + timedelta(minutes=i))
        mem.close_session("A")
        mem.index(now=NOW)
        [fact] = [f for f in mem.facts("A") if f.object == "Zqbab"]
        if how == "fact":
            mem.forget_fact(fact.id)
        else:
            assert fact.item_id is not None
            mem.forget_item(fact.item_id)
        rows = mem.store._run(  # type: ignore[attr-defined]
            "SELECT op, doc FROM changes WHERE entity = 'fact' AND entity_id = %s",
            (fact.id,)).fetchall()
        assert rows and [r for r in rows if "zqbab" in str(r[1]).lower()] == []
        events = mem.forgotten_facts("user", "lives_in", scope="A")
        assert [e["kind"] for e in events] == ["added", "forgotten"]
        assert "zqbab" not in str(events).lower()
