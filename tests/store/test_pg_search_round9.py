"""PostgreSQL search, ninth round: a lexical query whose kept terms' exact counts add up to no
more than the candidates it takes scores every match without ordering them by tf-idf first
(``search.RANK_ALL``): the same hits and scores, one ``ts_rank`` per term and match and a
sort fewer; a query with more matches is still ordered by tf-idf and cut."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

pytest.importorskip("psycopg")

from memlane.store import Filters
from memlane.store.postgres import search as pg_search
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
# 60 sessions of 4 turns: "harbor" in 120 turns, "lighthouse" in 15, "ferry" in 7 (each twice in items)
SESSIONS = [
    (70 - d, [("user", f"Trip {d}: we walked along the harbor at dawn."),
              ("assistant", f"The harbor is busy on day {d}." + (" The lighthouse was lit." if d % 4 == 0 else "")),
              ("user", "We took the ferry home." if d % 9 == 0 else f"Dinner number {d} was fish."),
              ("assistant", "Sounds lovely.")])
    for d in range(60)
]


@pytest.fixture(scope="module")
def mem(postgres_server_url):
    from memlane.testing.postgres import create_database, drop_database

    url = create_database(postgres_server_url, "round9_lexical")
    m = add_sessions(memory(url), SESSIONS, now=NOW)
    yield m
    m.close()
    drop_database(postgres_server_url, "round9_lexical")


def _ranking(sent):
    """The lexical ranking statements sent (the ones reading ``tsv`` lengths)."""
    return [q for q, _ in sent if q.startswith("WITH c AS")]


def _counts(mem, words):
    return {w: mem.store.db.execute(
        "SELECT count(*) FROM items WHERE tsv @@ plainto_tsquery('english', %s) AND status = 'active'",
        (w,)).fetchone()[0] for w in words}


def test_fixture_counts(mem):
    got = _counts(mem, ["harbor", "lighthouse", "ferry"])
    assert got["harbor"] > 100 and got["lighthouse"] <= 40 and got["ferry"] <= 40, got


@pytest.mark.parametrize("terms", [["lighthouse"], ["ferry", "lighthouse"], ["lit", "ferry", "zebra"]])
def test_few_matches_are_all_scored_without_the_tf_idf_order(mem, sent_statements, monkeypatch, terms):
    s = mem.store
    monkeypatch.setattr(pg_search, "RANK_ALL", False)
    with sent_statements(s) as sent_ranked:
        want = s.lexical_search(terms, Filters(), 30)
    monkeypatch.setattr(pg_search, "RANK_ALL", True)
    with sent_statements(s) as sent:
        got = s.lexical_search(terms, Filters(), 30)
    assert want and got == want  # the same ids and scores, in the same order
    assert all("ORDER BY" in q for q in _ranking(sent_ranked))
    (q,) = _ranking(sent)
    assert "ORDER BY" not in q and "ts_rank(" not in q and "ts_rank_cd(" in q


def test_small_limit_still_takes_the_best_by_tf_idf(mem, sent_statements, monkeypatch):
    # "harbor" matches more than max(4 * limit, 100) items: ordered by tf-idf and cut, as before
    monkeypatch.setattr(pg_search, "RANK_ALL", True)
    s = mem.store
    with sent_statements(s) as sent:
        got = s.lexical_search(["harbor"], Filters(), 5)
    assert len(got) == 5
    (q,) = _ranking(sent)
    assert "ORDER BY" in q and "ts_rank(" in q
    monkeypatch.setattr(pg_search, "RANK_ALL", False)
    assert s.lexical_search(["harbor"], Filters(), 5) == got


def test_a_scope_filter_keeps_its_matches_only(mem, monkeypatch):
    s = mem.store
    monkeypatch.setattr(pg_search, "RANK_ALL", True)
    got = s.lexical_search(["lighthouse"], Filters(scope="elsewhere"), 30)
    assert got == []
    everywhere = s.lexical_search(["lighthouse"], Filters(scope="chat"), 30)
    assert everywhere == s.lexical_search(["lighthouse"], Filters(), 30)


# --- a scope's exact scan, chosen by its count against the table's size ---------------------

MODEL = "m"


@pytest.fixture
def graph_store(pg_url, monkeypatch):
    """400 items in three scopes (~133 each) with 16-d vectors, the HNSW graph built, the
    items analysed (``pg_class.reltuples`` = 400)."""
    import numpy as np

    from memlane.store import open_store

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    s = open_store(pg_url)
    rng = np.random.default_rng(9)
    vecs = rng.standard_normal((400, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        ids = s.insert_items([{"kind": "fact", "text": f"t{i}", "at": 1.0 + i, "scope": "abc"[i % 3]}
                              for i in range(400)])
        s.put_vectors(MODEL, list(zip(ids, vecs, strict=True)))
    assert s.ensure_vector_index(MODEL, 16)
    s.db.execute("ANALYZE items")
    yield s, rng
    s.close()


def _exact_top(store, q, f, k):
    vecs = store.item_vectors(MODEL, store.filter_ids(f))
    return sorted(vecs, key=lambda i: (-float(vecs[i] @ q), i))[:k]


def _path(sent):
    walks = [q for q, _ in sent if "WITH r AS MATERIALIZED" in q]
    scans = [q for q, _ in sent if "ANY(ARRAY(SELECT i.id FROM items i" in q]
    return "walk" if walks and not scans else "exact" if scans and not walks else (walks, scans)


@pytest.mark.parametrize(("below", "share", "most", "path"), [
    (10, 0.5, 1000, "exact"),   # 133 <= max(10, min(1000, 0.5 * 400)) = 200
    (10, 0.2, 1000, "walk"),    # 133 > 80
    (10, 0.5, 100, "walk"),     # 133 > min(100, 200)
    (150, 0.1, 1000, "exact"),  # 133 <= 150 whatever the share
    (150, 0.1, 100, "exact"),   # EXACT_BELOW wins over EXACT_MAX
])
def test_a_scope_is_scanned_exactly_up_to_a_share_of_the_items(graph_store, sent_statements, monkeypatch,
                                                                below, share, most, path):
    s, rng = graph_store
    monkeypatch.setattr(pg_search, "EXACT_BELOW", below)
    monkeypatch.setattr(pg_search, "EXACT_SHARE", share)
    monkeypatch.setattr(pg_search, "EXACT_MAX", most)
    q = _unit(rng)
    f = Filters(scope="a")
    with sent_statements(s) as sent:
        got = s.vector_search(MODEL, q, f, 10)
    assert _path(sent) == path
    if path == "exact":
        assert [i for i, _ in got] == _exact_top(s, q, f, 10)
    assert len(got) == 10 and all(s.get_item(i).scope == "a" for i, _ in got)


def test_a_table_never_analysed_uses_the_fixed_threshold(pg_url, sent_statements, monkeypatch):
    """reltuples is -1 before the first ANALYZE: only EXACT_BELOW counts."""
    import numpy as np

    from memlane.store import open_store

    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 30)
    s = open_store(pg_url)
    try:
        rng = np.random.default_rng(4)
        with s.atomic():
            ids = s.insert_items([{"kind": "fact", "text": f"t{i}", "at": 1.0 + i, "scope": "ab"[i % 2]}
                                  for i in range(120)])
            s.put_vectors(MODEL, [(i, _unit(rng)) for i in ids])
        assert s.ensure_vector_index(MODEL, 16)
        s.db.execute("UPDATE pg_class SET reltuples = -1 WHERE oid = 'items'::regclass")
        monkeypatch.setattr(pg_search, "EXACT_SHARE", 1.0)
        for below, path in ((10, "walk"), (60, "exact")):
            monkeypatch.setattr(pg_search, "EXACT_BELOW", below)
            with sent_statements(s) as sent:
                got = s.vector_search(MODEL, _unit(rng), Filters(scope="b"), 5)
            assert _path(sent) == path and len(got) == 5
    finally:
        s.close()


def _unit(rng):
    import numpy as np

    v = rng.standard_normal(16).astype(np.float32)
    return v / np.linalg.norm(v)
