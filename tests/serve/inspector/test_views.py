"""What each page shows, read straight from a Memory (no HTTP), and the store listings the
pages browse, on both backends."""

from __future__ import annotations

import pytest

from memlane.errors import NotFoundError, ValidationError
from memlane.serve.http.auth import Principal
from memlane.serve.http.errors import ApiError
from memlane.serve.http.inspector import views
from memlane.testing import memory

ALL = Principal(None, "open", ("*",), False)
ALICE = Principal(1, "alice", ("alice-*",), True)


def test_sessions_timeline_has_structured_summaries_and_statuses(seeded) -> None:
    data = views.sessions_page(seeded.mem, ALL, "team-backend", None)
    assert data["scope"] == "team-backend"
    rows = data["sessions"]
    assert [r["session"].status for r in rows] == ["summarized", "summarized"]
    labels = {label for r in rows for label, _ in r["summary"]["lists"]}
    assert "Decisions" in labels
    failed = views.sessions_page(seeded.mem, ALL, "broken", "failed")["sessions"]
    assert failed[0]["session"].failed_reason == "llm timed out after 60s"
    with pytest.raises(ValidationError, match="status"):
        views.sessions_page(seeded.mem, ALL, "broken", "asleep")


def test_a_key_sees_only_its_scopes(seeded) -> None:
    assert [s["scope"] for s in views.scopes(seeded.mem, ALICE)] == ["alice-assistant"]
    assert views.sessions_page(seeded.mem, ALICE, None, None)["scope"] == "alice-assistant"
    with pytest.raises(ApiError) as e:
        views.sessions_page(seeded.mem, ALICE, "team-backend", None)
    assert e.value.status == 403
    other = seeded.mem.sessions(scope="team-backend")[0].id
    with pytest.raises(NotFoundError, match=f"session {other} does not exist"):  # as missing
        views.session_page(seeded.mem, ALICE, other)
    # a key of some scopes searches its most recent one when none is given (every scope
    # needs '*'); another tenant's scope is refused
    searched = views.search_page(seeded.mem, ALICE, {"q": "database"})
    assert searched["form"]["scope"] == "alice-assistant" and not searched["every_scope"]
    assert {row["hit"].item.scope for row in searched["hits"]} <= {"alice-assistant"}
    with pytest.raises(ApiError):
        views.search_page(seeded.mem, ALICE, {"q": "database", "scope": "team-backend"})


def test_session_marks_observations_and_facts_on_their_turns(seeded) -> None:
    sid = next(s.id for s in seeded.mem.sessions(scope="alice-assistant")
               if seeded.mem.session_intelligence(s.id)["observations"])
    data = views.session_page(seeded.mem, ALL, sid)
    marked = [m for m in data["messages"] if m["marks"]["observations"] or m["marks"]["facts"]]
    assert marked
    for m in marked:
        for o in m["marks"]["observations"]:
            assert o["seq"] == m["message"].seq


def test_fact_history_is_a_timeline_with_forgotten_values(seeded) -> None:
    mem = seeded.mem
    mem.add_fact("user", "favourite city", "Porto", scope="alice-assistant",
                 at="2024-05-01T00:00:00Z")
    data = views.fact_history(mem, ALL, "alice-assistant", "user", "favourite city")
    assert [(e["kind"], e["object"]) for e in data["events"]] == [
        ("added", "Lisbon"), ("reinforced", "Lisbon"), ("superseded", "Lisbon"), ("added", "Porto")]
    assert data["events"][2]["other"] == "Porto"
    current = next(v for v in data["values"] if v["status"] == "current")
    mem.forget_fact(current["id"])
    after = views.fact_history(mem, ALL, "alice-assistant", "user", "favourite city")
    # the forgotten value's events stay, without the value; the rest is unchanged
    assert [(e["kind"], e["object"]) for e in after["events"]] == [
        ("added", "Lisbon"), ("reinforced", "Lisbon"), ("superseded", "Lisbon"), ("added", None),
        ("forgotten", None)]
    assert "Porto" not in [v["object"] for v in after["values"]]
    with pytest.raises(ValidationError, match="predicate"):
        views.fact_history(mem, ALL, "alice-assistant", "user", " ")


