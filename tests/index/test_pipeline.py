"""Session intelligence through the facade: queue, storage, failures and retries."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from memlane.index.schema import SUMMARY_SCHEMA_VERSION
from memlane.testing import example_files, memory
from memlane.testing.llm_server import ChatServer

NOW = "2024-06-01T00:00:00Z"
T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)

GOOD = {
    "topic": "Moving to Lisbon",
    "context": "The user moved to Lisbon and works at Feedzai.",
    "decisions": ["Take the red metro line"],
    "open_questions": ["Which vet to use for Miso?"],
    "entities": [{"name": "Lisbon", "type": "place", "context": "new home"}],
    "facts": [{"subject": "user", "predicate": "Lives In", "object": "Lisbon", "source": "stated", "turn": 1}],
    "relations": [{"from": "user", "relation": "lives in", "to": "Lisbon"}],
    "observations": [{"text": "I moved to Lisbon", "turn": 1}, {"text": "I hate rain", "turn": 99}],
    "topic_tags": ["relocation"],
}


def _conversation(mem, scope="s", n=4, start=T0):
    for i in range(n):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant",
                        f"I moved to Lisbon and work at Feedzai, message {i}" if i == 0 else f"reply {i} about Lisbon",
                        start + timedelta(minutes=i))
    return mem.close_session(scope)


def test_offline_summary_facts_entities_are_stored_and_searchable(mem):
    for f in example_files():
        mem.import_file(f)
    report = mem.index(now=NOW)
    assert (report.sessions_summarized, report.sessions_failed, report.sessions_skipped) == (5, 0, 0)
    first = mem.sessions(scope="alice-assistant")[-1]
    intel = mem.session_intelligence(first.id)
    assert intel["summary"]["model"] == "offline" and intel["summary"]["turn_count"] == 6
    assert {"subject": "user", "predicate": "lives_in", "object": "Lisbon"}.items() <= intel["facts"][0].items()
    assert intel["facts"][0]["seq"] == 1
    assert ("user", "works_at", "feedzai") in {tuple(r) for r in intel["relations"]}
    assert {"name": "Feedzai", "type": "organization"} in intel["entities"]
    hits = mem.search("where does the user live", kinds=["fact"], k=3)
    assert hits and hits[0].item.text == "user lives in Lisbon" and hits[0].item.lane == "profile"
    summaries = mem.search("billing database decision", kinds=["summary"], k=1)
    assert "PostgreSQL 16" in summaries[0].item.text
    assert summaries[0].item.text.startswith("Conversation team-backend · 2024-05-06")
    ents = mem.store.scope_entities("alice-assistant")
    assert any(e.name == "Lisbon" and e.mentions >= 1 for e in ents)


def _short_exchange(mem, scope="s"):
    """Two messages: too small for a summary, but the user states a fact about themselves."""
    mem.add_message(scope, "user", "By the way I'm vegetarian, and my sister Hana lives in Kyoto.", T0)
    mem.add_message(scope, "assistant", "Noted, I'll keep that in mind.", T0 + timedelta(minutes=1))
    return mem.close_session(scope)


def test_small_sessions_get_no_summary_but_their_facts(db_url):
    mem = memory(db_url)
    mem.add_message("hi", "user", "hi", T0)  # nothing to read: no row at all
    mem.add_message("hi", "assistant", "hello!", T0 + timedelta(minutes=1))
    mem.close_session("hi")
    s = _short_exchange(mem)
    report = mem.index(now=NOW)
    assert (report.sessions_skipped, report.sessions_summarized, report.sessions_failed) == (2, 0, 0)
    hi = mem.sessions("hi")[0]
    assert hi.status == "closed" and hi.summarized
    assert mem.session_intelligence(hi.id) == {
        "summary": None, "facts": [], "entities": [], "relations": [], "observations": []}
    s = mem.sessions("s")[0]
    assert s.status == "closed" and s.summarized and s.summary_version is None
    assert mem.stats()["counters"]["sessions_skipped"] == 2
    intel = mem.session_intelligence(s.id)
    assert intel["summary"] is None
    assert ("diet", "vegetarian") in {(f["predicate"], f["object"]) for f in intel["facts"]}
    assert "Kyoto" in {e["name"] for e in intel["entities"]}
    assert [f.object for f in mem.facts(subject="user") if f.predicate == "diet"] == ["vegetarian"]
    assert not mem.search("vegetarian", kinds=["summary"])
    assert mem.search("vegetarian", kinds=["fact"])
    mem.close()


def test_small_sessions_are_skipped_whole_with_small_session_facts_off(tmp_path):
    mem = memory(tmp_path / "off.db", indexing={"small_session_facts": False})
    s = _short_exchange(mem)
    report = mem.index(now=NOW)
    assert (report.sessions_skipped, report.sessions_summarized) == (1, 0)
    intel = mem.session_intelligence(s.id)
    assert intel["summary"] is None and intel["facts"] == [] and intel["entities"] == []
    assert mem.search("vegetarian", kinds=["turn"])  # the turns are searchable regardless
    mem.close()


def test_small_sessions_call_no_model_with_the_llm_backend(tmp_path):
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path, srv)
        _short_exchange(mem)
        report = mem.index(now=NOW)
        assert srv.chat_requests == []
        assert (report.sessions_skipped, report.sessions_failed) == (1, 0)
        assert [f.object for f in mem.facts(subject="user") if f.predicate == "diet"] == ["vegetarian"]
        mem.close()


def _llm_memory(tmp_path, srv, **indexing):
    return memory(
        tmp_path / "llm.db",
        indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0, **indexing},
        llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                "timeout_seconds": 0.5, "max_retries": 1}},
    )


@pytest.mark.parametrize(("script", "reason", "counted"), [
    # an endpoint that cannot answer is no fault of the session: the attempt is given back
    (lambda srv: srv.fail(500, times=2), "500", 0),
    (lambda srv: srv.script("this is not json", "still not json", "nope"), "LLMBadResponse", 1),
    (lambda srv: srv.delay(2.0, times=2), "LLMTimeout", 1),
])
def test_llm_failures_fail_the_session_with_reason_then_retry_succeeds(tmp_path, script, reason,
                                                                        counted):
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path, srv)
        _conversation(mem)
        script(srv)
        first = mem.index(now=NOW)
        s = mem.sessions()[0]
        assert first.sessions_failed == 1 and s.status == "failed" and s.attempts == counted
        assert reason in s.failed_reason
        assert mem.search("Lisbon", kinds=["turn"])  # the turns are searchable regardless
        srv.script_json(GOOD)
        second = mem.index(now=NOW)
        s = mem.sessions()[0]
        assert second.sessions_summarized == 1 and s.status == "summarized"
        assert s.attempts == counted + 1
        assert s.failed_reason is None and s.summary_model == "test-model"
        intel = mem.session_intelligence(s.id)
        assert intel["summary"]["topic"] == "Moving to Lisbon"
        assert intel["facts"][0]["predicate"] == "lives_in"
        # the model's observations, linked to their turn (an unknown turn links to none)
        assert {(o["text"], o["seq"]) for o in intel["observations"]} == {
            ("I moved to Lisbon", 1), ("I hate rain", None)}
        mem.close()


def test_retries_stop_at_max_attempts_and_back_off(tmp_path):
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path, srv, max_attempts=2, retry_base_seconds=3600)
        _conversation(mem)
        srv.reply = lambda body: "never JSON"  # the session's failure (HTTP 500 would not count)
        mem.index(now=NOW)
        assert mem.index(now=NOW).sessions_failed == 0  # backing off: not retried yet
        with mem.store.atomic():
            mem.store.db.execute("UPDATE sessions SET next_attempt_at = 0")
        assert mem.index(now=NOW).sessions_failed == 1
        with mem.store.atomic():
            mem.store.db.execute("UPDATE sessions SET next_attempt_at = 0")
        assert mem.index(now=NOW).sessions_failed == 0  # two attempts used up
        assert mem.stats()["summary_queue"]["failed"] == 1
        mem.close()


def test_lease_expiry_makes_a_crashed_claim_resumable(mem):
    _conversation(mem)
    mem.index(now=NOW)  # summarizes it; queue it again to test the lease
    with mem.store.atomic():
        mem.store.requeue_summaries(SUMMARY_SCHEMA_VERSION + 1)
    now = time.time()
    claimed = mem.store.claim_for_summary(now, lease_seconds=60, max_attempts=5)
    assert claimed is not None  # ...and the worker that holds it "crashes"
    assert mem.store.claim_for_summary(now + 30, 60, 5) is None
    again = mem.store.claim_for_summary(now + 61, 60, 5)
    assert again is not None and again.id == claimed.id and again.attempts == 2


def test_two_workers_never_summarize_a_session_twice(tmp_path):
    a, b = memory(tmp_path / "w.db"), memory(tmp_path / "w.db")
    for i in range(12):
        _conversation(a, scope=f"s{i}")
    barrier = threading.Barrier(2)
    reports = []

    def run(m):
        barrier.wait()
        reports.append(m.index(now=NOW))

    threads = [threading.Thread(target=run, args=(m,)) for m in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.sessions_summarized for r in reports) == 12
    rows = a.store.db.execute(
        "SELECT session_id, count(*) FROM items WHERE kind = 'summary' GROUP BY session_id").fetchall()
    assert len(rows) == 12 and all(n == 1 for _, n in rows)
    a.close()
    b.close()


def test_resummarize_redoes_older_versions_without_duplicates(mem):
    _conversation(mem)
    mem.index(now=NOW)
    assert mem.index(now=NOW, resummarize=True).sessions_summarized == 0  # already current
    with mem.store.atomic():
        mem.store.db.execute("UPDATE sessions SET summary_version = 0")
    assert mem.index(now=NOW, resummarize=True).sessions_summarized == 1
    kinds = mem.stats()["items"]
    # "I moved to Lisbon and work at Feedzai": lives_in and (since session 18) works_at, once each
    assert kinds["summary"] == 1 and kinds["fact"] == 2


def test_summarize_recent_is_a_draft_until_stored(mem):
    _conversation(mem, n=6)
    draft = mem.summarize_recent("s", last=3)
    assert len(draft.message_ids) == 3 and draft.summary.turn_count == 3
    assert "summary" not in mem.stats()["items"]
    item_id = mem.store_summary(draft)
    item = mem.item(item_id)
    assert item.kind == "summary" and item.extra["on_demand"] and item.extra["message_ids"] == list(draft.message_ids)
    assert mem.search("Lisbon", kinds=["summary"])[0].item.id == item_id


def test_backfill_embeddings_with_a_new_embedder(tmp_path):
    from memlane.backends.embed.hashing import HashingEmbedder
    from memlane.memory import Memory

    m = memory(tmp_path / "b.db")
    _conversation(m)
    m.index(now=NOW)
    total = sum(m.stats()["items"].values())
    m.close()
    other = Memory(tmp_path / "b.db", config=m.config, embedder=HashingEmbedder(dim=64, seed=3))
    assert other.search("Lisbon")[0].scores.get("vector") is None  # no vectors of that model yet
    assert other.backfill_embeddings(missing_only=True) == total
    assert other.backfill_embeddings(missing_only=True) == 0
    assert other.stats()["vectors"]["hashing-d64-s3"] == total
    assert other.backfill_embeddings(missing_only=False) == total
    assert "vector" in other.search("Lisbon")[0].scores
    other.close()


LONG_REQUEST = (
    "I'm drafting a long report on old river towns, with a chapter on burial "
    "customs, trade routes, writing systems, farming along the river and the role of priests, "
    "and I'd be glad if you could help me outline the meaning of the pharaoh's golden "
    "mask for each chapter. By the way, I saw the golden mask in person today at the "
    "city museum. Could you suggest a structure and three sources for each chapter?")


def test_observations_point_at_their_turn_and_lift_it_in_search(tmp_path):
    def run(lift):
        mem = memory(tmp_path / f"lift{lift}.db", retrieval={"source_lift": lift})
        for i, text in enumerate([LONG_REQUEST, "Happy to help with the outline.",
                                  "Thanks, that helps a lot with my essay plan.", "You're welcome."]):
            mem.add_message("s", "user" if i % 2 == 0 else "assistant", text, T0 + timedelta(minutes=i))
        mem.close_session("s")
        mem.index(now=NOW)
        turn = next(it for it in mem.store.session_items(1, kind="turn") if it.seq == 1)
        (obs,) = mem.store.session_items(1, kind="observation")
        hits = mem.search("where did I see the golden mask in person", k=5, now=NOW, explain=True)
        mem.close()
        return turn, obs, hits

    turn, obs, hits = run(1.0)
    assert obs.text == "I saw the golden mask in person today at the city museum."
    assert obs.parents == (turn.id,) and obs.seq == 1 and obs.source == "stated"
    top = hits[0]
    assert top.item.id == turn.id and top.scores["lifted_from"] == obs.id
    assert all(h.item.kind != "observation" for h in hits)  # it only repeats its turn
    _, _, plain = run(0.0)
    same = next(h for h in plain if h.item.id == turn.id)
    assert "lifted_from" not in same.scores and same.scores["relevance"] < top.scores["relevance"]
    assert any(h.item.kind == "observation" for h in plain)


def test_resummarize_replaces_observations(mem):
    mem.add_message("s", "user", LONG_REQUEST, T0)
    for i in range(1, 4):
        mem.add_message("s", "assistant" if i % 2 else "user", f"reply {i}", T0 + timedelta(minutes=i))
    mem.close_session("s")
    mem.index(now=NOW)
    with mem.store.atomic():
        mem.store.db.execute("UPDATE sessions SET summary_version = 0")
    mem.index(now=NOW, resummarize=True)
    stats = mem.stats()
    assert stats["items"]["observation"] == 1
    assert stats["counters"]["observations_extracted"] == 2  # once per summary written


def test_a_lanes_filter_keeps_lifted_turns_out(mem):
    mem.add_message("s", "user", "I just moved to Lisbon with my cat, by the way.", T0)
    for i in range(1, 4):
        mem.add_message("s", "assistant" if i % 2 else "user", f"reply {i}", T0 + timedelta(minutes=i))
    mem.close_session("s")
    mem.index(now=NOW)
    hits = mem.search("moved to Lisbon", lanes=["profile"], k=5, now=NOW)
    assert hits and all(h.item.lane == "profile" for h in hits)  # the fact, not its turn
    assert any(h.item.kind == "turn" for h in mem.search("moved to Lisbon", k=5, now=NOW))


def test_a_session_failed_many_times_backs_off_at_most_a_day(tmp_path):
    """retry_base_seconds × 2^(attempts-1) past a float's range was an OverflowError inside
    the failure handler, which escaped index() and left the session leased (session 18)."""
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path, srv, max_attempts=5000, retry_base_seconds=30)
        _conversation(mem)
        srv.reply = lambda body: "never JSON"
        with mem.store.atomic():
            mem.store.db.execute("UPDATE sessions SET attempts = 1100")
        before = time.time()
        assert mem.index(now=NOW).sessions_failed == 1
        (s,) = mem.sessions(status="failed")
        lease, due = mem.store.db.execute(
            "SELECT lease_until, next_attempt_at FROM sessions WHERE id = ?", (s.id,)).fetchone()
        assert lease is None and before + 86400 - 5 <= due <= time.time() + 86400
        mem.close()
