"""Storage backends behind one contract.

``open_store(url)`` picks the backend from the URL: a file path or ``sqlite:///path`` opens
the embedded SQLite store. Backend-specific SQL never leaves ``store/<backend>/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memlane.errors import ConfigError
from memlane.store.filters import Filters

__all__ = ["Filters", "open_store"]


def open_store(url: str | Path, **options: Any) -> Any:
    """Open (and migrate) the store named by ``url``."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            f"db: PostgreSQL URLs are not supported by this release ({text.split('@')[-1]!r}); "
            "pass a SQLite file path"
        )
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        raise ConfigError(f"db: unknown database URL scheme in {text!r}; pass a file path")
    from memlane.store.sqlite.store import SqliteStore

    return SqliteStore(text, **options)
