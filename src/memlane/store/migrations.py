"""Named ``.sql`` migrations shipped in a backend's ``migrations/`` folder, hash-checked."""

from __future__ import annotations

import hashlib
from importlib import resources

__all__ = ["Migration", "load_migrations"]


class Migration:
    """One named ``.sql`` migration with the hash of its content."""

    def __init__(self, name: str, sql: str) -> None:
        self.name = name
        self.sql = sql
        self.sha256 = hashlib.sha256(sql.encode()).hexdigest()


def load_migrations(package: str) -> list[Migration]:
    """The migrations of ``package`` (e.g. ``memlane.store.sqlite``), in name order."""
    folder = resources.files(package) / "migrations"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return [Migration(f.name.removesuffix(".sql"), f.read_text(encoding="utf-8")) for f in files]
