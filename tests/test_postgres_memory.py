"""The whole product on PostgreSQL through the ``Memory`` facade, step for step against
SQLite; and several processes running the full ``Memory.index()`` over one database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("psycopg")

from memlane.config import load_config
from memlane.memory import Memory
from memlane.testing import HashingEmbedder, example_files
from memlane.testing.processes import run_together

NOW = "2024-06-01T00:00:00Z"
T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
OVERRIDES = {"hygiene": {"compact_min_summaries": 2, "lane_caps": ["ephemeral=2"]}}
QUERIES = [
    "what database did we choose for billing",
    "half marathon training plan",
    "my sister's name",
    "where does the user live",
    "vegetarian dinner",
]
CITIES = ["Porto", "Lisbon", "Faro", "Braga"]
NAMES = ["Zed", "Bob", "Carla"]
SCOPES = 2


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=256, char_trigrams=True))


def _team_sessions(mem: Memory, n: int) -> None:
    """``n`` closed sessions of one scope, all about billing (for compaction)."""
    for k in range(n):
        base = T0 + timedelta(days=k)
        for i, text in enumerate([
            f"The billing service needs a decision on invoices, round {k}.",
            "For billing, Postgres handles invoices well.",
            f"We decided to keep Postgres for billing round {k} because reporting is relational.",
            "Agreed.",
        ]):
            mem.add_message("team", "user" if i % 2 == 0 else "assistant", text,
                            base + timedelta(minutes=i))
        mem.close_session("team")


def _journey(mem: Memory) -> dict:
    """Every step of the product; returns what must agree between the backends."""
    out: dict = {}
    out["imports"] = [dataclasses.astuple(mem.import_file(f)) for f in example_files()]
    _team_sessions(mem, 3)
    report = mem.index(now=NOW)
    out["index"] = {k: v for k, v in dataclasses.asdict(report).items() if k != "seconds"}
    out["sessions"] = sorted((s.scope, s.status, s.message_count, s.summarized)
                             for s in mem.store.list_sessions(limit=1000))

    out["search"] = [[(h.item.kind, h.item.text, h.score) for h in mem.search(q, k=5, now=NOW)]
                     for q in QUERIES]

    pack = mem.pack("what does the user eat for dinner", 400, scope="alice-assistant", now=NOW)
    replay = mem.replay_pack(pack.id)
    assert pack.id is not None and replay["text"] == pack.text and replay["used"] == pack.used
    assert replay["query"] == "what does the user eat for dinner" and replay["entries"]
    out["pack"] = (replay["budget"], replay["scope"], replay["token_counter"], pack.used > 0)

    outcomes = [mem.add_fact("Zoe", "lives in", city, scope="facts", at=at)
                for city, at in (("Porto", "2024-01-01T00:00:00Z"), ("Lisbon", "2024-02-01T00:00:00Z"),
                                 ("Lisbon", "2024-03-01T00:00:00Z"), ("Faro", "2023-12-01T00:00:00Z"))]
    out["outcomes"] = [(o.action, len(o.replaced)) for o in outcomes]
    history = mem.fact_history("Zoe", "lives in", scope="facts")
    out["history"] = [(h["object"], h["status"], [e["kind"] for e in h["events"]]) for h in history]
    porto = next(f for f in mem.facts("facts", include_superseded=True, now=NOW) if f.object == "Porto")
    mem.forget_fact(porto.id)
    out["after_forget"] = [(f.object, f.status) for f in mem.facts("facts", include_superseded=True,
                                                                    now=NOW)]

    a = mem.upsert("Invoices go out on the first Monday", scope="team", topics=["billing"])
    b = mem.upsert("Billing runs on Postgres 16", scope="team", topics=["billing", "infra"])
    out["thread"] = [i.text for i in mem.thread("billing", "team")]
    (thread,) = [i for i in mem.store.items_of_kind("note", "team") if i.lane == "story_thread"
                 and i.extra.get("topic") == "billing"]
    assert [mem.item(c).id for c in thread.children] == [a, b]

    keep = mem.upsert("scratch pinned", scope="team", lane="ephemeral", trust=0.1)
    mem.pin(keep)
    for k in range(3):
        mem.upsert(f"scratch {k}", scope="team", lane="ephemeral", trust=0.2 + k / 10)
    mem.upsert("expires soon", scope="team", ttl_seconds=60, at="2024-05-01T00:00:00Z")
    gc = mem.gc(now=NOW)
    out["gc"] = (gc.expired, gc.evicted)
    out["ephemeral"] = sorted(i.text for i in mem.store.items_of_kind("note", "team")
                              if i.lane == "ephemeral")
    out["pinned"] = [i.text for i in mem.store.pinned_items("team")]

    out["compact"] = dataclasses.astuple(mem.compact(now="2024-09-01T00:00:00Z"))
    out["kinds"] = mem.stats()["items"]
    out["facts"] = sorted((f.scope, f.subject, f.predicate, f.object, f.status, f.reinforcements)
                          for f in mem.facts(include_superseded=True, now=NOW))
    g = mem.graph("lisbon", scope="alice-assistant")
    out["graph"] = ([(e.name, e.type, e.mentions) for e in g["entity"]], g["relations"],
                    sorted(i.text for i in g["items"]))
    return out


def test_the_whole_product_on_postgres_matches_sqlite(tmp_path, pg_url):
    lite, pg = _memory(str(tmp_path / "lite.db")), _memory(pg_url)
    try:
        assert pg.store.backend == "postgres"
        want, got = _journey(lite), _journey(pg)
    finally:
        lite.close()
        pg.close()
    assert want["index"]["sessions_summarized"] >= 5 and want["outcomes"] == [
        ("added", 0), ("superseded", 1), ("reinforced", 0), ("historical", 0)]
    assert want["gc"] == (1, {"ephemeral": 2}) and "scratch pinned" in want["ephemeral"]
    assert want["compact"][0] >= 1 and want["kinds"]["decision"] >= 1
    searches = (want.pop("search"), got.pop("search"))
    for key in want:
        assert want[key] == got[key], key
    # PostgreSQL's BM25 runs over its own tokens and stems: the same hits, in the same
    # order up to near-ties (scores within 2%; a near-tie at the cut-off may swap the last)
    for qa, qp in zip(*searches, strict=True):
        assert len(qa) == len(qp) == 5
        assert len({(k, t) for k, t, _ in qa} & {(k, t) for k, t, _ in qp}) >= 4, (qa, qp)
        (ka, ta, sa), (kp, tp, sp) = qa[0], qp[0]
        assert (ka, ta) == (kp, tp) or sa == pytest.approx(sp, rel=0.02), (qa, qp)
        # below the top, hits whose scores are within a few percent may trade places
        for (ka, ta, sa), (kp, tp, sp) in zip(qa[1:], qp[1:], strict=True):
            assert (ka, ta) == (kp, tp) or sa == pytest.approx(sp, rel=0.05), (qa, qp)


# -- several processes, the full index ----------------------------------------------------
def _full_index(url: str) -> tuple[int, int, int, int]:
    m = _memory(url)
    try:
        r = m.index(now=T0 + timedelta(days=60))
        return r.sessions_indexed, r.items_indexed, r.sessions_summarized, r.sessions_failed
    finally:
        m.close()


def test_three_processes_run_the_full_index_each_session_once(pg_url):
    m = _memory(pg_url)
    n = 60
    with m.store.atomic():
        for k in range(n):
            # every session moves the user (a single-valued fact: workers of one scope race
            # to supersede it) and names the same people in another order (entity merges
            # that would deadlock if two sessions of a scope were written at once)
            names = NAMES[k % 3:] + NAMES[:k % 3]
            for j in range(4 + k % 3):
                text = (f"I live in {CITIES[k % 4]} now. " + " ".join(f"{n} called." for n in names)
                        if j == 0 else f"Session {k} turn {j}: Postgres for billing, topic {k % 7}.")
                m.add_message(f"chat-{k % SCOPES}", "user" if j % 2 == 0 else "assistant", text,
                              T0 + timedelta(hours=2 * k, minutes=j))
    m.close_idle(now=T0 + timedelta(days=30))
    assert m.stats()["sessions_unindexed"] == n
    m.close()

    reports, exitcodes = run_together(_full_index, pg_url, timeout=180)
    assert not [r for r in reports if isinstance(r, str)], reports
    assert exitcodes == [0, 0, 0]
    assert sum(r[0] for r in reports) == n and sum(r[2] for r in reports) == n
    assert sum(r[3] for r in reports) == 0

    m = _memory(pg_url)
    try:
        s = m.store
        sessions = s.list_sessions(limit=1000)
        assert len(sessions) == n and all(x.status == "summarized" and x.indexed for x in sessions)
        total_messages = 0
        for x in sessions:
            assert len(s.session_items(x.id, "summary")) == 1, x.id
            turns = s.session_items(x.id, "turn")
            assert sorted(t.message_id for t in turns) == [msg.id for msg in s.session_messages(x.id)]
            total_messages += x.message_count
        assert sum(r[1] for r in reports) == total_messages
        counters = s.counters()
        assert counters["sessions_indexed"] == counters["sessions_summarized"] == n
        assert m.stats()["summary_queue"]["pending"] == 0
        # facts stay consistent under concurrency: one current value per single-valued key
        # (the turns "Session k turn j: Postgres for billing, …" may also give `decided` facts,
        # which hold many values; the single-valued key is what the workers race on)
        current = [(f.scope, f.subject, f.predicate) for f in m.facts(now=NOW)
                   if f.predicate != "decided"]
        assert sorted(current) == [(f"chat-{k}", "user", "lives_in") for k in range(SCOPES)], current
        for k in range(SCOPES):  # the last move of each scope is the current value
            last = max(range(k, n, SCOPES))
            (fact,) = [f for f in m.facts(f"chat-{k}", now=NOW) if f.predicate == "lives_in"]
            assert fact.object == CITIES[last % 4]
            history = m.fact_history("user", "lives_in", scope=f"chat-{k}")
            assert [h["status"] for h in history].count("current") == 1 and len(history) >= 2
        assert all(len(s.find_entities(norm, f"chat-{k}")) <= 1 for k in range(SCOPES)
                   for norm in s.entity_names(f"chat-{k}"))
    finally:
        m.close()


def test_bench_longmemeval_runs_on_postgres(pg_url, tmp_path, monkeypatch):
    """memlane bench longmemeval --db postgresql://… gives the SQLite run's ranking."""
    import json as _json

    from click.testing import CliRunner

    from memlane.bench.cli import bench

    monkeypatch.syspath_prepend(str(Path(__file__).parent / "bench"))
    from test_bench_e2e import _lme_records

    data = tmp_path / "lme.json"
    data.write_text(_json.dumps(_lme_records()))
    runs = {}
    for name, extra in (("sqlite", []), ("postgres", ["--db", pg_url])):
        out = tmp_path / name
        res = CliRunner().invoke(bench, ["longmemeval", "--data", str(data), "--embedder", "hashing",
                                         "--out", str(out), *extra], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        runs[name] = _json.loads((out / "report.json").read_text())
    head = {n: r["headline"]["memlane"] for n, r in runs.items()}
    assert head["postgres"] == head["sqlite"] == 1.0
