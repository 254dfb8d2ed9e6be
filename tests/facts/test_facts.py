"""Facts stay true: supersession, reinforcement, history, forgetting — end to end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.errors import NotFoundError, ValidationError
from memlane.testing import memory

T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def _session(mem, scope, texts, start):
    for i, t in enumerate(texts):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant", t, start + timedelta(minutes=i))
    mem.close_session(scope)


def test_contradiction_in_conversation_leaves_one_current_fact_and_history(mem):
    _session(mem, "s", ["My API key is ALPHA-1111.", "Noted.", "Thanks.", "Sure."], T0)
    _session(mem, "s", ["My API key is now BETA-2222.", "Updated.", "Great.", "Done."], T0 + timedelta(days=3))
    mem.index(now=T0 + timedelta(days=4))
    current = mem.facts("s", "user")
    keys = [f for f in current if f.predicate == "api_key"]
    assert [f.object for f in keys] == ["BETA-2222"]
    history = mem.fact_history("user", "api key", "s")
    assert [h["object"] for h in history] == ["ALPHA-1111", "BETA-2222"]
    assert history[0]["status"] == "superseded" and history[0]["superseded_by"] == history[1]["id"]
    assert history[0]["confidence"] == 0.0 and history[1]["confidence"] > 0
    assert history[0]["session_id"] != history[1]["session_id"]
    assert [e["kind"] for e in history[0]["events"]] == ["added", "superseded"]
    facts_hits = mem.search("what is my API key", kinds=["fact"], k=10)
    assert [h.item.text for h in facts_hits] == ["user api key BETA-2222"]
    pack = mem.pack("what is my API key", 400, scope="s")
    kept_facts = [e for e in pack.entries if e.kind == "fact" and e.kept]
    assert kept_facts and all("ALPHA" not in mem.item(e.item_id).text for e in kept_facts)
    # the old turn may still be relevant history, but never reads as current
    old_lines = [ln for ln in pack.text.splitlines() if "ALPHA-1111" in ln]
    assert old_lines and all(ln.endswith("(since superseded: see current facts)") for ln in old_lines)
    assert not any("BETA-2222" in ln and "superseded" in ln for ln in pack.text.splitlines())


def test_same_value_reinforces_and_normalization_decides_same(mem):
    a = mem.add_fact("user", "lives in", "Lisbon", scope="s", at=T0)
    b = mem.add_fact("User ", "Lives_In", "  lisbon.", scope="s", at=T0 + timedelta(days=1))
    c = mem.add_fact("user", "city", "the Lisbon", scope="s", at=T0 + timedelta(days=2))
    assert (a.action, b.action, c.action) == ("added", "reinforced", "reinforced")
    (f,) = mem.facts("s")
    assert f.reinforcements == 2 and f.id == a.fact_id


def test_multi_valued_predicates_accumulate(mem):
    mem.add_fact("user", "likes", "jazz", scope="s", at=T0)
    mem.add_fact("user", "likes", "hiking", scope="s", at=T0 + timedelta(days=1))
    mem.add_fact("user", "visited", "Porto", scope="s", at=T0)
    mem.add_fact("user", "visited", "Rome", scope="s", at=T0)
    assert sorted(f.object for f in mem.facts("s")) == ["Porto", "Rome", "hiking", "jazz"]


def test_cardinality_is_configurable(tmp_path):
    m = memory(tmp_path / "c.db", facts={"single_valued": ["likes"]})
    m.add_fact("user", "likes", "jazz", scope="s", at=T0)
    out = m.add_fact("user", "likes", "hiking", scope="s", at=T0 + timedelta(days=1))
    assert out.action == "superseded" and [f.object for f in m.facts("s")] == ["hiking"]
    m.close()


def test_an_older_statement_arriving_late_is_history_not_news(mem):
    mem.add_fact("user", "works at", "Feedzai", scope="s", at=T0 + timedelta(days=10))
    late = mem.add_fact("user", "works at", "Unbabel", scope="s", at=T0)
    assert late.action == "historical"
    assert [f.object for f in mem.facts("s")] == ["Feedzai"]
    assert [h["object"] for h in mem.fact_history("user", "works_at")] == ["Unbabel", "Feedzai"]


def test_forget_is_a_hard_delete(mem):
    out = mem.add_fact("user", "phone", "555-0101", scope="s", at=T0)
    item_id = mem.facts("s")[0].item_id
    assert mem.search("phone 555-0101")
    mem.forget_fact(out.fact_id)
    assert mem.facts("s", include_superseded=True) == []
    with pytest.raises(NotFoundError):
        mem.item(item_id)
    assert mem.store.db.execute("SELECT count(*) FROM vectors WHERE item_id = ?", (item_id,)).fetchone()[0] == 0
    assert mem.search("phone 555-0101") == []
    with pytest.raises(NotFoundError):
        mem.forget_fact(out.fact_id)


def test_resummarizing_a_session_restores_what_it_had_superseded(mem):
    mem.add_fact("user", "lives in", "Porto", scope="s", at=T0)
    _session(mem, "s", ["I moved to Lisbon.", "Nice.", "Yes.", "Ok."], T0 + timedelta(days=2))
    mem.index(now=T0 + timedelta(days=3))
    assert [f.object for f in mem.facts("s")] == ["Lisbon"]
    with mem.store.atomic():
        mem.store.clear_intelligence(mem.sessions("s")[0].id)
    assert [f.object for f in mem.facts("s")] == ["Porto"]


def test_fact_validation(mem):
    with pytest.raises(ValidationError, match="source"):
        mem.add_fact("user", "likes", "x", scope="s", source="rumour")
    with pytest.raises(ValidationError, match="predicate"):
        mem.add_fact("user", " ", "x", scope="s")


def test_search_touches_facts_and_confidence_signal_uses_the_model(mem):
    mem.add_fact("user", "lives in", "Lisbon", scope="s", at=T0)
    old = T0 + timedelta(days=400)
    (f,) = mem.facts("s", now=old)
    assert f.confidence == 0.5  # stale: the floor at 365+ days since last access
    hits = mem.search("where does the user live", scope="s", kinds=["fact"], now=old,
                      preset="arawn", explain=True)
    assert hits[0].scores["confidence"] == 0.5
    (f,) = mem.facts("s", now=old)
    assert f.confidence == 1.0 and f.last_accessed == old  # the search was an access


def test_touch_on_access_can_be_turned_off(tmp_path):
    m = memory(tmp_path / "t.db", confidence={"touch_on_access": False})
    m.add_fact("user", "lives in", "Lisbon", scope="s", at=T0)
    m.search("Lisbon", scope="s", now=T0 + timedelta(days=400))
    assert m.facts("s", now=T0 + timedelta(days=400))[0].confidence == 0.5
    m.close()
