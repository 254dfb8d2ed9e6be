"""``memlane_fts_text`` of migration 0010: the text of 0001's ``translate``, byte for byte,
for text of ASCII characters (migration 0014 folds other text as SQLite does:
tests/store/test_fts_fold.py).

The full-text column ``items.tsv`` is generated from it, so a database indexed before 0010
keeps its stored vectors and gets the same ones for new rows; the phrase counts of the
lexical search (``search._counts``) call it too.
"""

from __future__ import annotations

import time

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.store import Filters, open_store
from memlane.store.migrations import load_migrations


PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
# 0001's definition, as a function of the test's own: what every stored ``tsv`` was computed with
OLD_FN = ("CREATE FUNCTION old_fts_text(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT"
          " RETURN translate(t, '!\"#$%&''()*+,-./:;<=>?@[\\]^_`{|}~', '                                ')")
OLD = "old_fts_text({})"
OLD_TSV = ("setweight(to_tsvector('english'::regconfig, {t}), 'A')"
           " || setweight(to_tsvector('english'::regconfig, {k}), 'B')")
TEXTS = [
    PUNCT, PUNCT[::-1] + " a\\b", "feat/billing-pg v1.2.3 (x) [y] {z} a_b c~d e|f g`h 'q' \"r\"",
    "héllo—wörld «x» 日本語/テスト, naïve café; ñ ü ø – … ¡! 🙂", "", " ", "~~~", "a\tb\nc\r",
    "it's (a) 'quoted' & | ! <-> test", "cat AND dog: NOT a problem", "1.5e-3 50% $20 #3 @me",
]


def _apply_until(url: str, last: str) -> None:
    """Apply the migrations up to ``last`` the way ``Database.migrate`` does."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_migrations (name text PRIMARY KEY, sha256 text NOT NULL,"
                     " applied_at double precision NOT NULL)")
        for m in load_migrations("memlane.store.postgres"):
            if m.name > last:
                break
            with conn.transaction():
                conn.execute(m.sql)
                conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, %s)",
                             (m.name, m.sha256, time.time()))


def _old_fn(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(OLD_FN)  # no parameters: psycopg leaves the % signs alone


def test_the_function_gives_translates_text_for_tricky_inputs(pg_url):
    _old_fn(pg_url)
    s = open_store(pg_url)
    try:
        for t in filter(str.isascii, TEXTS):
            new, old = s.db.execute(f"SELECT memlane_fts_text(%s), {OLD.format('%s')}", (t, t)).fetchone()
            assert new == old, t
        assert s.db.execute("SELECT memlane_fts_text(%s)", (PUNCT + "x",)).fetchone()[0] == " " * 32 + "x"
        assert s.db.execute("SELECT memlane_fts_text(NULL)").fetchone()[0] is None
    finally:
        s.close()


@pytest.fixture(scope="module")
def fts_store(postgres_server_url):
    from memlane.testing.postgres import create_database, drop_database

    url = create_database(postgres_server_url, "test_fts_text_property", replace=True)
    _old_fn(url)
    s = open_store(url)
    yield s
    s.close()
    drop_database(postgres_server_url, "test_fts_text_property")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet=st.characters(max_codepoint=127, blacklist_characters="\x00"),
                        max_size=80), min_size=1, max_size=20))
def test_any_ascii_text_gives_translates_text(fts_store, texts):
    differ = fts_store.db.execute(
        f"SELECT t FROM unnest(%s::text[]) AS u(t) WHERE memlane_fts_text(t) IS DISTINCT FROM {OLD.format('t')}",
        (texts,),
    ).fetchall()
    assert differ == []


def test_a_database_indexed_before_0010_keeps_its_rows_and_search(pg_url):
    _apply_until(pg_url, "0009_add_messages")
    _old_fn(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for i, t in enumerate(TEXTS):
            conn.execute("INSERT INTO items (kind, text, keys, at, scope, created_at, updated_at)"
                         " VALUES ('note', %s, %s, %s, 'old', 0, 0)", (t, f"k{i}/billing-pg", float(i)))
        before = conn.execute("SELECT id, tsv::text FROM items ORDER BY id").fetchall()
    s = open_store(pg_url)  # migrates
    try:
        assert "0010_fts_text" in [n for n, _ in s.db.applied()]
        # rows of ASCII text and keys keep their stored vectors (0014 writes the others again)
        ascii_ids = [i + 1 for i, t in enumerate(TEXTS) if t.isascii()]
        assert s.db.execute("SELECT id, tsv::text FROM items WHERE id = ANY(%s) ORDER BY id",
                            (ascii_ids,)).fetchall() == [r for r in before if r[0] in ascii_ids]
        # the stored vectors are what the new function computes for the same rows
        same = s.db.execute(
            f"SELECT bool_and(tsv = {OLD_TSV.format(t='memlane_fts_text(text)', k='memlane_fts_text(keys)')})"
            " FROM items").fetchone()[0]
        assert same is True
        with s.atomic():
            ids = s.insert_items([{"kind": "note", "text": t, "keys": "feat/billing-pg", "at": 1.0,
                                   "scope": "new"} for t in TEXTS])
        fresh = s.db.execute(
            f"SELECT bool_and(tsv = {OLD_TSV.format(t=OLD.format('text'), k=OLD.format('keys'))})"
            " FROM items WHERE id = ANY(%s) AND octet_length(text) = length(text)", (ids,)).fetchone()[0]
        assert fresh is True
        hits = {i for i, _ in s.lexical_search(["billing"], Filters(scope="old"), 50)}
        assert hits == {r[0] for r in before}
    finally:
        s.close()
