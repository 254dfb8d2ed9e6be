"""End to end through the facade: import, index, search, pack; real SQLite, hashing embedder."""

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.pack.tokens import counter_for
from memlane.testing import example_files

NOW = "2024-06-01T00:00:00Z"


@pytest.fixture
def loaded(mem):
    for f in example_files():
        mem.import_file(f)
    mem.index(now=NOW)
    return mem


def test_index_closes_idle_and_indexes_every_turn(loaded):
    st = loaded.stats()
    assert st["sessions"] == {"summarized": 5} and st["sessions_unindexed"] == 0
    assert st["items"]["turn"] == st["messages"] and st["items"]["summary"] == 5
    assert sum(st["vectors"].values()) == sum(st["items"].values())
    again = loaded.index(now=NOW)
    assert (again.sessions_indexed, again.items_indexed, again.sessions_summarized) == (0, 0, 0)


def test_intelligence_off_behaves_as_turn_indexing_only(tmp_path):
    """``[memory.indexing] enabled = false``: only turns, sessions stay closed, same hits."""
    from memlane.testing import memory

    off = memory(tmp_path / "off.db", indexing={"enabled": False})
    on = memory(tmp_path / "on.db")
    for m in (off, on):
        for f in example_files():
            m.import_file(f)
        m.index(now=NOW)
    st = off.stats()
    assert st["sessions"] == {"closed": 5} and set(st["items"]) == {"turn"}
    assert "sessions_summarized" not in st["counters"]
    q = "which half marathon did I sign up for"
    turns_on = [h.item.text for h in on.search(q, k=50, kinds=["turn"])]
    assert [h.item.text for h in off.search(q, k=50)] == turns_on
    off.close()
    on.close()


def test_index_leaves_open_sessions_alone(mem):
    t = datetime(2024, 1, 1, tzinfo=UTC)
    mem.add_message("s", "user", "still talking", t)
    r = mem.index(now=t + timedelta(minutes=10))
    assert (r.sessions_closed, r.items_indexed) == (0, 0)
    r = mem.index(now=t + timedelta(minutes=31))
    assert (r.sessions_closed, r.items_indexed) == (1, 1)


def test_search_finds_a_fact_with_score_components(loaded):
    hits = loaded.search("half marathon in October", scope="alice-assistant", k=3)
    assert "half marathon" in hits[0].item.text
    h = hits[0]
    assert {"rrf", "lexical", "lexical_rank", "vector", "vector_rank"} <= set(h.scores)
    assert h.session is not None and h.session.id == h.item.session_id
    assert all(x.item.scope == "alice-assistant" for x in hits)


def test_search_filters(loaded):
    assert loaded.search("database", scope="nobody") == []
    assert all(h.item.scope == "team-backend" for h in loaded.search("database", scope="team-backend"))
    early = loaded.search("Lisbon", until="2024-03-05T00:00:00Z", k=50)
    assert early and all(h.item.at <= datetime(2024, 3, 5, tzinfo=UTC) for h in early)
    late = loaded.search("Lisbon", since="2024-03-05T00:00:00Z", k=50)
    assert late and all(h.item.at >= datetime(2024, 3, 5, tzinfo=UTC) for h in late)
    assert loaded.search("Lisbon", privacy=["shared"]) == []
    with pytest.raises(ValidationError, match="kinds"):
        loaded.search("x", kinds=["nonsense"])
    with pytest.raises(ValidationError, match="k:"):
        loaded.search("x", k=0)


def test_search_weird_queries_never_raise(loaded):
    for q in ['"', "AND OR NOT", "(((", "*", "\x00", "🙂🙂", 'col:"x"']:
        assert isinstance(loaded.search(q), list)


def test_query_without_words_returns_nothing_and_says_why(loaded):
    for q in ['"', "(((", "*", "\x00", "🙂🙂", "?!"]:
        assert loaded.search(q) == []
        assert "no words to search for" in loaded.last_notice
    assert loaded.search("Miso")
    assert loaded.last_notice is None


def test_empty_query_is_an_error(loaded):
    for q in ["", "   ", "\n\t"]:
        with pytest.raises(ValidationError, match="query: must not be empty"):
            loaded.search(q)
        with pytest.raises(ValidationError, match="query: must not be empty"):
            loaded.pack(q, 200)


