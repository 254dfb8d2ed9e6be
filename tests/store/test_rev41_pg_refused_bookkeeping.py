"""What session 40's rights judgment (rev40) left on PostgreSQL (session 41, rev41).

- A meaning-preset search on a role whose write grants were revoked while the store was
  open, within the judgment's age (``PostgresStore.READ_ONLY_SECONDS``): the vectors the
  tier computed were written to the cache, the write was refused as read-only and the search
  failed with it, where a fact's access and a pack's journal are skipped
  (``Memory._unless_refused``). Now the vectors are used, not cached, and the search answers.
- ``put_vectors``' binary ``COPY`` (a batch of ``COPY_FROM`` vectors or more) refused for want
  of INSERT on ``vectors``: the error was the driver's ("query failed: permission denied for
  table vectors"), not ``StoreError.read_only``, and ``Database.refusals`` did not count it
  (the statement was judged with no text, and outside ``_noting_refusals``), so
  ``read_only`` stayed false. Now it is refused as every other write is.

The grants and revokes stand for a role's rights changed by its administrator."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest
from tests.pg_roles import reading_role

from memlane.errors import StoreError
from memlane.store.postgres.db import READ_ONLY_TEXT
from memlane.store.postgres.vectors import COPY_FROM
from memlane.testing import add_sessions, memory

psycopg = pytest.importorskip("psycopg")

SCOPE = "s"
NOW = datetime(2024, 6, 1, tzinfo=UTC)
_WRITES = "INSERT, UPDATE, DELETE"


@pytest.fixture
def role(pg_url: str) -> Iterator[tuple[str, str, str]]:
    """``(owner's url, the role's url, the role)``: three indexed sessions, and a role
    granted SELECT only."""
    with memory(pg_url) as owner:
        add_sessions(owner, [
            (3, [("user", "I adopted a greyhound called Pixel last spring."),
                 ("assistant", "Lovely, greyhounds are gentle.")]),
            (2, [("user", "My sister plays the cello in an orchestra."), ("assistant", "Wonderful.")]),
            (1, [("user", "We painted the kitchen a pale green."), ("assistant", "Nice.")]),
        ], now=NOW, scope=SCOPE)
    with reading_role(pg_url, "rights41") as url:
        yield pg_url, url, url.split("://", 1)[1].split("@", 1)[0]


def _as_owner(owner: str, *statements: str) -> None:
    with psycopg.connect(owner, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def _count(owner: str, table: str) -> int:
    with psycopg.connect(owner) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_a_meaning_search_after_the_rights_are_revoked_answers_without_caching(
        role: tuple[str, str, str]) -> None:
    pytest.importorskip("onnxruntime", reason="the meaning preset's transformer (memlane[meaning])")
    owner, url, name = role
    _as_owner(owner, f'GRANT {_WRITES} ON ALL TABLES IN SCHEMA public TO "{name}"',
              f'GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA public TO "{name}"')
    with memory(url) as mem:
        mem.store.READ_ONLY_SECONDS = 600.0  # the search runs within the judgment's age
        assert mem.store.read_only is False
        _as_owner(owner, f'REVOKE {_WRITES} ON ALL TABLES IN SCHEMA public FROM "{name}"')
        cached = _count(owner, "embed_cache")
        hits = mem.search("what kind of dog did I adopt", scope=SCOPE, preset="meaning", now=NOW)
        assert any("greyhound" in h.item.text for h in hits), [h.item.text for h in hits]
        assert _count(owner, "embed_cache") == cached
        assert mem.store.read_only is True  # (the cache's write refused as read-only)


def test_a_vectors_copy_refused_is_read_only_and_counted(role: tuple[str, str, str]) -> None:
    owner, url, name = role
    _as_owner(owner, f'GRANT DELETE ON vectors TO "{name}"')  # DELETE, then COPY: no INSERT
    with memory(url) as mem:
        store = mem.store
        pairs = [(i, np.full(8, i, dtype=np.float32)) for i in range(1, COPY_FROM + 1)]
        vectors = _count(owner, "vectors")
        refusals = store.db.refusals
        with pytest.raises(StoreError) as refused:
            store.put_vectors("test-model", pairs)
        assert refused.value.read_only and str(refused.value) == READ_ONLY_TEXT
        assert store.db.refusals == refusals + 1
        assert store.read_only is True
        assert _count(owner, "vectors") == vectors  # the DELETE before it rolled back
