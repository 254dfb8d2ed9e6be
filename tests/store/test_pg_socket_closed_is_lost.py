"""A statement whose connection's socket was closed under it is a lost connection.

Found by a clean-clone CI (session 55): in ``tests/serve/http/test_pg_lost_each_statement.py``'s
index case, the server ended the connection at one statement of a run and the next statement
failed with psycopg's "connection socket closed" while libpq had not yet marked the
connection broken. ``lost`` said no, so the index run counted the failure as the session's
own attempt (five of them fail a session for good) instead of giving the session back. Here
the socket is closed inside a transaction, deterministically."""

from __future__ import annotations

import os

import pytest

psycopg = pytest.importorskip("psycopg")

from memlane.errors import StoreError  # noqa: E402
from memlane.store import open_store  # noqa: E402


def test_a_statement_whose_socket_was_closed_under_it_is_a_lost_connection(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        store.db.execute("SELECT 1")
        with pytest.raises(StoreError) as failed:
            with store.atomic():
                store.db.execute("SELECT 1")
                os.close(store.db.conn.pgconn.socket)
                store.db.execute("SELECT 2")
        assert str(failed.value.__cause__) == "connection socket closed", failed.value
        assert store.lost_connection(failed.value)
        store.reset_connection()
        assert store.db.execute("SELECT 3").fetchone()[0] == 3  # the next call connects again
    finally:
        store.close()


def test_an_error_of_the_statement_is_not_a_lost_connection(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        with pytest.raises(StoreError) as failed:
            store.db.execute("SELECT 1/0")
        assert not store.lost_connection(failed.value)
        assert store.db.execute("SELECT 4").fetchone()[0] == 4
    finally:
        store.close()
