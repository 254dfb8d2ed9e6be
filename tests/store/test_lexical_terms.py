"""Which query terms lexical search ranks by, and how PostgreSQL scores them.

Both backends share one rule (``memlane.store.sql.lexical``): rarest first while the
matches stay within ``LEXICAL_POSTINGS``; only common terms: the rarest, unless it is in
most items. The tests lower the cap to 3 so a dozen items exercise it.
"""

from __future__ import annotations

import math

import pytest

import memlane.store.postgres.search as postgres_search
import memlane.store.sqlite.search as sqlite_search
from memlane.store import Filters, open_store
from memlane.store.sql.lexical import rarest_within


def _insert(store, texts: list[str], keys: list[str] | None = None) -> list[int]:
    with store.atomic():
        sid = store.create_session("s", 1000.0, None, None)
        return store.insert_items([
            {"kind": "turn", "at": 1000.0 + i, "scope": "s", "session_id": sid, "seq": i + 1,
             "text": t, "keys": (keys or [""] * len(texts))[i]}
            for i, t in enumerate(texts)
        ])


def test_rarest_within_takes_rarest_first_up_to_the_cap():
    assert rarest_within([(4, "a"), (1, "b"), (2, "c")], 3) == ["b", "c"]
    assert rarest_within([(4, "a"), (1, "b"), (3, "c")], 3) == ["b"]  # 1 + 3 > 3
    assert rarest_within([(2, "a"), (2, "b"), (2, "c")], 5) == ["a", "b"]  # first of equals
    assert rarest_within([(0, "a b"), (9, "c")], 3) == ["a b"]  # a count of 0 is rare
    assert rarest_within([(5, "a"), (4, "b")], 3) is None  # every term common
    assert rarest_within([], 3) is None


@pytest.fixture
def few_postings(monkeypatch):
    monkeypatch.setattr(sqlite_search, "LEXICAL_POSTINGS", 3)
    monkeypatch.setattr(postgres_search, "LEXICAL_POSTINGS", 3)


def test_both_backends_prune_common_terms_alike(store, few_postings):
    texts = (["apple plum"] * 4 + ["apple pear"] * 4 + ["apple fig", "pear kiwi"]
             + ["lime"] * 2)  # 12 items: apple in 9, pear in 5, kiwi in 1
    ids = _insert(store, texts)
    hits = lambda terms: {i for i, _ in store.lexical_search(terms, Filters(), 20)}  # noqa: E731
    # kiwi (1 item) then pear (5) would pass the cap of 3: only the rarest is kept
    assert hits(["apple", "pear", "kiwi"]) == {ids[9]}
    assert hits(["lime"]) == {ids[10], ids[11]}
    # every term is above the cap: the rarest
    assert hits(["apple", "pear"]) == {*ids[4:8], ids[9]}
    assert hits(["apple", "plums"]) == set(ids[:4])  # counted as stemmed: "plum"
    # a term in most items cannot rank: nothing
    assert hits(["apple"]) == set()
    # a phrase counts as rare
    assert hits(["pear kiwi", "apple"]) == {ids[9]}


def test_postgres_scores_are_bm25_over_text_and_keys(pg_url):
    store = open_store(pg_url)
    texts = ["cat cat dog", "cat bird fish", "dog", "bird", "fish", "cow", "eel", "eel", "eel", "eel"]
    keys = ["", "", "", "", "", "cat", "", "", "", ""]
    ids = _insert(store, texts, keys)
    got = dict(store.lexical_search(["cat"], Filters(), 10))
    # df 3 of 10 items; length is the distinct lexemes of text and keys; a key position 0.6
    n, df = ids[-1], 3
    idf = math.log((n - df + 0.5) / (df + 0.5))
    lengths = {i: 1 for i in ids} | {ids[0]: 2, ids[1]: 3, ids[5]: 2}
    avgdl = sum(lengths.values()) / len(lengths)
    tf = {ids[0]: 2.0, ids[1]: 1.0, ids[5]: 0.6}
    want = {i: idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * lengths[i] / avgdl)) for i, f in tf.items()}
    assert set(got) == set(want)
    for i, s in want.items():
        assert got[i] == pytest.approx(s, rel=1e-9)
    assert [i for i, _ in store.lexical_search(["cat"], Filters(), 10)] == sorted(want, key=lambda i: -want[i])
    store.close()


def test_a_query_of_common_terms_ranks_the_newest_matches_of_the_rarest(store, few_postings, monkeypatch):
    monkeypatch.setattr(sqlite_search, "COMMON_MATCHES", 2)
    monkeypatch.setattr(postgres_search, "COMMON_MATCHES", 2)
    texts = ["apple pear pear"] * 4 + ["apple plum"] * 4 + ["apple", "pear", "lime", "lime"]
    ids = _insert(store, texts)  # pear in 5 items, plum in 4: both above the cap of 3
    got = [i for i, _ in store.lexical_search(["apple", "pear", "plum"], Filters(), 20)]
    # the rarest (plum) by its 2 newest matches, although all 4 hold it as often
    assert got == [ids[7], ids[6]] or got == [ids[6], ids[7]]
    assert {i for i, _ in store.lexical_search(["pear", "apple"], Filters(), 20)} == {ids[9], ids[3]}


def test_sqlite_index_holds_the_scope_as_one_token_kept_by_its_triggers(tmp_path, few_postings):
    store = open_store(tmp_path / "t.db")
    with store.atomic():
        sids = {sc: store.create_session(sc, 1000.0, None, None) for sc in ("team a", "team-a", "é 🙂")}
        ids = {sc: store.insert_items([
            {"kind": "turn", "at": 1000.0 + i, "scope": sc, "session_id": sid, "seq": i + 1,
             "text": "apple pear" if i % 2 == 0 else "apple kiwi"} for i in range(4)])
        for sc, sid in sids.items()}
    # pear in 6 of 12 items, above the cap of 3: the scope is intersected inside FTS5
    for sc in sids:
        got = {i for i, _ in store.lexical_search(["pear"], Filters(scope=sc), 20)}
        assert got == {ids[sc][0], ids[sc][2]}
    with store.atomic():
        store.db.execute("UPDATE items SET scope = 'team a' WHERE id = ?", (ids["team-a"][0],))
        store.delete_item(ids["é 🙂"][2])
    assert {i for i, _ in store.lexical_search(["pear"], Filters(scope="team a"), 20)} == {
        ids["team a"][0], ids["team a"][2], ids["team-a"][0]}
    assert {i for i, _ in store.lexical_search(["pear"], Filters(scope="team-a"), 20)} == {ids["team-a"][2]}
    assert {i for i, _ in store.lexical_search(["pear"], Filters(scope="é 🙂"), 20)} == {ids["é 🙂"][0]}
    # the triggers wrote what a rebuild from the items reads
    store.db.execute("INSERT INTO items_fts (items_fts, rank) VALUES ('integrity-check', 1)")
    tokens = {r[0] for r in store.db.execute("SELECT term FROM items_fts_vocab")}
    assert sqlite_search.scope_token("team a") in tokens and "team" not in tokens
    store.close()
