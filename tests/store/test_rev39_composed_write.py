"""A write sent as a ``psycopg.sql.Composed`` statement (``sql.SQL(…).format(…)``) on a
role granted SELECT only (session 39, rev39): ``_denied_write`` read the statement's
``repr``, whose parts are all quoted, stripped them as literals and found no write, so the
refusal kept PostgreSQL's words ("permission denied") and was not ``StoreError.read_only``
(the service's 503 to retry for ever, not its 403). It now reads the statement as the
connection renders it (``as_string``). A denied read sent so is still not a write, even
with a write's word in a literal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.pg_roles import reading_role

from memlane.errors import StoreError
from memlane.store import open_store
from memlane.store.postgres.db import READ_ONLY_TEXT
from memlane.testing import memory

psycopg = pytest.importorskip("psycopg")
from psycopg import sql  # noqa: E402


@pytest.fixture
def reader(pg_url: str) -> Iterator[tuple[str, str]]:
    """``(owner's url, SELECT-only role's url)`` of a database holding one message."""
    with memory(pg_url) as mem:
        mem.add_message("s", "user", "I moved to Lisbon in March")
    with reading_role(pg_url, "composed") as url:
        yield pg_url, url


def _messages(url: str) -> int:
    with memory(url) as mem:
        return int(mem.stats()["messages"])


@pytest.mark.parametrize("statement", [
    sql.SQL("UPDATE {} SET role = {}").format(sql.Identifier("messages"), sql.Literal("x")),
    sql.SQL("INSERT INTO {} VALUES ({}, {})").format(sql.Identifier("meta"),
                                                     sql.Literal("k"), sql.Literal("v")),
    sql.Composed([sql.SQL("DELETE FROM "), sql.Identifier("messages")]),
])
def test_a_composed_write_refused_is_read_only(reader: tuple[str, str],
                                               statement: sql.Composable) -> None:
    owner, url = reader
    store = open_store(url)
    try:
        with pytest.raises(StoreError) as caught:
            store.db.execute(statement)  # type: ignore[attr-defined]
    finally:
        store.close()
    assert caught.value.read_only
    assert str(caught.value) == READ_ONLY_TEXT
    assert _messages(owner) == 1  # nothing changed


def test_a_composed_read_refused_keeps_the_driver_words(reader: tuple[str, str]) -> None:
    _, url = reader
    store = open_store(url)
    try:
        with pytest.raises(StoreError) as caught:  # pg_authid: no role but a superuser reads it
            store.db.execute(  # type: ignore[attr-defined]
                sql.SQL("SELECT {} FROM {}").format(sql.Literal("INSERT"),
                                                    sql.Identifier("pg_authid")))
    finally:
        store.close()
    assert not caught.value.read_only
    assert "permission denied" in str(caught.value)
