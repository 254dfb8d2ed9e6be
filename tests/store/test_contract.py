"""The store contract: every backend must pass these unchanged (see the ``store`` fixture)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from memlane.errors import NotFoundError, StoreError
from memlane.store import Filters


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def _session_with(store, scope="s", texts=("hello world",), at=1000.0):
    with store.atomic():
        sid = store.create_session(scope, at, None, None)
        mids = [
            store.append_message(sid, scope, i + 1, "user", t, at + i, speaker=None, ext_id=None,
                                 agent=None, project=None, redactions=0)
            for i, t in enumerate(texts)
        ]
    return sid, mids


def _items(store, sid, texts, scope="s", at=1000.0, **extra):
    with store.atomic():
        return store.insert_items([
            {"kind": "turn", "text": t, "at": at + i, "scope": scope, "session_id": sid, "seq": i + 1,
             **extra}
            for i, t in enumerate(texts)
        ])


def test_session_lifecycle_and_counters(store):
    sid, _ = _session_with(store, texts=("a b", "c d"), at=50.0)
    s = store.get_session(sid)
    assert (s.status, s.message_count, s.participants) == ("open", 2, ("user",))
    assert s.started_at.timestamp() == 50.0 and s.ended_at.timestamp() == 51.0
    assert store.open_session_for("s") == (sid, 51.0, 2)
    assert store.idle_sessions(before=100.0) == [sid]
    with store.atomic():
        assert store.close_session(sid, "explicit") is True
        assert store.close_session(sid, "explicit") is False
    assert store.open_session_for("s") is None
    assert [x.id for x in store.sessions_to_index()] == [sid]
    with store.atomic():
        assert store.claim_for_index(sid) is True
        assert store.claim_for_index(sid) is False
    assert store.sessions_to_index() == []
    assert store.get_session(sid).indexed


def test_one_open_session_per_scope(store):
    _session_with(store, scope="x")
    with pytest.raises(StoreError), store.atomic():
        store.create_session("x", 5.0, None, None)


def test_missing_rows_raise_not_found(store):
    with pytest.raises(NotFoundError, match="session 99"):
        store.get_session(99)
    with pytest.raises(NotFoundError, match="item 7"):
        store.get_item(7)
    with pytest.raises(NotFoundError):
        store.delete_item(7)


def test_atomic_nests_and_rolls_back_inner_only(store):
    sid, _ = _session_with(store)
    with store.atomic():
        _items(store, sid, ["outer kept"])
        with pytest.raises(RuntimeError), store.atomic():
            _items(store, sid, ["inner dropped"])
            raise RuntimeError("boom")
    texts = [i.text for i in store.session_items(sid)]
    assert texts == ["outer kept"]


def test_atomic_rollback_keeps_original_error(store):
    sid, _ = _session_with(store)
    with pytest.raises(KeyError, match="original"), store.atomic():
        _items(store, sid, ["never stored"])
        raise KeyError("original")
    assert store.session_items(sid) == []
    assert store.lexical_search(["stored"], Filters(), 10) == []


def test_item_round_trip(store):
    sid, mids = _session_with(store)
    with store.atomic():
        (iid,) = store.insert_items([{
            "kind": "fact", "text": "Ana is vegetarian", "at": 12.5, "scope": "s", "agent": "bot",
            "project": "p", "session_id": sid, "message_id": mids[0], "seq": 1, "role": "user",
            "keywords": ["ana", "vegetarian"], "entities": ["Ana"], "source": "stated",
            "durability": "short", "lane": "profile", "trust": 0.8, "privacy": "project",
            "ttl_seconds": 60, "parents": [1], "extra": {"k": [1, 2]},
        }])
    it = store.get_item(iid)
    assert (it.kind, it.text, it.at.timestamp(), it.scope, it.agent, it.project) == (
        "fact", "Ana is vegetarian", 12.5, "s", "bot", "p")
    assert (it.keywords, it.entities, it.source, it.durability, it.lane) == (
        ("ana", "vegetarian"), ("Ana",), "stated", "short", "profile")
    assert (it.trust, it.privacy, it.ttl_seconds, it.parents, it.extra) == (
        0.8, "project", 60, (1,), {"k": [1, 2]})


def test_lexical_search_ranks_and_filters(store):
    sid, _ = _session_with(store, scope="a")
    sid2, _ = _session_with(store, scope="b")
    ids = _items(store, sid, ["the cat sat on the mat", "dogs bark loudly", "a cat and a cat"], scope="a")
    _items(store, sid2, ["cat in another scope"], scope="b")
    got = store.lexical_search(["cat"], Filters(scope="a"), 10)
    assert [i for i, _ in got] == [ids[2], ids[0]]
    assert got[0][1] >= got[1][1]
    assert len(store.lexical_search(["cat"], Filters(), 10)) == 3
    # porter stemming: "barking" finds "bark"
    assert [i for i, _ in store.lexical_search(["barking"], Filters(scope="a"), 10)] == [ids[1]]


@pytest.mark.parametrize("query", ['"', "AND", "NOT cat", "(", "a:b", "cat*", "NEAR(", "\x00", "🙂", ""])
def test_lexical_search_any_text_is_a_valid_query(store, query):
    sid, _ = _session_with(store)
    _items(store, sid, ["cat AND dog: NOT a problem 🙂"])
    assert isinstance(store.lexical_search([query], Filters(), 5), list)


def test_delete_item_removes_lexical_and_vector_rows(store):
    sid, _ = _session_with(store)
    ids = _items(store, sid, ["alpha beta", "alpha gamma"])
    with store.atomic():
        store.put_vectors("m", [(ids[0], _unit(1, 0)), (ids[1], _unit(0, 1))])
    assert [i for i, _ in store.vector_search("m", _unit(1, 0), Filters(scope="s"), 5)][0] == ids[0]
    store.delete_item(ids[0])
    assert [i for i, _ in store.lexical_search(["alpha"], Filters(), 5)] == [ids[1]]
    assert [i for i, _ in store.vector_search("m", _unit(1, 0), Filters(scope="s"), 5)] == [ids[1]]
    assert [i for i, _ in store.vector_search("m", _unit(1, 0), Filters(), 5)] == [ids[1]]
    assert store.vector_count("m") == 1


def test_vector_search_sees_updates(store):
    sid, _ = _session_with(store)
    ids = _items(store, sid, ["one", "two"])
    with store.atomic():
        store.put_vectors("m", [(ids[0], _unit(1, 0, 0)), (ids[1], _unit(0, 1, 0))])
    q = _unit(0, 0, 1)
    with store.atomic():
        store.put_vectors("m", [(ids[0], _unit(0, 0, 1))])
    best = store.vector_search("m", q, Filters(), 2)
    assert best[0][0] == ids[0] and best[0][1] == pytest.approx(1.0)
    # a second model's vectors are a separate index
    assert store.vector_search("other", q, Filters(), 2) == []


def test_vector_search_respects_filters(store):
    sid, _ = _session_with(store, scope="a")
    sid2, _ = _session_with(store, scope="b")
    a = _items(store, sid, ["x"], scope="a")
    b = _items(store, sid2, ["y"], scope="b", privacy="shared")
    with store.atomic():
        store.put_vectors("m", [(a[0], _unit(1, 0)), (b[0], _unit(1, 0.1))])
    assert [i for i, _ in store.vector_search("m", _unit(1, 0.1), Filters(scope="b"), 5)] == []
    assert [i for i, _ in store.vector_search("m", _unit(1, 0.1), Filters(), 5)] == [a[0]]
    shared = Filters(privacy=("shared",))
    assert [i for i, _ in store.vector_search("m", _unit(1, 0.1), shared, 5)] == [b[0]]


def test_embedding_cache(store):
    h = b"\x01" * 32
    with store.atomic():
        store.cache_vectors("m", [(h, _unit(1, 2))])
        store.cache_vectors("m", [(h, _unit(9, 9))])  # first write wins
    got = store.cached_vectors("m", [h, b"\x02" * 32])
    assert list(got) == [h] and np.allclose(got[h], _unit(1, 2))
    assert store.cached_vectors("other", [h]) == {}


def test_counters_and_stats(store):
    with store.atomic():
        store.bump("x")
        store.bump("x", 4)
    assert store.counters()["x"] == 5
    st = store.stats()
    assert st["counters"]["x"] == 5 and st["messages"] == 0
    assert store.pending_migrations() == [] and store.applied_migrations()


def test_messages_by_ext_id_and_order(store):
    with store.atomic():
        sid = store.create_session("s", 1.0, None, None)
        store.append_message(sid, "s", 1, "user", "first", 1.0, speaker="Ana", ext_id="m1",
                             agent=None, project=None, redactions=0)
        store.append_message(sid, "s", 2, "assistant", "second", 2.0, speaker=None, ext_id="m2",
                             agent=None, project=None, redactions=0)
    assert store.message_by_ext_id("s", "m2").text == "second"
    assert store.message_by_ext_id("other", "m2") is None
    assert [m.text for m in store.session_messages(sid)] == ["first", "second"]
    assert [m.text for m in store.recent_messages("s", 1)] == ["second"]
    assert store.get_session(sid).participants == ("Ana", "assistant")


def test_a_sessions_opener_is_its_first_stored_message_not_its_earliest(store):
    """``opener``: the ``ext_id`` of the message that opened the session (an import tells
    a session an earlier import of its file started from a user's, session 32)."""
    def add(text: str, at: float, ext_id: str | None) -> int:
        got = store.add_message("s", "user", text, at, gap=60.0, speaker=None, ext_id=ext_id,
                                agent=None, project=None, redactions=0)
        return got[1]

    sid = add("opened it", 100.0, "x2")
    assert add("earlier, in the gap", 90.0, "x1") == sid
    assert [m.text for m in store.session_messages(sid)] == ["earlier, in the gap", "opened it"]
    assert store.opener(sid) == "x2"
    other = add("no id", 1000.0, None)  # after the gap: a session of its own
    assert other != sid and store.opener(other) is None
    with store.atomic():
        empty = store.create_session("t", 1.0, None, None)
    assert store.opener(empty) is None


def test_restore_keeps_ids_and_every_column_and_iterators_return_them(store):
    session = {
        "id": 7, "scope": "s", "agent": "bot", "project": "p", "status": "failed",
        "started_at": 10.25, "ended_at": 20.5, "message_count": 1, "participants": ["Ana"],
        "closed_reason": "gap", "failed_reason": "llm timed out", "summary_version": 3,
        "indexed_at": 30.125, "created_at": 9.0, "attempts": 2, "next_attempt_at": 40.0,
        "lease_until": None, "summarized_at": None, "summary_model": "m-1", "deferrals": 4,
    }
    message = {
        "id": 11, "session_id": 7, "scope": "s", "seq": 1, "role": "user", "speaker": "Ana",
        "text": "Ana loves Lisbon", "at": 10.25, "ext_id": "m-1", "agent": "bot", "project": "p",
        "redactions": 2,
    }
    items = [
        {"id": i, "kind": "fact", "text": f"Ana loves Lisbon {i}", "keys": "portugal trip",
         "at": 10.25, "scope": "s", "agent": "bot", "project": "p", "session_id": 7,
         "message_id": 11, "seq": 1, "role": "user", "keywords": ["lisbon"], "entities": ["Ana"],
         "source": "stated", "durability": "short", "lane": "profile", "trust": 0.75,
         "privacy": "project", "ttl_seconds": 60, "expires_at": 70.25, "parents": [21],
         "children": [22] if i == 21 else [], "status": "active", "dedupe_hash": f"h{i}",
         "extra": {"z": 1, "a": [1, "x"]}, "created_at": 11.5, "updated_at": 12.5}
        for i in (21, 22)
    ]
    entity = {"id": 5, "scope": "s", "name": "Ana", "norm_name": "ana", "type": "person",
              "context": "a friend", "mentions": 3, "first_seen": 10.25, "last_seen": 20.5}
    facts = [
        {"id": 31 + k, "item_id": 21 + k, "scope": "s", "subject": "Ana", "predicate": "lives in",
         "object": obj, "norm_subject": "ana", "norm_predicate": "lives_in", "norm_object": obj.lower(),
         "source": "stated", "session_id": 7, "message_id": 11, "at": 10.25 + k,
         "reinforcements": k, "last_accessed": 12.0, "superseded_by": 32 if k == 0 else None,
         "status": "superseded" if k == 0 else "current", "created_at": 11.0}
        for k, obj in enumerate(("Porto", "Lisbon"))
    ]
    relation = {"id": 41, "scope": "s", "source_entity": "ana", "relation": "lives_in",
                "target_entity": "lisbon", "session_id": 7, "message_id": 11, "at": 10.25}
    with store.atomic():
        store.restore_sessions([session])
        store.restore_messages([message])
        store.restore_items(items)
        store.put_vectors("m", [(21, _unit(1, 0)), (22, _unit(0, 1))])
        store.cache_vectors("m", [(b"\x01" * 32, _unit(3, 4))])
        store.restore_entities([entity])
        store.restore_facts(facts)  # the first is superseded by the second: a forward link
        store.restore_relations([relation])
    assert list(store.iter_sessions()) == [session]
    assert list(store.iter_entities()) == [entity]
    assert list(store.iter_facts(batch=1)) == facts
    assert list(store.iter_relations()) == [relation]
    assert [f.superseded_by for f in store.session_facts(7)] == [32, None]
    assert store.session_relations(7) == [("ana", "lives_in", "lisbon")]
    assert [e.mentions for e in store.scope_entities("s")] == [3]
    assert list(store.iter_messages()) == [message]
    assert list(store.iter_items(batch=1)) == items  # batches page by id
    vecs = list(store.iter_vectors(batch=1))
    assert [(i, m) for i, m, _ in vecs] == [(21, "m"), (22, "m")]
    assert np.allclose(vecs[1][2], _unit(0, 1))
    cache = list(store.iter_cache())
    assert [(m, h) for m, h, _ in cache] == [("m", b"\x01" * 32)]
    assert np.allclose(cache[0][2], _unit(3, 4))
    # the restored rows behave like any others
    s = store.get_session(7)
    assert (s.status, s.failed_reason, s.summary_version, s.indexed) == ("failed", "llm timed out", 3, True)
    assert store.get_item(22).children == () and store.get_item(21).children == (22,)
    assert [i for i, _ in store.lexical_search(["portugal"], Filters(privacy=("project",)), 5)] == [21, 22]
    assert store.vector_search("m", _unit(0, 1), Filters(privacy=("project",)), 1)[0][0] == 22
    # new rows get ids after the restored ones
    with store.atomic():
        assert store.create_session("t", 50.0, None, None) > 7
        assert store.insert_items([{"kind": "turn", "text": "x", "at": 1.0}])[0] > 22


def test_peek_migrations_reads_without_changing(store):
    location = store.url
    report = type(store).peek_migrations(location)
    assert report == {"applied": store.applied_migrations(), "pending": [], "edited": [],
                      "unknown": []}


def test_item_vectors_returns_stored_vectors_by_id(store):
    sid, _ = _session_with(store)
    a, b, c = _items(store, sid, ["alpha", "beta", "gamma"])
    with store.atomic():
        store.put_vectors("m", [(a, _unit(1, 0, 0)), (b, _unit(0, 1, 0))])
    got = store.item_vectors("m", [b, a, c, a])
    assert sorted(got) == [a, b]  # c has no vector; duplicates collapse
    assert np.allclose(got[a], _unit(1, 0, 0)) and np.allclose(got[b], _unit(0, 1, 0))
    assert store.item_vectors("other-model", [a, b]) == {}
    assert store.item_vectors("m", []) == {}


# -- facts, hygiene, links, lookups, packs (schema 3) ------------------------------------
def _fact_row(scope, subject, predicate, obj, at, item_id=None, session_id=None):
    return {"item_id": item_id, "scope": scope, "subject": subject, "predicate": predicate,
            "object": obj, "norm_subject": subject.lower(), "norm_predicate": predicate,
            "norm_object": obj.lower(), "session_id": session_id, "at": at}


def _fact_items(store, sid, texts, scope="s"):
    with store.atomic():
        return store.insert_items([
            {"kind": "fact", "text": t, "at": 10.0 + k, "scope": scope, "session_id": sid,
             "lane": "profile"} for k, t in enumerate(texts)
        ])


def test_facts_current_reinforce_supersede_history_events_and_forget(store):
    sid, _ = _session_with(store)
    i1, i2, i3 = _fact_items(store, sid, ["Ana lives in Porto", "Ana lives in Lisbon", "Bo likes tea"])
    with store.atomic():
        f1 = store.insert_fact(_fact_row("s", "Ana", "lives_in", "Porto", 10.0, i1, sid))
        f2 = store.insert_fact(_fact_row("s", "Ana", "lives_in", "Lisbon", 20.0, i2, sid))
        f3 = store.insert_fact(_fact_row("s", "Bo", "likes", "Tea", 15.0, i3, sid))
        store.insert_fact(_fact_row("other", "Ana", "lives_in", "Faro", 5.0))
    got = store.current_facts("s", "ana", "lives_in")
    assert [(f.id, norm) for f, norm in got] == [(f1, "porto"), (f2, "lisbon")]
    assert store.current_facts("s", "ana", "likes") == []

    with store.atomic():
        store.reinforce_fact(f1, 15.0)
        store.reinforce_fact(f1, 12.0)  # an older sighting never moves last_accessed back
        store.log_fact_event(store.get_fact(f1), "added", 10.0, session_id=sid)
        store.log_fact_event(store.get_fact(f2), "added", 20.0, session_id=sid)
        store.log_fact_event(store.get_fact(f1), "reinforced", 15.0, session_id=sid)
        store.supersede_fact(f1, f2)
        store.log_fact_event(store.get_fact(f1), "superseded", 20.0, other_id=f2, session_id=sid)
    old = store.get_fact(f1)
    assert (old.reinforcements, old.last_accessed.timestamp()) == (2, 15.0)
    assert (old.status, old.superseded_by, old.object) == ("superseded", f2, "Porto")
    assert store.get_item(i1).status == "superseded" and store.get_item(i2).status == "active"
    assert [f.id for f, _ in store.current_facts("s", "ana", "lives_in")] == [f2]

    events = store.fact_events([f2, f1])
    assert [(e["fact_id"], e["kind"], e["other_id"]) for e in events] == [
        (f1, "added", None), (f1, "reinforced", None), (f2, "added", None), (f1, "superseded", f2)]
    assert events[0]["at"].timestamp() == 10.0 and events[0]["session_id"] == sid
    assert store.fact_events([]) == []

    assert [f.object for f in store.fact_history("s", "ana", "lives_in")] == ["Porto", "Lisbon"]
    assert [f.object for f in store.fact_history(None, "ana", "lives_in")] == ["Faro", "Porto", "Lisbon"]
    assert [f.id for f in store.list_facts("s")] == [f2, f3]  # subject, predicate, at order
    assert [f.id for f in store.list_facts("s", include_superseded=True)] == [f1, f2, f3]
    assert [f.scope for f in store.list_facts(norm_subject="ana")] == ["other", "s"]
    assert len(store.list_facts(limit=1)) == 1
    assert {k: v.id for k, v in store.facts_for_items([i1, i3, 999]).items()} == {i1: f1, i3: f3}
    assert store.facts_for_items([]) == {}

    with store.atomic():
        store.touch_facts([f2, f3], 100.0)
        store.touch_facts([f2], 50.0)
        store.touch_facts([], 200.0)
    assert store.get_fact(f2).last_accessed.timestamp() == 100.0
    assert store.get_fact(f3).last_accessed.timestamp() == 100.0

    with store.atomic():
        store.delete_fact(f2)  # the fact, its item and events; links to it are cleared
    with pytest.raises(NotFoundError, match=f"fact {f2}"):
        store.get_fact(f2)
    with pytest.raises(NotFoundError):
        store.get_item(i2)
    assert store.get_fact(f1).superseded_by is None
    assert [e["fact_id"] for e in store.fact_events([f1, f2])] == [f1, f1, f1]
    assert store.lexical_search(["Lisbon"], Filters(), 5) == []


def test_clear_intelligence_restores_what_the_session_superseded(store):
    a, _ = _session_with(store, scope="s")
    with store.atomic():
        store.close_session(a, "explicit")
    b, _ = _session_with(store, scope="s", at=2000.0)
    (ia,) = _fact_items(store, a, ["Ana lives in Porto"])
    (ib,) = _fact_items(store, b, ["Ana lives in Lisbon"])
    with store.atomic():
        fa = store.insert_fact(_fact_row("s", "Ana", "lives_in", "Porto", 10.0, ia, a))
        fb = store.insert_fact(_fact_row("s", "Ana", "lives_in", "Lisbon", 20.0, ib, b))
        store.log_fact_event(store.get_fact(fa), "added", 10.0, session_id=a)
        store.log_fact_event(store.get_fact(fb), "added", 20.0, session_id=b)
        store.supersede_fact(fa, fb)
        store.log_fact_event(store.get_fact(fa), "superseded", 20.0, other_id=fb, session_id=b)
        (summary,) = store.insert_items([{"kind": "summary", "text": "b", "at": 2000.0,
                                          "scope": "s", "session_id": b}])
        store.insert_relation("s", "ana", "lives_in", "lisbon", b, None, 20.0)
        store.insert_relation("s", "ana", "knows", "bo", a, None, 10.0)
    with store.atomic():
        store.clear_intelligence(b)
    back = store.get_fact(fa)
    assert (back.status, back.superseded_by) == ("current", None)
    assert store.get_item(ia).status == "active"
    assert [f.id for f in store.list_facts("s", include_superseded=True)] == [fa]
    assert [e["kind"] for e in store.fact_events([fa, fb])] == ["added", "superseded"]
    with pytest.raises(NotFoundError):
        store.get_item(summary)
    with pytest.raises(NotFoundError):
        store.get_item(ib)
    assert store.session_relations(b) == [] and store.session_relations(a) == [("ana", "knows", "bo")]


def test_expire_evict_lane_count_and_pins(store):
    _session_with(store, scope="s")
    with store.atomic():
        gone, kept_pinned, no_ttl = store.insert_items([
            {"kind": "note", "text": "short lived", "at": 100.0, "scope": "s", "ttl_seconds": 10},
            {"kind": "note", "text": "pinned short", "at": 100.0, "scope": "s", "ttl_seconds": 10,
             "pinned": True},
            {"kind": "note", "text": "forever", "at": 100.0, "scope": "s"},
        ])
    assert store.get_item(kept_pinned).pinned and not store.get_item(gone).pinned
    with store.atomic():
        assert store.expire_items(105.0) == 0
        assert store.expire_items(110.0) == 1
    assert sorted(store.get_items([gone, kept_pinned, no_ttl])) == sorted([kept_pinned, no_ttl])

    with store.atomic():
        eph = store.insert_items([
            {"kind": "note", "text": f"e{k}", "at": 200.0 + k, "scope": "s", "lane": "ephemeral",
             "trust": trust, "pinned": k == 0}
            for k, trust in enumerate([0.1, 0.5, 0.1, 0.9, 0.5])
        ])
        store.insert_items([{"kind": "note", "text": "old", "at": 1.0, "lane": "ephemeral",
                             "status": "superseded"}])
    assert store.lane_count("ephemeral") == 5 and store.lane_count("semantic") == 0
    with store.atomic():
        assert store.evict_lowest("ephemeral", 0) == 0
        assert store.evict_lowest("ephemeral", 2) == 2  # trust 0.1 (unpinned), then 0.5 oldest
    assert sorted(store.get_items(eph)) == sorted([eph[0], eph[3], eph[4]])
    assert store.lane_count("ephemeral") == 3

    with store.atomic():
        store.set_pinned(no_ttl, True)
        store.set_pinned(kept_pinned, False)
        (unscoped,) = store.insert_items([{"kind": "note", "text": "global", "at": 150.0,
                                           "pinned": True}])
        _session_with(store, scope="t")
        store.insert_items([{"kind": "note", "text": "t pin", "at": 1.0, "scope": "t",
                             "pinned": True}])
    with pytest.raises(NotFoundError, match="item 9999"):
        store.set_pinned(9999, True)
    assert [i.id for i in store.pinned_items("s")] == [no_ttl, unscoped, eph[0]]
    assert len(store.pinned_items()) == 4
    assert not store.get_item(kept_pinned).pinned


def test_links_kinds_keywords_entities_and_relations(store):
    sid, _ = _session_with(store, scope="s")
    with store.atomic():
        parent, c1, c2, other = store.insert_items([
            {"kind": "summary", "text": "p", "at": 3.0, "scope": "s", "keywords": ["topic:billing"]},
            {"kind": "summary", "text": "c1", "at": 1.0, "scope": "s",
             "keywords": ["topic:billing", "x"], "entities": ["Ana", "Bo"]},
            {"kind": "summary", "text": "c2", "at": 2.0, "scope": "s",
             "keywords": ["topic:bill"], "entities": ["Ana"]},
            {"kind": "summary", "text": "o", "at": 0.5, "scope": "t",
             "keywords": ["topic:billing"], "entities": ["Ana"]},
        ])
    assert [i.id for i in store.items_of_kind("summary")] == [other, c1, c2, parent]
    assert [i.id for i in store.items_of_kind("summary", "s")] == [c1, c2, parent]
    assert [i.id for i in store.items_with_keyword("topic:billing")] == [other, c1, parent]
    assert [i.id for i in store.items_with_keyword("topic:billing", "s")] == [c1, parent]
    assert store.items_with_keyword("topic:bil") == []
    assert [i.id for i in store.items_with_entity("Ana")] == [c2, c1, other]
    assert [i.id for i in store.items_with_entity("Ana", "s", limit=1)] == [c2]
    assert store.items_with_entity("ana") == []  # names match exactly

    with store.atomic():
        store.link_items(parent, [c1], supersede=False)
        store.link_items(parent, [c1, c2], supersede=True)
    p, k1, k2 = (store.get_item(i) for i in (parent, c1, c2))
    assert p.children == (c1, c2) and k1.parents == (parent,) and k2.parents == (parent,)
    assert (k1.status, k2.status) == ("superseded", "superseded")
    assert [i.id for i in store.items_of_kind("summary", "s")] == [parent]
    assert [i.id for i in store.items_of_kind("summary", "s", status="superseded")] == [c1, c2]
    assert [i.id for i in store.items_with_keyword("topic:billing", "s")] == [parent]

    with store.atomic():
        for scope, name in (("s", "Ana"), ("t", "Ana"), ("s", "Bo"), ("s", "Ana")):
            store.upsert_entity(scope, name, name.lower(), "person", "ctx", 5.0)
        store.insert_relation("s", "ana", "sister_of", "bo", sid, None, 1.0)
        store.insert_relation("s", "bo", "knows", "ana", sid, None, 2.0)
        store.insert_relation("s", "ana", "sister_of", "bo", sid, None, 3.0)  # a repeat
        store.insert_relation("t", "ana", "lives_in", "lisbon", None, None, 4.0)
        store.insert_relation("s", "cy", "knows", "bo", None, None, 4.0)
    found = store.find_entities("ana")
    assert [(e.scope, e.name, e.mentions) for e in found] == [("s", "Ana", 2), ("t", "Ana", 1)]
    assert [e.scope for e in store.find_entities("ana", "t")] == ["t"]
    assert store.find_entities("nobody") == []
    assert store.relations_of("ana") == [
        ("s", "ana", "sister_of", "bo"), ("s", "bo", "knows", "ana"), ("t", "ana", "lives_in", "lisbon")]
    assert store.relations_of("ana", "t") == [("t", "ana", "lives_in", "lisbon")]
    assert sorted(store.entity_names("s")) == ["ana", "bo"] and store.entity_names("x") == []


def test_pack_journal_round_trip(store):
    entries = [{"item_id": 1, "kind": "fact", "tokens": 12, "included": True, "reason": "fact"},
               {"item_id": None, "kind": "recent", "tokens": 3, "included": False, "reason": "budget"}]
    with store.atomic():
        first = store.save_pack({"query": "what does Ana eat?", "scope": "s", "budget": 256,
                                 "used": 15, "counter": "chars/4", "text": "Ana is vegetarian.",
                                 "entries": entries, "config": {"shares": {"fact": 1.0}}})
        second = store.save_pack({"query": "q", "budget": 64, "used": 0, "counter": "chars/4",
                                  "text": "", "entries": []})
    assert second > first
    got = store.get_pack(first)
    created = got.pop("created_at")
    assert got == {"id": first, "query": "what does Ana eat?", "scope": "s", "budget": 256,
                   "used": 15, "counter": "chars/4", "text": "Ana is vegetarian.",
                   "entries": entries, "config": {"shares": {"fact": 1.0}}}
    assert created.tzinfo is not None and abs(created.timestamp() - time.time()) < 60
    assert (store.get_pack(second)["scope"], store.get_pack(second)["config"]) == (None, {})
    with pytest.raises(NotFoundError, match="pack 999"):
        store.get_pack(999)


def test_copy_iterators_carry_pins_fact_events_and_packs(store):
    sid, _ = _session_with(store)
    a, b, c = _items(store, sid, ["a", "b", "c"])
    with store.atomic():
        store.set_pinned(c, True)
        store.set_pinned(a, True)
        f = store.insert_fact(_fact_row("s", "Ana", "likes", "tea", 10.0, None, sid))
        store.log_fact_event(store.get_fact(f), "added", 10.0, session_id=sid)
        store.log_fact_event(store.get_fact(f), "reinforced", 11.5, other_id=None)
        store.save_pack({"query": "q", "scope": None, "budget": 32, "used": 4, "counter": "c",
                         "text": "t", "entries": [{"x": [1, 2.5]}], "config": {"k": "v"}})
    assert list(store.iter_pinned()) == [a, c]
    events = list(store.iter_fact_events(batch=1))
    assert [(e["fact_id"], e["kind"], e["subject"], e["object"], e["session_id"], e["at"])
            for e in events] == [(f, "added", "Ana", "tea", sid, 10.0), (f, "reinforced", "Ana", "tea", None, 11.5)]
    (pack,) = store.iter_packs()
    assert (pack["entries"], pack["config"], pack["scope"]) == ([{"x": [1, 2.5]}], {"k": "v"}, None)

    with store.atomic():
        store.restore_items([{**r, "id": r["id"] + 100, "dedupe_hash": None, "pinned": r["id"] == b}
                             for r in store.iter_items()])
        store.restore_pinned([a + 100])
        store.restore_fact_events([{**e, "id": e["id"] + 100} for e in events])
        store.restore_packs([{**pack, "id": 77}])
    assert list(store.iter_pinned()) == [a, c, a + 100, b + 100]
    assert store.get_item(b + 100).pinned and not store.get_item(c + 100).pinned
    assert [e["id"] for e in store.iter_fact_events()] == [e["id"] for e in events] + [
        e["id"] + 100 for e in events]
    assert store.get_pack(77)["entries"] == [{"x": [1, 2.5]}]
    with store.atomic():  # new rows get ids after the restored ones
        assert store.save_pack({"query": "n", "budget": 1, "used": 0, "counter": "c", "text": "",
                                "entries": []}) > 77
        store.log_fact_event(store.get_fact(f), "accessed", 12.0)
    assert max(e["id"] for e in store.iter_fact_events()) > max(e["id"] for e in events) + 100


def test_superseded_messages(store):
    sid, mids = _session_with(store, texts=("my city is Porto", "now it is Lisbon", "hello"))
    with store.atomic():
        def add(obj, mid, at):
            return store.insert_fact({
                "scope": "s", "subject": "user", "predicate": "lives_in", "object": obj,
                "norm_subject": "user", "norm_predicate": "lives_in", "norm_object": obj.lower(),
                "session_id": sid, "message_id": mid, "at": at})
        old = add("Porto", mids[0], 1.0)
        new = add("Lisbon", mids[1], 2.0)
        store.supersede_fact(old, new)
    assert store.superseded_messages(mids) == {mids[0]}
    assert store.superseded_messages([]) == set()


def test_first_turns_gives_each_sessions_first_turn_of_a_role(store):
    a, _ = _session_with(store, scope="sa")
    b, _ = _session_with(store, scope="sb")
    c, _ = _session_with(store, scope="sc")
    with store.atomic():
        ids = store.insert_items([
            {"kind": "turn", "text": "hi there", "at": 1.0, "scope": "s", "session_id": a, "seq": 3, "role": "user"},
            {"kind": "turn", "text": "answer", "at": 1.0, "scope": "s", "session_id": a, "seq": 1, "role": "assistant"},
            {"kind": "turn", "text": "later", "at": 1.0, "scope": "s", "session_id": a, "seq": 5, "role": "user"},
            {"kind": "turn", "text": "only assistant", "at": 1.0, "scope": "s", "session_id": b, "seq": 1, "role": "assistant"},
            {"kind": "summary", "text": "a summary", "at": 1.0, "scope": "s", "session_id": c, "seq": 0, "role": "user"},
            {"kind": "turn", "text": "c first", "at": 1.0, "scope": "s", "session_id": c, "seq": 2, "role": "user"},
        ])
    got = store.first_turns([a, b, c, a], "user")
    assert {sid: it.id for sid, it in got.items()} == {a: ids[0], c: ids[5]}
    assert got[a].text == "hi there" and got[a].seq == 3
    assert store.first_turns([b], "assistant")[b].id == ids[3]
    assert store.first_turns([], "user") == {}
    # the same first turn session_items would give, for every session
    for sid in (a, b, c):
        users = [it for it in store.session_items(sid, kind="turn") if it.role == "user"]
        assert (got.get(sid).id if sid in got else None) == (users[0].id if users else None)
