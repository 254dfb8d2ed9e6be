"""The indexer's batch reads and claims: the same answers as one call per session."""

from __future__ import annotations


def _sessions(store, n=3):
    ids = []
    for k in range(n):
        for i in range(k + 1):
            got = store.add_message(f"s{k}", "user", f"s{k} m{i}", 1000.0 + i, gap=1e9,
                                    speaker=None, ext_id=None, agent=None, project=None,
                                    redactions=0)
        ids.append(got[1])
    return ids


def test_sessions_messages_equals_one_read_a_session(store):
    ids = _sessions(store)
    got = store.sessions_messages([ids[2], ids[0], ids[2], 10**9])
    assert list(got) == [ids[2], ids[0], 10**9] and got[10**9] == []
    for sid in ids[::2]:
        assert got[sid] == store.session_messages(sid)
    assert [m.text for m in got[ids[2]]] == ["s2 m0", "s2 m1", "s2 m2"]


def test_claiming_a_batch_wins_each_session_once(store):
    ids = _sessions(store)
    with store.atomic():
        for sid in ids:
            store.close_session(sid, "idle")
        assert store.claim_for_index(ids[1]) is True
    with store.atomic():
        assert store.claim_sessions_for_index([ids[0], ids[1], ids[2], ids[0]]) == {ids[0], ids[2]}
    with store.atomic():
        assert store.claim_sessions_for_index(ids) == set()
    assert store.claim_sessions_for_index([]) == set()
    assert store.sessions_to_index() == [] and all(store.get_session(i).indexed for i in ids)


def test_postgres_indexers_side_by_side_reserve_different_batches(pg_url):
    """Two indexers (two connections) asking for work at once get different sessions; a
    reservation ends at the holder's next reserving call or when its connection closes."""
    from memlane.store import open_store

    a, b = open_store(pg_url), open_store(pg_url)
    ids = []
    for k in range(10):
        ids.append(a.add_message(f"s{k}", "user", "hi", 1000.0, gap=1e9, speaker=None, ext_id=None,
                                 agent=None, project=None, redactions=0)[1])
    with a.atomic():
        for sid in ids:
            a.close_session(sid, "idle")
    first = [s.id for s in a.sessions_to_index(4, reserve=True)]
    second = [s.id for s in b.sessions_to_index(4, reserve=True)]
    assert first == ids[:4] and second == ids[4:8]
    assert [s.id for s in b.sessions_to_index(4)] == ids[:4]  # without reserving: all, oldest first
    with a.atomic():
        assert a.claim_sessions_for_index(first) == set(first)
    assert [s.id for s in a.sessions_to_index(4, reserve=True)] == ids[8:]  # b still holds 4..7
    b.close()  # b's reservations end with its connection
    c = open_store(pg_url)
    assert [s.id for s in c.sessions_to_index(4, reserve=True)] == ids[4:8]
    a.close()
    c.close()


def test_sessions_being_written_are_excluded(store):
    ids = _sessions(store, 5)
    with store.atomic():
        for sid in ids:
            store.close_session(sid, "idle")
    assert [s.id for s in store.sessions_to_index(2, exclude=[ids[0], ids[2]])] == [ids[1], ids[3]]
    assert [s.id for s in store.sessions_to_index(9, reserve=True, exclude=ids[1:])] == [ids[0]]
    assert store.sessions_to_index(9, exclude=ids) == []


def test_postgres_a_batch_being_written_stays_reserved_until_the_next_call(pg_url):
    """An indexer prepares batch 2 while batch 1 is written: batch 1 (``exclude``) stays
    reserved, so another indexer does not embed it again; the call after releases it, and
    a limit of 0 releases everything."""
    from memlane.store import open_store

    a, b = open_store(pg_url), open_store(pg_url)
    ids = []
    for k in range(9):
        ids.append(a.add_message(f"s{k}", "user", "hi", 1000.0, gap=1e9, speaker=None, ext_id=None,
                                 agent=None, project=None, redactions=0)[1])
    with a.atomic():
        for sid in ids:
            a.close_session(sid, "idle")
    first = [s.id for s in a.sessions_to_index(3, reserve=True)]
    second = [s.id for s in a.sessions_to_index(3, reserve=True, exclude=first)]
    assert first == ids[:3] and second == ids[3:6]
    assert b.indexers_elsewhere() is True  # b sees a's reservations
    assert [s.id for s in b.sessions_to_index(9, reserve=True)] == ids[6:]  # a holds 0..5
    b.sessions_to_index(0, reserve=True)
    # a writes batch 1 meanwhile (claimed), then asks again excluding batch 2
    with a.atomic():
        a.claim_sessions_for_index(first)
    assert a.sessions_to_index(3, reserve=True, exclude=second) == [a.get_session(i) for i in ids[6:]]
    assert [s.id for s in b.sessions_to_index(9, reserve=True)] == []  # 3..5 and 6..8 held by a
    a.sessions_to_index(0, reserve=True)  # a lets go of everything
    assert not b.indexers_elsewhere()
    assert [s.id for s in b.sessions_to_index(9, reserve=True)] == ids[3:]
    assert b.indexers_elsewhere() is False and a.indexers_elsewhere() is True
    a.close()
    b.close()
