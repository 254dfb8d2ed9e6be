"""The learned facts reader's ``stated`` facts are facts with no item (session 50, fct50b): they
are listed by ``facts()`` and a session's intelligence, can be forgotten and go with their
session, but search finds the turn they repeat, never a copy of it; the readers' other facts
keep their items (a conversation written for these tests, a SQLite store, the reader on through
the configuration)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memlane.index.pipeline import UNSEARCHED_PREDICATES
from memlane.testing import add_sessions, memory

NOW = datetime(2025, 9, 8, 12, 0, tzinfo=UTC)
BOATS = (
    ("user", "I need a packing list for the sailing weekend."),
    ("assistant", "Sure. Where are you sailing?"),
    ("user", "I have been teaching sailing on Lake Bala for many years."),
    ("user", "My brother Owen moved to Bristol in April."),
    ("user", "Thanks!"),
    ("assistant", "You are welcome."),
)
SAID = "I have been teaching sailing on Lake Bala for many years"
# ("for nine years" until session 54, when a number in words became a readers' fact, which the learned
# reader then leaves alone)


def _mem(tmp_path: Path):
    return add_sessions(memory(tmp_path / "boats.db", summary={"facts_model": True}), [(0, BOATS)],
                        now=NOW, scope="boats")


def test_a_stated_fact_is_a_fact_with_no_item(tmp_path: Path):
    assert "stated" in UNSEARCHED_PREDICATES
    mem = _mem(tmp_path)
    try:
        stated = [f for f in mem.facts("boats") if f.predicate == "stated"]
        assert SAID in {f.object for f in stated}
        assert all(f.item_id is None for f in stated)
        # the readers' own facts keep their items, as before
        brother = [f for f in mem.facts("boats") if f.predicate == "brother"]
        assert brother and all(f.item_id is not None for f in brother)
        (session,) = mem.sessions("boats")
        listed = mem.session_intelligence(session.id)["facts"]
        assert any(f["predicate"] == "stated" and f["object"] == SAID and f["item_id"] is None
                   and f["seq"] == 3 for f in listed)
        assert not any(i.kind == "fact" and i.keywords == ("stated",)
                       for i in mem.store.session_items(session.id))
    finally:
        mem.close()


def test_search_finds_the_turn_not_a_copy_of_it(tmp_path: Path):
    mem = _mem(tmp_path)
    try:
        hits = mem.search("How long has the user been teaching sailing on Lake Bala?",
                          scope="boats", k=10, now=NOW)
        assert hits[0].item.kind == "turn" and SAID in hits[0].item.text
        assert not any(h.item.kind == "fact" and " stated " in f" {h.item.text} " for h in hits)
    finally:
        mem.close()


def test_an_itemless_fact_is_forgotten_and_goes_with_its_session(tmp_path: Path):
    mem = _mem(tmp_path)
    try:
        (fact,) = [f for f in mem.facts("boats") if f.object == SAID]
        mem.forget_fact(fact.id)
        assert SAID not in {f.object for f in mem.facts("boats")}
        (session,) = mem.sessions("boats")
        mem.forget_session(session.id)
        assert mem.facts("boats") == []
    finally:
        mem.close()
