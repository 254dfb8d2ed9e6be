"""Named ``.sql`` migrations shipped in a backend's ``migrations/`` folder, hash-checked."""

from __future__ import annotations

import hashlib
from importlib import resources

__all__ = ["Migration", "load_migrations", "schema_mismatch"]


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


def schema_mismatch(where: str, known: list[str], applied: list[str], *,
                    older: bool = True) -> str | None:
    """Why the database at ``where`` (its migrations ``applied``) is not at this memlane's
    schema (its migrations ``known``), naming both versions, or None when it is. Newer: a
    migration this memlane does not know (a newer memlane migrated it). Older (``older``):
    one it knows not applied, which a running process finds only when the database changed
    under it (restored from a backup); opening it migrates it."""
    ours = known[-1] if known else "none"
    theirs = max(applied) if applied else "none"
    unknown = [name for name in applied if name not in set(known)]
    if unknown:
        return (f"database {where} is at schema version {theirs}, newer than this memlane's "
                f"{ours} (it does not know migration {unknown[0]!r}"
                + (f" and {len(unknown) - 1} more" if len(unknown) > 1 else "")
                + "): a newer memlane migrated it; upgrade memlane. Nothing was written")
    missing = [name for name in known if name not in set(applied)]
    if older and missing:
        return (f"database {where} is at schema version {theirs}, older than this memlane's "
                f"{ours} ({len(missing)} migration(s) not applied, the first {missing[0]!r}): "
                "it changed under this process (restored from a backup?); start memlane again "
                "to migrate it. Nothing was written")
    return None
