"""Whether a PostgreSQL connection numbers the change log (``numbers_changes``) is asked
again (session 39, rev39). Session 38 (pglive38) asked it once per store: a standby
promoted to primary, or a role granted UPDATE since, went on reading without numbering
until the process started again (its live reads' ``pending`` growing, as on a replica),
and a primary turned standby, or a role whose UPDATE was revoked, had every live read
refused. Now a live read that does not number asks again in its own statement and numbers
from the next one once it may; one refused as read-only while numbering reads as one that
does not number, and so do those after it. A grant stands for the promotion, as the
read-only role stands for a standby in pglive38's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.pg_roles import reading_role

from memlane.serve import live
from memlane.testing import memory

psycopg = pytest.importorskip("psycopg")

SCOPE = "s"


@pytest.fixture
def reader(pg_url: str) -> Iterator[tuple[str, str, str]]:
    """``(owner's url, reader's url, the reader's role)``: a role granted SELECT only."""
    with memory(pg_url):
        pass  # (the schema, migrated)
    with reading_role(pg_url, "again") as url:
        yield pg_url, url, url.split("://", 1)[1].split("@", 1)[0]


def _unnumbered(owner: str) -> int:
    with psycopg.connect(owner) as conn:
        return int(conn.execute("SELECT count(*) FROM changes WHERE pos IS NULL").fetchone()[0])


def _grant(owner: str, what: str) -> None:
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(what)


def test_a_connection_that_may_number_since_numbers(reader: tuple[str, str, str]) -> None:
    owner, url, role = reader
    with memory(owner) as writer, memory(url) as mem:
        writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
        assert _unnumbered(owner) > 0
        first = live.read_snapshot(mem.store, SCOPE)
        assert not mem.store.numbers_changes and first.pending
        _grant(owner, f'GRANT UPDATE ON changes, change_sequencer TO "{role}"')
        live.read_snapshot(mem.store, SCOPE)  # asks again: may number from the next read
        assert mem.store.numbers_changes
        assert _unnumbered(owner) > 0  # (no writer numbered anything)
        now = live.read_snapshot(mem.store, SCOPE)
        assert _unnumbered(owner) == 0 and now.pending == frozenset()
        assert now.head > first.head and now.state == first.state


def test_a_connection_that_may_no_longer_number_reads_on(reader: tuple[str, str, str]) -> None:
    owner, url, role = reader
    _grant(owner, f'GRANT UPDATE ON changes, change_sequencer TO "{role}"')
    with memory(owner) as writer, memory(url) as mem:
        writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
        numbered = live.read_snapshot(mem.store, SCOPE)
        assert mem.store.numbers_changes and numbered.pending == frozenset()
        _grant(owner, f'REVOKE UPDATE ON changes, change_sequencer FROM "{role}"')
        late = writer.add_fact("user", "works at", "the port", scope=SCOPE).fact_id
        snap = live.read_snapshot(mem.store, SCOPE)  # refused numbering: read as a reader
        assert not mem.store.numbers_changes
        assert snap.head == numbered.head and str(late) in snap.state["facts"] and snap.pending
        again = live.poll(mem.store, SCOPE, snap.head, pending=snap.pending)
        assert again.changes == [] and again.pending == snap.pending
        assert _unnumbered(owner) > 0
