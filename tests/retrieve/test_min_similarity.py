"""A floor under the vector lists (``retrieval.min_similarity``, session 31).

Every item is some cosine from a query, so the vector list found every item of a scope:
in a scope of a few items, a query about nothing in it filled its k with unrelated ones
("I also like tea" for "locker code", ``why: meaning cosine 0.000 (#1)``). The rule, as a
property: a hit shares a word with the query (after the lexical index's normalisation) or
is nearer to it than the floor; a query that does neither with any item gets no hit, and a
query sharing a word with an item gets that item (with the context the search adds to a
hit: its session's other turns, its opener). On SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ConfigError
from memlane.retrieve.search import QUESTION_WORDS
from memlane.retrieve.text import STOPWORDS
from memlane.store.filters import Filters
from memlane.testing import TURNS_ALONE, memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)
_scopes = itertools.count()


def _words(letters: str) -> st.SearchStrategy[str]:
    """Lower-case words of ``letters`` only: two such sets share no word, no stem and no
    character trigram (the test embedder's features). Without e, d, i, l, n, g, s or y no
    word is another's stem with an ending ("abab", "ababed")."""
    return st.text(letters, min_size=4, max_size=8).filter(
        lambda w: w not in STOPWORDS and w not in QUESTION_WORDS)


STORED = st.lists(st.lists(_words("abcfhjkmo"), min_size=2, max_size=5).map(" ".join),
                  min_size=1, max_size=6, unique=True)
ASKED = st.lists(_words("pqrtuvwxz"), min_size=1, max_size=3).map(" ".join)


def _fill(mem, texts: list[str]) -> str:
    scope = f"s{next(_scopes)}"
    for i, text in enumerate(texts):
        mem.add_message(scope, "user", text, at=NOW - timedelta(days=1, minutes=-i))
    mem.close_session(scope)
    mem.index(now=NOW)
    return scope


def _nearest(mem, query: str, scope: str) -> float:
    """The highest cosine of ``query`` to a stored vector of ``scope``'s items (its turns
    and what the index made of them: a summary)."""
    ids = mem.store.filter_ids(Filters(scope=scope, privacy=("private", "project", "public")))
    vecs = mem.store.item_vectors(mem.embeddings.model, ids).values()
    q = mem.embeddings.for_query(query)
    return max((float(v @ q) for v in vecs), default=-1.0)


@pytest.fixture(scope="module")
def mems(tmp_path_factory, postgres_server_url):
    from memlane.testing.postgres import create_database, drop_database

    name = "min_similarity_property"
    url = create_database(postgres_server_url, name, replace=True)
    both = {"sqlite": memory(tmp_path_factory.mktemp("floor") / "m.db", indexing=TURNS_ALONE),
            "postgres": memory(url, indexing=TURNS_ALONE)}
    yield both
    for m in both.values():
        m.close()
    drop_database(postgres_server_url, name)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=STORED, query=ASKED, data=st.data())
def test_a_hit_shares_a_word_or_is_near(mems, backend: str, texts: list[str], query: str,
                                        data: st.DataObject) -> None:
    mem = mems[backend]
    floor = mem.config.retrieval.min_similarity
    scope = _fill(mem, texts)
    assume(_nearest(mem, query, scope) <= floor)  # far from every item
    hits = mem.search(query, scope=scope, k=20, now=NOW)
    assert hits == [], [(h.item.text, h.scores) for h in hits]
    # one of the stored words in the query: that item is a hit
    i = data.draw(st.integers(0, len(texts) - 1))
    word = data.draw(st.sampled_from(texts[i].split()))
    asked = f"{query} {word}"
    found = [h.item.text for h in mem.search(asked, scope=scope, k=20, now=NOW)]
    assert texts[i] in found, (word, found)


def test_the_floor_off_keeps_every_vector_hit(tmp_path) -> None:
    """``-1`` is the old behaviour: a query near nothing still gets the scope's items."""
    texts = ["I also like tea", "The weather in Oslo was grey"]
    with memory(tmp_path / "m.db", indexing=TURNS_ALONE, retrieval={"min_similarity": -1}) as mem:
        scope = _fill(mem, texts)
        assert {h.item.text for h in mem.search("quantum homework", scope=scope, now=NOW)} == set(texts)


@pytest.mark.parametrize("value", [-1.5, 1.01, "high", float("nan")])
def test_a_bad_floor_names_its_key(value: object) -> None:
    with pytest.raises(ConfigError, match="memory.retrieval.min_similarity"):
        load_config(environ={}, overrides={"retrieval": {"min_similarity": value}})
