"""Full-text words fold alike on SQLite and PostgreSQL (session 21; migration 0014).

SQLite's FTS5 (``unicode61 remove_diacritics 2``) removes the diacritics of Latin letters
however they were typed and splits words at invisible format characters; PostgreSQL's
english parser did neither, so "cafe" found "café" on SQLite only, a word typed with a
combining accent (NFD) did not find it stored precomposed on PostgreSQL, and "zero" did not
find "zero<U+200B>width" there. A Greek, Arabic or kana word typed decomposed found nothing
on SQLite. Now the same words find the same items on both stores.
"""

from __future__ import annotations

import itertools
import unicodedata

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.store import Filters, open_store
from tests.store.test_pg_fts_text import _apply_until

pytest.importorskip("psycopg")

_scopes = itertools.count(1)


@pytest.fixture(scope="module")
def both(postgres_server_url, tmp_path_factory):
    from memlane.testing.postgres import create_database, drop_database

    url = create_database(postgres_server_url, "test_fts_fold", replace=True)
    stores = (open_store(tmp_path_factory.mktemp("fold") / "fold.db"), open_store(url))
    yield stores
    for s in stores:
        s.close()
    drop_database(postgres_server_url, "test_fts_fold")


def _found(store, scope: str, texts: list[str], word: str) -> list[int]:
    """Positions of ``texts`` (stored as items of ``scope``) that ``word`` finds."""
    with store.atomic():
        ids = store.insert_items([{"kind": "note", "text": t, "at": 1000.0 + i, "scope": scope}
                                  for i, t in enumerate(texts)])
    got = {i for i, _ in store.lexical_search([word], Filters(scope=scope), 50)}
    return [n for n, i in enumerate(ids) if i in got]


CASES = [  # (stored text, query word, found on both)
    ("Crème brûlée at the café in Zürich", "cafe", True),
    ("Crème brûlée at the café in Zürich", "zurich", True),
    ("Crème brûlée at the café in Zürich", "cafe\u0301", True),     # typed decomposed
    ("cafe\u0301 with a combining accent", "café", True),            # stored decomposed
    ("Việt Nam and Ångström and piña", "viet", True),
    ("Việt Nam and Ångström and piña", "angstrom", True),
    ("Việt Nam and Ångström and piña", "pina", True),
    ("İstanbul trip", "istanbul", True),
    ("zero\u200bwidth join\u200dtest soft\u00adhyphen bidi\u202ekeep", "width", True),
    ("zero\u200bwidth join\u200dtest soft\u00adhyphen bidi\u202ekeep", "test", True),
    ("zero\u200bwidth join\u200dtest soft\u00adhyphen bidi\u202ekeep", "hyphen", True),
    ("zero\u200bwidth join\u200dtest soft\u00adhyphen bidi\u202ekeep", "keep", True),
    ("Ελληνικά γράμματα ΣΊΣΥΦΟΣ", "σίσυφος", True),                  # final sigma
    ("Ελληνικά γράμματα", unicodedata.normalize("NFD", "ελληνικά"), True),
    ("東京で猫を飼っています", unicodedata.normalize("NFD", "東京で猫を飼っています"), True),
    ("أنا أعيش في القاهرة", unicodedata.normalize("NFD", "أعيش"), True),
    ("Ελληνικά γράμματα", "ελληνικα", False),   # FTS5 keeps non-Latin diacritics: so does 0014
    ("Øresund bridge", "oresund", False),       # no decomposition: FTS5 keeps it whole too
]


@pytest.mark.parametrize(("text", "word", "found"), CASES)
def test_the_same_word_finds_the_same_text(both, text, word, found):
    scope = f"case{next(_scopes)}"
    assert [_found(s, scope, [text], word) for s in both] == [[0] if found else []] * 2


LATIN = "aceinouyzAEIOUCNZ"
MARKS = "\u0300\u0301\u0302\u0303\u0308\u030a\u0327\u030c"
FORMAT = "\u200b\u200c\u200d\u200e\u00ad\u2060\ufeff"
letters = st.one_of(st.sampled_from(LATIN), st.tuples(st.sampled_from(LATIN), st.sampled_from(MARKS))
                    .map("".join))
words = st.lists(letters, min_size=3, max_size=7).map("".join)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(words, st.sampled_from(["", *FORMAT]), words), min_size=1, max_size=4),
       st.sampled_from(["NFC", "NFD", "plain"]), st.data())
def test_latin_words_with_diacritics_and_format_characters_match_alike(both, docs, form, data):
    """Text of Latin words with any diacritics, composed or not, joined by an invisible
    character or a space; the query is one of its words, composed, decomposed or without
    its diacritics: the same items are found on both stores."""
    texts = [f"{a}{sep or ' '}{b} end" for a, sep, b in docs]
    a, _, b = data.draw(st.sampled_from(docs))
    word = data.draw(st.sampled_from([a, b]))
    if form == "plain":
        word = "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
    else:
        word = unicodedata.normalize(form, word)
    scope = f"prop{next(_scopes)}"
    lite, pg = (_found(s, scope, texts, word) for s in both)
    assert lite == pg
    assert lite  # the word is in the text it was drawn from


def test_items_stored_before_0014_are_found_after_it(pg_url):
    _apply_until(pg_url, "0013_summary_deferrals")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for i, t in enumerate(["the café in Zürich", "plain ascii words", "zero\u200bwidth"]):
            conn.execute("INSERT INTO items (kind, text, keys, at, scope, created_at, updated_at)"
                         " VALUES ('note', %s, '', %s, 'old', 0, 0)", (t, float(i)))
        changes = conn.execute("SELECT count(*) FROM changes").fetchone()[0]
    s = open_store(pg_url)  # migrates
    try:
        assert "0014_fts_fold" in [n for n, _ in s.db.applied()]
        assert [i for i, _ in s.lexical_search(["cafe"], Filters(scope="old"), 5)] == [1]
        assert [i for i, _ in s.lexical_search(["zero"], Filters(scope="old"), 5)] == [3]
        # writing the rows again is not a change of the live stream
        assert s.db.execute("SELECT count(*) FROM changes").fetchone()[0] == changes
    finally:
        s.close()