def test_stored_password_is_not_searchable(loaded):
    assert loaded.search("hunter2secret") == [] or all(
        "hunter2secret" not in h.item.text for h in loaded.search("hunter2secret"))


def test_forget_item(loaded):
    hit = loaded.search("Miso hides under the sofa", k=1)[0]
    loaded.forget_item(hit.item.id)
    assert hit.item.id not in [h.item.id for h in loaded.search("Miso hides under the sofa", k=50)]


def test_pack_respects_budget_and_explains(loaded):
    p = loaded.pack("what do you know about my cat Miso?", 120, scope="alice-assistant")
    assert 0 < p.used <= 120
    assert counter_for(None).count(p.text) == p.used and p.token_counter == "approx-cl100k_base"
    assert "Miso" in p.text
    kept = [e for e in p.entries if e.kept]
    dropped = [e for e in p.entries if not e.kept]
    assert kept and dropped
    assert all(("over budget" in e.reason or "duplicate" in e.reason or "slot full" in e.reason
                or (e.slot == "recent_turns" and e.reason == "older than a recent message left out"))
               for e in dropped)
    with pytest.raises(ValidationError, match="budget"):
        loaded.pack("x", 3)


def test_pack_slots_tokenizer_and_journal(loaded):
    pin = loaded.upsert("Always answer in Portuguese.", scope="alice-assistant", pinned=True)
    p = loaded.pack("half marathon training plan", 400, scope="alice-assistant", model="gpt-4",
                    instructions="Be brief.", now=NOW)
    assert p.token_counter == "cl100k_base (gpt-4)"
    assert counter_for("gpt-4").count(p.text) == p.used <= 400
    assert p.text.startswith("Instructions:\nBe brief.\n\nPinned:\n- Always answer in Portuguese.")
    slots = [e.slot for e in p.entries if e.kept]
    assert slots[:2] == ["instructions", "pinned"]
    assert sum(1 for s in slots if s == "summaries") <= 3
    assert "Relevant earlier session summaries:" in p.text and "half marathon" in p.text
    assert abs(sum(p.shares.values()) - 1.0) < 0.01
    replay = loaded.replay_pack(p.id)
    assert replay["text"] == p.text and len(replay["entries"]) == len(p.entries)
    assert [e["reason"] for e in replay["entries"]] == [e.reason for e in p.entries]
    assert replay["entries"] == [dataclasses.asdict(e) for e in p.entries]  # every field journaled
    assert any(e.item_id == pin and e.kept for e in p.entries)


def test_summaries_are_clipped_and_capped(tmp_path):
    from memlane.testing import memory

    m = memory(tmp_path / "p.db", pack={"max_summaries": 1, "summary_chars": 80})
    for f in example_files():
        m.import_file(f)
    m.index(now=NOW)
    p = m.pack("Lisbon", 2000, now=NOW)
    lines = [ln for ln in p.text.split("\n\n")[1].split("\n")[1:]] if "summaries:" in p.text else []
    summary_entries = [e for e in p.entries if e.slot == "summaries"]
    assert sum(e.kept for e in summary_entries) == 1
    assert any("slot full (1)" in e.reason for e in summary_entries if not e.kept)
    block = p.text.split("Relevant earlier session summaries:\n")[1].split("\n")[0]
    body = block.split("] ", 1)[1]
    assert len(body) <= 80 and lines is not None
    m.close()


def test_format_context_reports_each_source(loaded):
    p = loaded.format_context("alice-assistant", "Ana's visit and vegetarian food", 600, now=NOW)
    assert {"recent_turns", "summaries"} <= set(p.shares)
    assert "Recent messages:" in p.text


def test_two_indexers_never_double_index(tmp_path):
    from memlane.testing import memory

    a, b = memory(tmp_path / "x.db"), memory(tmp_path / "x.db")
    for f in example_files():
        a.import_file(f)
    a.close_idle(now=NOW)
    ra, rb = a.index(now=NOW), b.index(now=NOW)
    assert ra.items_indexed + rb.items_indexed == a.stats()["messages"]
    assert a.stats()["items"]["turn"] == a.stats()["messages"]
    a.close()
    b.close()


