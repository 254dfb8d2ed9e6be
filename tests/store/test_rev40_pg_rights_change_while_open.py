"""A PostgreSQL role's write rights changed while a store is open on it (session 40, rev40).

Session 22's ``PostgresStore.read_only`` was asked once per store: a role whose write
grants were revoked while it was open went on being taken for a writer (a search's and a
pack's own writes, the fact's access and the pack's journal, were sent and refused, and
the read failed with them); a role granted them while open went on being taken for a
reader (no pack journaled, the index worker idle) until the process started again.

Now a write refused as read-only makes ``read_only`` true at once, and the answer is asked
again once it is older than ``PostgresStore.READ_ONLY_SECONDS``; a read whose own write is
refused as read-only answers, that write skipped as on a read-only database. The grant and
revoke stand for a role's rights changed by its administrator (and for a standby promoted:
the same judgment)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from tests.pg_roles import reading_role

from memlane.errors import StoreError
from memlane.store.postgres.db import READ_ONLY_TEXT
from memlane.store.postgres.store import PostgresStore
from memlane.testing import memory

psycopg = pytest.importorskip("psycopg")

SCOPE = "s"
_WRITES = "INSERT, UPDATE, DELETE"


@pytest.fixture
def role(pg_url: str) -> Iterator[tuple[str, str, str]]:
    """``(owner's url, the role's url, the role)``: a role granted SELECT only, a fact in."""
    with memory(pg_url) as owner:
        owner.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
    with reading_role(pg_url, "rights") as url:
        yield pg_url, url, url.split("://", 1)[1].split("@", 1)[0]


def _as_owner(owner: str, *statements: str) -> None:
    with psycopg.connect(owner, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _grant_writes(owner: str, role: str) -> None:
    _as_owner(owner, f'GRANT {_WRITES} ON ALL TABLES IN SCHEMA public TO "{role}"',
              f'GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA public TO "{role}"')


def _packs(owner: str) -> int:
    with psycopg.connect(owner) as conn:
        return int(conn.execute("SELECT count(*) FROM packs").fetchone()[0])


def test_rights_revoked_while_open(role: tuple[str, str, str]) -> None:
    owner, url, name = role
    _grant_writes(owner, name)
    with memory(url) as mem:
        assert mem.store.read_only is False
        assert mem.pack("Lisbon", scope=SCOPE).id is not None  # journaled
        _as_owner(owner, f'REVOKE {_WRITES} ON ALL TABLES IN SCHEMA public FROM "{name}"')
        packs = _packs(owner)
        # within the judgment's age: the reads answer, their own writes skipped
        assert "Lisbon" in mem.pack("Lisbon", scope=SCOPE).text
        assert [h.item.text for h in mem.search("Lisbon", scope=SCOPE)]
        assert mem.store.read_only is True  # (its journal refused as read-only)
        assert mem.pack("Lisbon", scope=SCOPE).id is None and _packs(owner) == packs
        with pytest.raises(StoreError) as refused:
            mem.add_message(SCOPE, "user", "I moved to Porto")
        assert refused.value.read_only and str(refused.value) == READ_ONLY_TEXT


def test_a_write_refused_is_seen_at_once(role: tuple[str, str, str]) -> None:
    owner, url, name = role
    _grant_writes(owner, name)
    with memory(url) as mem:
        assert mem.store.read_only is False
        _as_owner(owner, f'REVOKE {_WRITES} ON ALL TABLES IN SCHEMA public FROM "{name}"')
        with pytest.raises(StoreError) as refused:
            mem.add_message(SCOPE, "user", "I moved to Porto")
        assert refused.value.read_only and str(refused.value) == READ_ONLY_TEXT
        assert mem.store.read_only is True  # without waiting for the judgment's age


def test_rights_given_while_open(role: tuple[str, str, str]) -> None:
    owner, url, name = role
    with memory(url) as mem:
        assert mem.store.read_only is True
        assert mem.pack("Lisbon", scope=SCOPE).id is None
        _grant_writes(owner, name)
        deadline = time.monotonic() + PostgresStore.READ_ONLY_SECONDS + 5
        while mem.store.read_only and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mem.store.read_only is False
        assert mem.pack("Lisbon", scope=SCOPE).id is not None  # journaled again
        added = mem.add_message(SCOPE, "user", "I moved to Porto")
        assert [m.text for m in mem.messages(added.session_id)] == ["I moved to Porto"]


def test_an_ask_the_server_does_not_answer_keeps_the_last_answer(
        role: tuple[str, str, str]) -> None:
    """Asked again, the judgment is a statement that may fail (an outage: here the role's
    connection ended and a new one refused): ``read_only`` is a property read by the index
    worker's poll and each request's key check, so it answers what it last knew, and asks
    again at the next read, not a second later (before session 40 it was never asked
    again, so a read of it never raised once answered)."""
    owner, url, name = role
    _grant_writes(owner, name)
    with memory(url) as mem:
        assert mem.store.read_only is False
        time.sleep(PostgresStore.READ_ONLY_SECONDS)
        _as_owner(owner, f'ALTER ROLE "{name}" NOLOGIN',
                  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                  f" WHERE usename = '{name}'")
        try:
            assert mem.store.read_only is False  # the ask failed: the last answer
        finally:
            _as_owner(owner, f'ALTER ROLE "{name}" LOGIN')
        _as_owner(owner, f'REVOKE {_WRITES} ON ALL TABLES IN SCHEMA public FROM "{name}"')
        assert mem.store.read_only is True  # asked again at once, on a new connection
