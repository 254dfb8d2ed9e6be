"""The store's erasure (``erase_scope``, ``erase_sessions``; docs/erasure.md) behaves alike
on every backend: what goes with a session, what its scope keeps and rebuilds, and that
other scopes are never touched."""

from __future__ import annotations

import json

import pytest

from memlane.errors import NotFoundError
from memlane.serve import live
from memlane.store.sql.erase import ERASE_KINDS


def _session(store, scope, texts, at=1000.0):
    with store.atomic():
        sid = store.create_session(scope, at, None, None)
        mids = [store.append_message(sid, scope, i + 1, "user", t, at + i, speaker=None,
                                     ext_id=None, agent=None, project=None, redactions=0)
                for i, t in enumerate(texts)]
        store.close_session(sid, "explicit")
    return sid, mids


def _item(store, scope, sid, kind, text, at=1000.0, **extra):
    with store.atomic():
        (iid,) = store.insert_items([{"kind": kind, "text": text, "at": at, "scope": scope,
                                      "session_id": sid, **extra}])
    return iid


def _fact(store, scope, sid, obj, at, item_id):
    return store.insert_fact({
        "item_id": item_id, "scope": scope, "subject": "user", "predicate": "lives_in",
        "object": obj, "norm_subject": "user", "norm_predicate": "lives_in",
        "norm_object": obj.lower(), "source": "stated", "session_id": sid, "message_id": None,
        "at": at, "last_accessed": at})


def _entity(store, scope, sid, name, context, at):
    _item(store, scope, sid, "entity", f"{name} (place)", at=at,
          extra={"name": name, "type": "place", "context": context})
    with store.atomic():
        store.upsert_entity(scope, name, name.lower(), "place", context, at)


def test_unknown_session_erases_nothing(store) -> None:
    sid, _ = _session(store, "s", ["hello"])
    with pytest.raises(NotFoundError, match="session 999 does not exist"):
        store.erase_sessions([sid, 999])
    assert store.get_session(sid).message_count == 1
    assert store.erase_sessions([]) == dict.fromkeys(ERASE_KINDS, 0)


def test_a_superseded_fact_is_current_again_when_its_successor_is_erased(store) -> None:
    s1, _ = _session(store, "s", ["I live in Porto"])
    s2, _ = _session(store, "s", ["I moved to Lisbon"], at=2000.0)
    other, _ = _session(store, "t", ["I moved to Lisbon"], at=2000.0)
    i1 = _item(store, "s", s1, "fact", "user lives_in Porto")
    i2 = _item(store, "s", s2, "fact", "user lives_in Lisbon", at=2000.0)
    it = _item(store, "t", other, "fact", "user lives_in Lisbon", at=2000.0)
    with store.atomic():
        f1 = _fact(store, "s", s1, "Porto", 1000.0, i1)
        f2 = _fact(store, "s", s2, "Lisbon", 2000.0, i2)
        ft = _fact(store, "t", other, "Lisbon", 2000.0, it)
        store.supersede_fact(f1, f2)
        store.log_fact_event(store.get_fact(f1), "superseded", 2000.0, other_id=f2, session_id=s2)
    assert store.get_fact(f1).status == "superseded"

    counts = store.erase_sessions([s2])

    assert counts["facts"] == 1 and counts["items"] == 1 and counts["sessions"] == 1
    assert store.get_fact(f1).status == "current" and store.get_fact(f1).superseded_by is None
    assert store.get_item(i1).status == "active"
    assert [e["kind"] for e in store.fact_events([f1])] == []   # the event named the successor
    with pytest.raises(NotFoundError):
        store.get_fact(f2)
    assert store.get_fact(ft).object == "Lisbon"   # another scope's same fact stays


def test_entities_are_rebuilt_from_what_remains(store) -> None:
    s1, _ = _session(store, "s", ["Lisbon is sunny"])
    s2, _ = _session(store, "s", ["Lisbon again, and Faro"], at=2000.0)
    t1, _ = _session(store, "t", ["Faro"], at=2000.0)
    _entity(store, "s", s1, "Lisbon", "sunny city", 1000.0)
    _entity(store, "s", s2, "LISBON", "said again", 2000.0)
    _entity(store, "s", s2, "Faro", "only in the second session", 2000.0)
    _entity(store, "t", t1, "Faro", "another tenant's", 2000.0)
    before_t = store.scope_entities("t")

    counts = store.erase_sessions([s2])

    assert counts["entities"] == 1   # Faro: no remaining item of the scope names it
    [lisbon] = store.scope_entities("s")
    assert (lisbon.name, lisbon.mentions, lisbon.context) == ("Lisbon", 1, "sunny city")
    assert lisbon.first_seen == lisbon.last_seen
    assert store.scope_entities("t") == before_t