def test_background_worker_indexes_closed_sessions(mem):
    import time

    mem.add_message("s", "user", "the worker should index this", "2024-01-01T00:00:00Z")
    worker = mem.start_worker(poll_seconds=0.05)
    deadline = time.monotonic() + 20
    while mem.stats()["items"].get("turn", 0) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker.running and worker.failures == 0
    assert any(h.item.text == "the worker should index this" for h in mem.search("worker index"))
    mem.close()
    assert not worker.running


def test_worker_backs_off_and_recovers():
    import threading

    from memlane.index.worker import IndexWorker

    calls = []
    done = threading.Event()

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise RuntimeError("database is locked")
        done.set()

    w = IndexWorker(flaky, poll_seconds=0.01).start()
    assert done.wait(10)
    w.stop()
    assert (w.failures, w.runs >= 1, w.last_error) == (2, True, "RuntimeError: database is locked")


_SHORT_AND_LONG = ["ok", "Thanks, that settles the plan for the whole garden along the north fence and the patio.",
                   "Sure.", "One more: the compost bin moves to the side passage next weekend, after the rain."]


@settings(max_examples=25, deadline=None)
@given(budget=st.integers(40, 400), lengths=st.lists(st.sampled_from(_SHORT_AND_LONG), min_size=3, max_size=6))
@example(budget=40, lengths=["ok", _SHORT_AND_LONG[1], "Sure.", "ok"])  # an older "ok" behind the cut (session 19)
def test_recent_messages_are_the_conversations_tail_without_a_gap(tmp_path_factory, budget, lengths):
    """Under a tight budget the recent slot kept its oldest message and then a later short one,
    skipping the ones between ("What was that plant?" followed by "Noted."): a gap that reads as
    an answer. The newest message is taken first, and none older than one left out (session 18)."""
    from memlane.testing import memory

    m = memory(tmp_path_factory.mktemp("recent") / "r.db")
    try:
        sent = [m.add_message("yard", "user" if i % 2 == 0 else "assistant", text,
                              at=datetime(2024, 6, 1, tzinfo=UTC) - timedelta(minutes=len(lengths) - i))
                for i, text in enumerate(lengths)]
        p = m.pack("compost bin", budget, scope="yard", now=NOW)
        recent = [e for e in p.entries if e.slot == "recent_turns"]
        present = {e.message_id for e in recent if e.kept or e.reason.startswith("duplicate")}
        assert present == {msg.id for msg in sent[len(sent) - len(present):]}  # a tail, no gap
        assert all(e.kept or e.reason.startswith(("duplicate", "over budget", "older than", "recent_turns slot"))
                   for e in recent)
    finally:
        m.close()


def test_after_a_change_of_embedder_search_finds_by_words_until_the_backfill(tmp_path):
    """README, Embedders (session 30's walk): a database indexed with one embedder and opened
    with another is searched by the words of its items alone, no vector score, until
    ``backfill embeddings --missing-only`` embeds them with the new one; the README said
    nothing of it, and a user who changed ``embedding.backend`` lost vector search unseen."""
    from memlane import Memory
    from memlane.config import load_config
    from memlane.testing import HashingEmbedder, add_sessions

    path = tmp_path / "m.db"
    now = datetime(2024, 6, 1, tzinfo=UTC)
    with Memory(config=load_config(environ={}, overrides={"db": str(path)}),
                embedder=HashingEmbedder(dim=256)) as mem:
        add_sessions(mem, [(3, [("user", "I adopted a grey cat named Tom"), ("assistant", "Lovely!")])],
                     now=now)
        assert any("vector" in h.scores for h in mem.search("grey cat", now=now))
    with Memory(config=load_config(environ={}, overrides={"db": str(path)}),
                embedder=HashingEmbedder(dim=64)) as other:
        hits = other.search("grey cat", now=now)
        assert hits and not any("vector" in h.scores for h in hits)  # words alone
        assert other.backfill_embeddings(missing_only=True) >= 2
        assert any("vector" in h.scores for h in other.search("grey cat", now=now))
        assert set(other.stats()["vectors"]) == {"hashing-d64-s0"}  # the new model's, each item
