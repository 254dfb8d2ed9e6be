"""The entity graph after an erase and after a re-summary (session 27, docs/hardening.md).

- ``forget_fact`` of "user lives in Zqbab" left the relation ``user lives_in zqbab`` that
  the pipeline reads beside the fact: ``memlane graph show user`` showed the forgotten
  value. The relations that restate a forgotten fact go with it, and a re-summary of its
  session (a late message) does not write them again.
- An entity's mentions doubled when its session was summarised again: the re-summary
  deleted the session's entity items and upserted the entities once more ("Porto", named
  by one session, had 2 mentions). A node now counts the entity items that name it.

Both stores; the offline summariser; real SQLite files and the tests' PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from click.testing import CliRunner

from memlane.serve.cli import cli
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 9, 2, tzinfo=UTC)
CHAT = [("user", "I live in Zqbab now."),
        ("assistant", "Nice, how is it?"),
        ("user", "My sister Zqmia lives in Porto."),
        ("assistant", "Lovely.")]


def _edges(mem, name: str = "user") -> set[tuple[str, str, str]]:
    return {(src, rel, dst) for _, src, rel, dst in mem.graph(name, "chat")["relations"]}


def _relations(mem) -> set[tuple[str, str, str]]:
    return {tuple(r) for r in mem.store.db.execute(
        "SELECT source_entity, relation, target_entity FROM relations")}


def _late(mem, days: float, text: str = "The weather there is mild.") -> None:
    """A late message inside the session added ``days`` before ``NOW``: it is read again."""
    mem.add_message("chat", "user", text, at=NOW - timedelta(days=days) + timedelta(seconds=90))
    mem.index(now=NOW)


def _mentions(mem) -> dict[str, int]:
    return {e.name: e.mentions for e in mem.store.scope_entities("chat")}


def test_forget_fact_takes_the_relation_that_restates_it(db_url: str) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(5, CHAT)], now=NOW)
        assert ("user", "lives_in", "zqbab") in _edges(mem)
        (fact,) = [f for f in mem.facts("chat", "user") if f.object == "Zqbab"]
        mem.forget_fact(fact.id)
        assert ("user", "lives_in", "zqbab") not in _relations(mem)
        assert _edges(mem) == {("user", "sister", "zqmia")}  # the other facts' stay
        assert ("zqmia", "lives_in", "porto") in _relations(mem)
        # its session read again (a late message): the forgotten fact's relation stays gone
        summaries = {i.id for i in mem.store.items_of_kind("summary", "chat")}
        _late(mem, 5)
        assert {i.id for i in mem.store.items_of_kind("summary", "chat")} - summaries
        assert ("user", "lives_in", "zqbab") not in _relations(mem)
        assert _edges(mem) == {("user", "sister", "zqmia")}


def test_a_value_said_again_keeps_the_relation_of_its_other_fact(db_url: str) -> None:
    """Lisbon, then Berlin, then Lisbon again: two facts of one value. Forgetting the first
    takes its session's relation; the relation of the later statement stays with its fact."""
    with memory(db_url) as mem:
        add_sessions(mem, [(9, [("user", "I live in Lisbon now."), ("assistant", "Nice.")]),
                           (6, [("user", "I moved to Berlin last week."), ("assistant", "Oh.")]),
                           (3, [("user", "I live in Lisbon now, I moved back."), ("assistant", "Welcome back.")])],
                     now=NOW)
        lisbon = sorted((f for f in mem.facts("chat", "user", include_superseded=True)
                         if f.object == "Lisbon"), key=lambda f: f.id)
        assert len(lisbon) == 2
        rows = lambda: sorted(r[0] for r in mem.store.db.execute(  # noqa: E731
            "SELECT session_id FROM relations WHERE target_entity = 'lisbon'"))
        assert rows() == sorted({lisbon[0].session_id, lisbon[1].session_id})
        mem.forget_fact(lisbon[0].id)
        assert rows() == [lisbon[1].session_id]
        mem.forget_fact(lisbon[1].id)
        assert rows() == []


def test_facts_forget_on_the_command_line_takes_the_relation(tmp_path) -> None:
    db = str(tmp_path / "m.db")
    with memory(db) as mem:
        add_sessions(mem, [(5, CHAT)], now=NOW)
        (fact,) = [f for f in mem.facts("chat", "user") if f.object == "Zqbab"]
    run = CliRunner()
    out = run.invoke(cli, ["--db", db, "facts", "forget", str(fact.id)])
    assert out.exit_code == 0, out.output
    out = run.invoke(cli, ["--db", db, "graph", "show", "user"])
    assert out.exit_code == 0, out.output
    assert "zqbab" not in out.output.lower() and "user —sister→ zqmia" in out.output


def test_a_resummary_counts_an_entitys_mentions_once(db_url: str) -> None:
    with memory(db_url) as mem:
        add_sessions(mem, [(5, CHAT)], now=NOW)
        assert _mentions(mem)["Porto"] == 1
        _late(mem, 5)
        _late(mem, 5, "Porto has good trams too.")
        assert _mentions(mem)["Porto"] == 1 and _mentions(mem)["Zqmia"] == 1
        # another session naming it counts one more, and its re-summary none
        add_sessions(mem, [(2, [("user", "We flew to Porto for the weekend."),
                                ("assistant", "Fun!")])], now=NOW)
        assert _mentions(mem)["Porto"] == 2
        _late(mem, 2)
        assert _mentions(mem)["Porto"] == 2
        assert _mentions(mem)["Zqmia"] == 1
        # an erase of one of them takes back its mention only
        (first,) = [s for s in mem.sessions(scope="chat", limit=10)
                    if any("Zqbab" in m.text for m in mem.messages(s.id))]
        mem.forget_session(first.id)
        assert _mentions(mem).get("Porto") == 1 and "Zqmia" not in _mentions(mem)
