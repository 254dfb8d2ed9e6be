"""Shared SQL's placeholder translation (psycopg format -> SQLite), checked on real SQLite."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlane.store.sql.placeholders import to_qmark

# Text that a literal, quoted name or comment may hold: the characters that matter most.
_tricky = st.text(alphabet=st.sampled_from(list("?|&%s()'\"-*/\\Ea b\n")), max_size=12)


def _literal(body: str) -> str:
    return "'" + body.replace("'", "''") + "'"


def test_placeholders_become_sqlite_ones():
    assert to_qmark("SELECT a FROM t WHERE b = %s AND c = %s") == "SELECT a FROM t WHERE b = ? AND c = ?"
    assert to_qmark("UPDATE t SET a = %(who)s WHERE id = %(id)s") == "UPDATE t SET a = :who WHERE id = :id"
    assert to_qmark("SELECT 'x' LIKE '%%' || %s") == "SELECT 'x' LIKE '%%' || ?"
    assert to_qmark("SELECT 7 %% 3, %s") == "SELECT 7 % 3, ?"


@pytest.mark.parametrize("sql", [
    "SELECT 1 WHERE keywords::jsonb ? %s",
    "SELECT 1 WHERE keywords::jsonb ?| %s",
    "SELECT 1 WHERE keywords::jsonb ?& %s",
    "SELECT ?",
])
def test_a_question_mark_in_shared_sql_is_refused(sql):
    with pytest.raises(ValueError, match=r"'\?' at offset"):
        to_qmark(sql)


@pytest.mark.parametrize("sql, message", [
    ("SELECT %d", "is not %s"),
    ("SELECT 'open", "unterminated string"),
    ('SELECT "open', "unterminated quoted name"),
    ("SELECT 1 /* open", "unterminated comment"),
    ("SELECT %s, %(a)s", "mixed"),
])
def test_malformed_shared_sql_is_refused(sql, message):
    with pytest.raises(ValueError, match=message):
        to_qmark(sql)


def test_question_marks_inside_literals_names_and_comments_are_text():
    sql = ("SELECT '?|%s', \"a?&\", E'it\\'s ?' -- is ? here %s\n"
           ", %s /* ? %s */")
    assert to_qmark(sql) == ("SELECT '?|%s', \"a?&\", E'it\\'s ?' -- is ? here %s\n"
                             ", ? /* ? %s */")


@given(st.lists(st.one_of(
    st.tuples(st.just("literal"), _tricky),
    st.tuples(st.just("param"), st.integers(-5, 5)),
    st.tuples(st.just("comment"), _tricky),
), min_size=1, max_size=8))
def test_literals_survive_and_each_param_binds(parts):
    """Shared SQL of literals, parameters and comments runs on SQLite: every literal comes
    back as written, every parameter as bound, in order, whatever ``?``, ``%`` or quote the
    literals and comments hold."""
    columns, params, expected = [], [], []
    for kind, value in parts:
        if kind == "literal":
            columns.append(_literal(value))
            expected.append(value)
        elif kind == "param":
            columns.append("%s")
            params.append(value)
            expected.append(value)
        else:  # a block comment cannot hold its own end
            body = value.replace("*/", "")
            columns.append(f"/* {body} */ NULL")
            expected.append(None)
    sql = "SELECT " + ", ".join(columns)
    row = sqlite3.connect(":memory:").execute(to_qmark(sql), params).fetchone()
    assert list(row) == expected


@given(_tricky)
def test_line_comments_end_at_the_newline(body):
    body = body.replace("\n", " ")
    sql = f"SELECT %s -- {body}\n, %s"
    assert sqlite3.connect(":memory:").execute(to_qmark(sql), (1, 2)).fetchone() == (1, 2)