def test_search_explains_every_hit_with_signals_and_stage_ranks(seeded) -> None:
    data = views.search_page(seeded.mem, ALL, {"q": "which database for billing",
                                               "scope": "team-backend"})
    assert data["ran"] and data["hits"]
    first = data["hits"][0]
    assert first["ranks"]["rank"] == 1
    assert "candidate_rank" in first["ranks"]
    names = [s["name"] for s in first["signals"]]
    assert "relevance" in names
    assert max(s["width"] for h in data["hits"] for s in h["signals"]) == 100.0
    total = sum(s["contribution"] for s in first["signals"])
    assert total == pytest.approx(first["score"], abs=1e-6)
    for bad, field in (({"q": "x", "k": "0"}, "k"), ({"q": "x", "preset": "nope"}, "preset"),
                       ({"q": "x", "kind": "poem"}, "kind"), ({"q": "x", "mode": "up"}, "mode")):
        with pytest.raises(ValidationError) as e:
            views.search_page(seeded.mem, ALL, bad)
        assert e.value.field == field


def test_pack_page_shows_text_shares_and_every_decision(seeded) -> None:
    pack_id = views.build_pack(seeded.mem, ALL, {"q": "what database did we pick?",
                                                 "scope": "team-backend", "budget": "200"})
    data = views.pack_page(seeded.mem, ALL, pack_id)
    assert data["pack"]["budget"] == 200
    assert data["pack"]["text"]
    assert sum(share for _, share in data["shares"]) == pytest.approx(1.0, abs=0.01)
    assert data["kept"] >= 1 and all("reason" in e for e in data["entries"])
    assert [p["id"] for p in views.packs_list(seeded.mem, ALL)["packs"]] == [pack_id]
    assert views.packs_list(seeded.mem, ALICE)["packs"] == []
    with pytest.raises(ValidationError, match="budget"):
        views.build_pack(seeded.mem, ALL, {"q": "x", "budget": "8"})
    with pytest.raises(NotFoundError):
        views.pack_page(seeded.mem, ALL, 999)


def test_health_counts_the_same_numbers_as_stats(seeded) -> None:
    data = views.health(seeded.mem, ALL)
    stats = seeded.mem.stats()
    assert data["stats"]["messages"] == stats["messages"]
    assert data["stats"]["summary_queue"] == stats["summary_queue"]
    assert 0 <= data["progress"] <= 100
    with pytest.raises(ApiError):
        views.health(seeded.mem, ALICE)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_store_listings_on_each_backend(backend, request, tmp_path) -> None:
    url = request.getfixturevalue("pg_url") if backend == "postgres" else tmp_path / "b.db"
    mem = memory(url)
    try:
        mem.add_message("a", "user", "hello", at="2024-01-01T00:00:00Z")
        mem.add_message("b", "user", "hi", at="2024-02-01T00:00:00Z")
        mem.close_session("b")
        assert [(s["scope"], s["sessions"], s["open"]) for s in mem.store.list_scopes()] == [
            ("b", 1, 0), ("a", 1, 1)]
        fid = mem.add_fact("user", "city", "Porto", scope="a").fact_id
        mem.forget_fact(fid)
        marks = mem.forgotten_facts("User", "city", scope="a")
        assert [(m["fact_id"], m["kind"]) for m in marks] == [(fid, "added"), (fid, "forgotten")]
        assert mem.forgotten_facts("user", "city", scope="b") == []
        pid = mem.pack("hello", 100, scope="a").id
        (p,) = mem.store.list_packs()
        assert (p["id"], p["query"], p["scope"]) == (pid, "hello", "a")
        assert mem.store.list_packs(scope="b") == []
    finally:
        mem.close()
