"""PostgreSQL search, seventh round: the same answers from cheaper statements.

- BM25's term frequencies come from ``ts_rank_cd`` of each query lexeme (the sum of its
  positions' weights: text 1.0, keys 0.6), not from unnesting every candidate's tsvector;
- the HNSW walk returns no vectors: ``item_vectors`` within ``reading()`` reads the ones
  asked for by key, once a search;
- ``sessions_items`` within a newest-first ``reading()`` brings each turn's superseded flag,
  so ``superseded_messages`` answers without a statement.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np
import pytest

pytest.importorskip("psycopg")

from memlane.store import Filters, open_store
from memlane.store.postgres import search as pg_search
from memlane.testing import add_sessions, memory


def _insert(store, rows: list[tuple[str, str]]) -> list[int]:
    with store.atomic():
        sid = store.create_session("s", 1000.0, None, None)
        return store.insert_items([
            {"kind": "turn", "at": 1000.0 + i, "scope": "s", "session_id": sid, "seq": i + 1,
             "text": text, "keys": keys}
            for i, (text, keys) in enumerate(rows)
        ])


def test_term_frequencies_add_text_and_key_positions_of_each_query_lexeme(pg_url):
    store = open_store(pg_url)
    ids = _insert(store, [
        ("black cat cat", "cat"),       # cat: two text positions and a key (2.6); black 1.0
        ("cat black dog", ""),         # not the phrase: cat 1.0, black 1.0
        ("dog", "black cat"),          # the phrase among the keys: 0.6 each
        ("eel", ""), ("eel", ""), ("eel", ""), ("eel", ""), ("eel", ""),
    ])
    got = dict(store.lexical_search(["black cat", "cat"], Filters(), 10))
    n = ids[-1]  # the highest id
    idf = lambda df: math.log((n - df + 0.5) / (df + 0.5))  # noqa: E731
    phrase, cat = idf(2), idf(3)  # "black cat" in items 0 and 2, "cat" in 0, 1 and 2
    lengths = {ids[0]: 2, ids[1]: 3, ids[2]: 3} | {i: 1 for i in ids[3:]}
    avgdl = sum(lengths.values()) / len(lengths)
    tf = {ids[0]: {"black": 1.0, "cat": 2.6}, ids[1]: {"black": 1.0, "cat": 1.0},
          ids[2]: {"black": 0.6, "cat": 0.6}}
    # the phrase's lexemes with its idf, then "cat" again with its own: cat counts twice

    def bm25(i: int) -> float:
        norm = 1.2 * (0.25 + 0.75 * lengths[i] / avgdl)
        return sum(w * tf[i][lex] * 2.2 / (tf[i][lex] + norm)
                   for lex, w in (("black", phrase), ("cat", phrase), ("cat", cat)))

    want = {i: bm25(i) for i in tf}
    assert set(got) == set(want)
    for i, s in want.items():
        assert got[i] == pytest.approx(s, rel=1e-12)
    assert [i for i, _ in store.lexical_search(["black cat", "cat"], Filters(), 10)] == sorted(want, key=lambda i: -want[i])
    store.close()


def test_a_lexeme_with_a_quote_is_counted(pg_url):
    """Each lexeme travels as its quoted tsquery text, as the server printed it."""
    store = open_store(pg_url)
    ids = _insert(store, [("o'clock o'clock", ""), ("noon", ""), ("eel", "")])
    got = dict(store.lexical_search(["o'clock"], Filters(), 10))
    assert list(got) == [ids[0]] and got[ids[0]] > 0
    store.close()


def test_the_graph_walk_brings_no_vectors_and_item_vectors_reads_each_once(pg_url, monkeypatch, sent_statements):
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 10)
    s = open_store(pg_url)
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(40, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    with s.atomic():
        sid = s.create_session("s", 1.0, None, None)
        ids = s.insert_items([{"kind": "turn", "text": f"t{i}", "at": float(i), "scope": "s",
                               "session_id": sid} for i in range(41)])
        s.put_vectors("m", list(zip(ids[:40], vecs, strict=True)))  # the last item has none
    assert s.ensure_vector_index("m", 8)
    want = s.item_vectors("m", ids)
    assert len(want) == 40
    with s.reading(), sent_statements(s) as sent:
        ranked = s.vector_search("m", vecs[0], Filters(), 5)
        walk = [q for q, _ in sent if "WITH r AS MATERIALIZED" in q]  # the walk (a Composed)
        assert len(walk) == 1 and "v.vec" not in walk[0].replace("v.vec::vector", ""), walk
        first = s.item_vectors("m", [ranked[0][0], ranked[1][0], ids[40]])
        again = s.item_vectors("m", [ranked[1][0], ids[40], ranked[0][0]])
        reads = [q for q, _ in sent if q.startswith("SELECT item_id, vec FROM vectors")]
    assert ranked[0][0] == ids[0]
    assert len(reads) == 1  # asked for once, then remembered (the vector-less item too)
    for got in (first, again):
        assert list(got) == sorted(got) and set(got) == {ranked[0][0], ranked[1][0]}
        assert all(np.array_equal(got[i], want[i]) for i in got)
    got = s.item_vectors("m", [ranked[0][0]])  # outside the block: read again, the same
    assert np.array_equal(got[ranked[0][0]], want[ranked[0][0]])
    s.close()


NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    (60, [("user", "My favorite color is blue."), ("assistant", "Blue is calming."),
          ("user", "I live in Boston near the harbor."), ("assistant", "Boston harbor is lovely.")]),
    (5, [("user", "My favorite color is green now."), ("assistant", "Green is fresh."),
         ("user", "I live in Denver these days."), ("assistant", "Denver has mountains.")]),
]


@pytest.fixture
def mem(pg_url):
    m = add_sessions(memory(pg_url), SESSIONS, now=NOW)
    yield m
    m.close()


def test_stage_two_turns_bring_their_superseded_flags_when_the_search_asks(mem, sent_statements):
    s = mem.store
    items = list(s.iter_items())
    sessions = sorted({it["session_id"] for it in items if it["session_id"]})
    messages = sorted({it["message_id"] for it in items if it["kind"] == "turn" and it["message_id"]})
    want_turns = s.sessions_items(sessions, kind="turn")
    want = s.superseded_messages(messages)
    assert want and set(want) < set(messages), "a message whose facts were all superseded, and others"
    for superseded in (True, False):
        with s.reading(superseded=superseded), sent_statements(s) as sent:
            s.vector_search(mem.embeddings.model, mem.embeddings.for_query("color"), Filters(), 3)
            turns = s.sessions_items(sessions, kind="turn")
            n = len(sent)
            got = s.superseded_messages(messages)
        assert {k: [t.id for t in v] for k, v in turns.items()} == {k: [t.id for t in v] for k, v in want_turns.items()}
        assert turns == want_turns and got == want
        facts_read = ["FROM facts" in q for q, _ in sent[:n] if "vector_send" in q]
        assert facts_read == [superseded]  # the turns' statement reads the facts only if asked
        assert len(sent) == n + (0 if superseded else 1), sent[n:]


def test_items_read_ahead_are_not_read_again_and_the_rest_bring_their_facts(mem, sent_statements):
    """``lexical_and_vector_search`` reads the vector list's items while the lexical list is
    still being ranked (``_prefetch_items``); the search's ``get_items`` then reads only
    the others, with their messages' superseded flags as the first read would have."""
    s = mem.store
    items = [it for it in s.iter_items() if it["kind"] == "turn"]
    ids = [it["id"] for it in items]
    messages = sorted({it["message_id"] for it in items if it["message_id"]})
    want_items, want_superseded = s.get_items(ids), s.superseded_messages(messages)
    assert want_superseded
    with s.reading(superseded=True), sent_statements(s) as sent:
        s._prefetch_items(ids[:3])
        got = s.get_items(ids)
        superseded = s.superseded_messages(messages)
    assert got == want_items and list(got) == ids and superseded == want_superseded
    assert len(sent) == 2 and all("FROM facts" in q for q, _ in sent)
    assert sent[0][1][0] == "{%s}" % ",".join(map(str, ids[:3]))
    assert sent[1][1][0] == "{%s}" % ",".join(map(str, ids[3:]))
    s._prefetch_items(ids)  # outside reading(): nothing to remember, nothing read
