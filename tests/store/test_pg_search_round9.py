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
