"""Storage backends behind one contract.

``open_store(url)`` picks the backend from the URL: a file path or ``sqlite:///path`` opens
the embedded SQLite store, ``postgresql://…`` the PostgreSQL + pgvector one. Both pass
the same contract suite (tests/store/test_contract.py). Backend-specific SQL never leaves
``store/<backend>/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memlane.errors import ConfigError
from memlane.store.filters import Filters

__all__ = ["Filters", "open_store"]


def open_store(url: str | Path, **options: Any) -> Any:
    """Open (and migrate) the store named by ``url``: ``postgresql://`` (or ``postgres://``)
    opens PostgreSQL, a file path or ``sqlite:///path`` SQLite."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            from memlane.store.postgres.store import PostgresStore
        except ImportError as e:
            raise ConfigError(
                f"db: PostgreSQL needs extra packages ({e}); pip install 'memlane[postgres]'"
            ) from e
        return PostgresStore(text, **options)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        raise ConfigError(f"db: unknown database URL scheme in {text!r}; pass a file path")
    from memlane.store.sqlite.store import SqliteStore

    return SqliteStore(text, **options)
