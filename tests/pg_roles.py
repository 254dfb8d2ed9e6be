"""A PostgreSQL role of the tests' server that may read and not write, for the tests of
read-only roles (fix37's SELECT-only role, pglive38's live read)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


def as_role(url: str, role: str) -> str:
    """``url`` with the user ``role`` (no password: the test server trusts loopback)."""
    head, _, rest = url.partition("://")
    return f"{head}://{role}@{rest.split('@', 1)[1] if '@' in rest else rest}"


@contextmanager
def reading_role(pg_url: str, prefix: str, *, read_only_transactions: bool = False
                 ) -> Iterator[str]:
    """The URL of a new role on ``pg_url``'s database, dropped at the end: granted SELECT on
    its tables, no more; or (``read_only_transactions``) granted every write, its
    transactions read-only (``default_transaction_read_only``, as on a standby)."""
    import psycopg  # (the tests that use it skip without it)

    role = f"{prefix}_{pg_url.rsplit('/', 1)[1].split('?', 1)[0]}"[:60]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN')
        if read_only_transactions:
            conn.execute(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{role}"')
            conn.execute(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "{role}"')
            conn.execute(f'ALTER ROLE "{role}" SET default_transaction_read_only = on')
        else:
            conn.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"')
    try:
        yield as_role(pg_url, role)
    finally:
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(f'DROP OWNED BY "{role}"')
            conn.execute(f'DROP ROLE "{role}"')
