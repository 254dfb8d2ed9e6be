"""Graph, compaction, hygiene and topic threads on real databases."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from memlane.errors import NotFoundError, ValidationError
from memlane.index.graph import graph_relevance, mentioned_entities
from memlane.testing import example_files, memory

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
NOW = "2024-06-01T00:00:00Z"


def test_graph_relevance_pure():
    assert graph_relevance(["Ana", "Lisbon"], ["ana"], ["porto"]) == 0.5
    assert graph_relevance(["Ana"], [], ["ana"]) == 1.0
    assert graph_relevance([], ["ana"]) == 0.0
    assert mentioned_entities("Is Ana coming to Lisbon?", ["ana", "lisbon", "porto"]) == ["ana", "lisbon"]


def test_graph_show_entity_relations_and_items(mem):
    for f in example_files():
        mem.import_file(f)
    mem.index(now=NOW)
    g = mem.graph("lisbon", scope="alice-assistant")
    assert g["entity"][0].name == "Lisbon" and g["entity"][0].type == "place"
    assert ("alice-assistant", "user", "lives_in", "lisbon") in g["relations"]
    assert any("Lisbon" in i.text for i in g["items"])
    with pytest.raises(NotFoundError, match="not in the graph"):
        mem.graph("Atlantis")


def _summarized_sessions(mem, n, topic_word="billing", start=T0):
    for k in range(n):
        base = start + timedelta(days=k)
        for i, text in enumerate([
            f"The {topic_word} service needs a decision on invoices, round {k}.",
            f"For {topic_word}, Postgres handles invoices well.",
            f"We decided to keep Postgres for {topic_word} round {k} because reporting is relational.",
            "Agreed.",
        ]):
            mem.add_message("team", "user" if i % 2 == 0 else "assistant", text, base + timedelta(minutes=i))
        mem.close_session("team")
    mem.index(now=start + timedelta(days=n + 1))


def test_compaction_folds_a_topic_into_a_decision_record(tmp_path):
    mem = memory(tmp_path / "c.db", hygiene={"compact_min_summaries": 3})
    _summarized_sessions(mem, 5)
    before = mem.store.items_of_kind("summary", "team")
    assert len(before) == 5
    report = mem.compact(now=(T0 + timedelta(days=30)).isoformat())
    assert (report.decision_records, report.summaries_absorbed) == (1, 5)
    (record,) = mem.store.items_of_kind("decision", "team")
    assert record.text.startswith("Decision record · team · topic billing")
    assert "Keep Postgres for billing round 0" in record.text  # the lead "We decided to" dropped
    assert "Reporting is relational" in record.text  # the "because" clause, as rationale
    assert sorted(record.children) == sorted(i.id for i in before)
    assert mem.store.items_of_kind("summary", "team") == [] or all(
        s.extra.get("rollup") for s in mem.store.items_of_kind("summary", "team"))
    absorbed = mem.item(before[0].id)
    assert absorbed.status == "superseded" and absorbed.parents == (record.id,)
    assert mem.search("Postgres billing decision", kinds=["decision"])[0].item.id == record.id
    again = mem.compact(now=(T0 + timedelta(days=30)).isoformat())
    assert again.decision_records == 0
    mem.close()


def test_weekly_rollups(mem):
    _summarized_sessions(mem, 3, start=datetime(2024, 3, 4, tzinfo=UTC))  # Mon..Wed of one week
    report = mem.compact(now="2024-03-20T00:00:00Z")
    assert report.weekly_rollups == 1
    rollup = next(s for s in mem.store.items_of_kind("summary", "team") if s.extra.get("rollup"))
    assert rollup.extra["week"] == "2024-W10" and len(rollup.children) == 3
    assert rollup.text.startswith("Week 2024-W10 in team: 3 sessions.")
    assert mem.compact(now="2024-03-20T00:00:00Z").weekly_rollups == 0


def test_gc_expires_ttl_and_enforces_lane_caps_keeping_pins(tmp_path):
    mem = memory(tmp_path / "g.db", hygiene={"lane_caps": ["ephemeral=2"]})
    short = mem.upsert("expires soon", scope="s", ttl_seconds=60, at=T0)
    pinned = mem.upsert("pinned forever", scope="s", ttl_seconds=60, at=T0, pinned=True)
    eph = [mem.upsert(f"scratch {i}", scope="s", lane="ephemeral", trust=0.1 * (i + 1),
                      at=T0 + timedelta(seconds=i)) for i in range(4)]
    report = mem.gc(now=T0 + timedelta(minutes=5))
    assert report.expired == 1 and report.evicted == {"ephemeral": 2}
    with pytest.raises(NotFoundError):
        mem.item(short)
    assert mem.item(pinned).text == "pinned forever"
    kept = {h.item.id for h in mem.search("scratch", k=10, lanes=["ephemeral"])}
    assert kept == set(eph[2:])  # the two most trusted survive
    assert mem.stats()["counters"]["items_expired"] == 1
    assert mem.stats()["counters"]["items_evicted"] == 2
    mem.close()


def test_upsert_dedupe_topics_and_validation(mem):
    a = mem.upsert("Prefer window seats", kind="preference", scope="s", dedupe=True, topics=["Travel"])
    b = mem.upsert("Prefer window seats", kind="preference", scope="s", dedupe=True)
    assert a == b and mem.stats()["counters"]["dedupe_hits"] == 1
    mem.upsert("Book the Lisbon flight", kind="plan", scope="s", topics=["travel"])
    thread = mem.thread("Travel", scope="s")
    assert [i.kind for i in thread] == ["preference", "note", "plan"]
    story = next(i for i in thread if i.lane == "story_thread")
    assert len(story.children) == 2
    for kwargs, field in [({"kind": "gossip"}, "kind"), ({"trust": 2.0}, "trust"),
                          ({"ttl_seconds": -1}, "ttl_seconds"), ({"topics": ["!!"]}, "topics"),
                          ({"kind": "fact"}, "kind")]:
        with pytest.raises(ValidationError) as e:
            mem.upsert("x", **kwargs)
        assert e.value.field == field


def test_cli_facts_graph_compact_gc(tmp_path, monkeypatch):
    from memlane.serve.cli import cli

    monkeypatch.setenv("MEMLANE_EMBEDDING_BACKEND", "hashing")
    db = str(tmp_path / "cli.db")
    m = memory(db)
    m.add_fact("user", "lives in", "Porto", scope="s", at=T0)
    m.add_fact("user", "lives in", "Lisbon", scope="s", at=T0 + timedelta(days=1))
    m.close()
    r = CliRunner()

    def run(*args, code=0):
        res = r.invoke(cli, ["--db", db, *args], catch_exceptions=False)
        assert res.exit_code == code, res.output
        return res.output

    assert "user lives in Lisbon" in run("facts", "list") and "Porto" not in run("facts", "list")
    assert "Porto" in run("facts", "list", "--include-superseded")
    hist = run("facts", "history", "user", "lives in")
    assert hist.index("superseded") < hist.index("current") and "Porto" in hist
    data = json.loads(run("facts", "history", "user", "lives_in", "--json"))
    assert [d["object"] for d in data] == ["Porto", "Lisbon"]
    assert "no facts" in run("facts", "history", "nobody", "x")  # as --json's [] (session 25)
    fid = data[1]["id"]
    assert f"fact {fid} forgotten" in run("facts", "forget", str(fid))
    assert "fact 99 does not exist" in run("facts", "forget", "99", code=1)
    assert "decision record" in run("compact")
    assert "expired 0 item(s)" in run("gc")
    assert "not in the graph" in run("graph", "show", "Atlantis", code=1)