def test_records_made_of_an_erased_summary_go_and_what_they_absorbed_returns(store) -> None:
    s1, _ = _session(store, "s", ["billing: Postgres"])
    s2, _ = _session(store, "s", ["billing: replicas"], at=2000.0)
    a = _item(store, "s", s1, "summary", "We chose Postgres for billing")
    b = _item(store, "s", s2, "summary", "Two replicas for billing", at=2000.0)
    d = _item(store, "s", None, "decision", "Decisions: Postgres; two replicas", at=2000.0,
              extra={"absorbed": [a, b]})
    w = _item(store, "s", None, "summary", "Week: Postgres, replicas", at=2000.0,
              extra={"rollup": "week", "children": [a, b]})
    keep = _item(store, "s", None, "note", "unrelated note")
    with store.atomic():
        store.link_items(d, [a, b], supersede=True)
        store.link_items(w, [a, b], supersede=False)
    assert store.get_item(a).status == "superseded"

    store.erase_sessions([s2])

    for gone in (b, d, w):
        with pytest.raises(NotFoundError):
            store.get_item(gone)
    assert store.get_item(a).status == "active"
    assert store.get_item(keep).text == "unrelated note"


def test_an_erased_record_restores_nothing_of_another_scope(store) -> None:
    """A record whose ``extra.absorbed`` names another tenant's items (what a client could
    write before session 19 refused the key on upsert) is erased with its session's
    summary; the other tenant's superseded item stays superseded (qa19's lead: the erase
    made it active again, on both stores)."""
    t1, _ = _session(store, "t", ["billing: MySQL"])
    victim = _item(store, "t", t1, "summary", "We chose MySQL")
    t_rec = _item(store, "t", None, "decision", "Decisions: MySQL", extra={"absorbed": [victim]})
    with store.atomic():
        store.link_items(t_rec, [victim], supersede=True)
    s1, _ = _session(store, "s", ["billing: Postgres"])
    own = _item(store, "s", s1, "summary", "We chose Postgres")
    own_old = _item(store, "s", None, "summary", "Earlier: Postgres")
    forged = _item(store, "s", None, "decision", "Decisions: Postgres",
                   extra={"absorbed": [own, own_old, victim]})
    with store.atomic():
        store.link_items(forged, [own, own_old], supersede=True)
    assert store.get_item(victim).status == "superseded"

    store.erase_sessions([s1])

    with pytest.raises(NotFoundError):
        store.get_item(forged)
    assert store.get_item(own_old).status == "active"   # its own scope's: restored
    assert store.get_item(victim).status == "superseded"
    assert store.get_item(t_rec).status == "active"


def test_packs_that_drew_on_an_erased_session_go_and_last_pack_follows(store) -> None:
    s1, m1 = _session(store, "s", ["kept"])
    s2, m2 = _session(store, "s", ["erased"], at=2000.0)
    i1 = _item(store, "s", s1, "turn", "kept", message_id=m1[0], seq=1)
    i2 = _item(store, "s", s2, "turn", "erased", message_id=m2[0], seq=1, at=2000.0)

    def pack(scope, query, *item_ids):
        with store.atomic():
            return store.save_pack({
                "query": query, "scope": scope, "budget": 100, "used": 10, "counter": "chars",
                "text": query, "entries": [{"item_id": i, "message_id": None} for i in item_ids]})

    p_keep = pack("s", "old question", i1)
    p_scoped = pack("s", "about the erased one", i1, i2)
    p_global = pack(None, "about the erased one, every scope", i2)
    p_other = pack(None, "nothing of it", i1)
    head, before = live.snapshot(store, "s")
    assert before["last_pack"]["id"] == p_scoped

    counts = store.erase_sessions([s2])

    assert counts["packs"] == 2
    assert store.get_pack(p_keep)["query"] == "old question"
    assert store.get_pack(p_other)["query"] == "nothing of it"
    for gone in (p_scoped, p_global):
        with pytest.raises(NotFoundError):
            store.get_pack(gone)
    # a client that follows the stream, from its snapshot or from the log's start, ends
    # where a fresh snapshot starts; no record holds the erased texts
    _, fresh = live.snapshot(store, "s")
    assert fresh["last_pack"]["id"] == p_keep
    assert live.apply(before, live.changes_since(store, "s", head)) == fresh
    empty = {"scope": "s", "sessions": {}, "items": {}, "facts": {}, "last_pack": None}
    assert live.apply(empty, live.changes_since(store, "s", 0, limit=10_000)) == fresh
    assert "about the erased" not in json.dumps(
        [c.patch for c in live.changes_since(store, "s", 0, limit=10_000)])


def test_erase_scope_takes_only_that_scope(store) -> None:
    s1, _ = _session(store, "gone", ["same text"])
    t1, _ = _session(store, "kept", ["same text"])
    _item(store, "gone", s1, "turn", "same text")
    kt = _item(store, "kept", t1, "turn", "same text")
    _entity(store, "gone", s1, "Lisbon", "x", 1000.0)
    _entity(store, "kept", t1, "Lisbon", "y", 1000.0)

    counts = store.erase_scope("gone")

    assert counts["sessions"] == 1 and counts["messages"] == 1 and counts["entities"] == 1
    assert store.list_sessions("gone") == [] and store.scope_entities("gone") == []
    assert store.get_item(kt).text == "same text"
    assert [e.context for e in store.scope_entities("kept")] == ["y"]
    assert store.get_session(t1).message_count == 1
    assert store.erase_scope("gone") == dict.fromkeys(ERASE_KINDS, 0)
