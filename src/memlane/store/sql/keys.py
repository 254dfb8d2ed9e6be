"""API keys of the HTTP service (only their SHA-256 hashes): SQL both backends share."""

from __future__ import annotations

import json
from typing import Any

from memlane.errors import NotFoundError
from memlane.store.sql.base import SqlStore

__all__ = ["KeysMixin"]

_COLS = "id, name, prefix, scopes, read_only, created_at, revoked_at, last_used"


def _key(row: Any) -> dict[str, Any]:
    return {"id": row[0], "name": row[1], "prefix": row[2], "scopes": json.loads(row[3]),
            "read_only": bool(row[4]), "created_at": row[5], "revoked_at": row[6],
            "last_used": row[7]}


class KeysMixin(SqlStore):
    """Create, find, revoke and touch API keys."""

    def add_api_key(self, name: str, key_hash: str, prefix: str, scopes: list[str],
                    read_only: bool, at: float) -> int:
        """Store a new key's hash; returns its id."""
        row = self._run(
            "INSERT INTO api_keys (name, key_hash, prefix, scopes, read_only, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (name, key_hash, prefix, json.dumps(scopes), bool(read_only), at),
        ).fetchone()
        return int(row[0])

    def api_keys(self) -> list[dict[str, Any]]:
        """Every key ever created (revoked ones too), oldest first; never the hash."""
        return [_key(r) for r in self._run(f"SELECT {_COLS} FROM api_keys ORDER BY id")]

    def api_key_by_hash(self, key_hash: str) -> dict[str, Any] | None:
        """The unrevoked key with this hash, if any."""
        row = self._run(
            f"SELECT {_COLS} FROM api_keys WHERE key_hash = %s AND revoked_at IS NULL", (key_hash,)
        ).fetchone()
        return _key(row) if row else None

    def has_api_keys(self) -> bool:
        """Whether any key was ever created (a revoked key still counts: no open fallback)."""
        return self._run("SELECT 1 FROM api_keys LIMIT 1").fetchone() is not None

    def revoke_api_key(self, key_id: int, at: float) -> bool:
        """Revoke a key; False if it was already revoked, NotFoundError if it never existed."""
        cur = self._run(
            "UPDATE api_keys SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL", (at, key_id)
        )
        if cur.rowcount == 1:
            return True
        if self._run("SELECT 1 FROM api_keys WHERE id = %s", (key_id,)).fetchone() is None:
            raise NotFoundError(f"API key {key_id} does not exist; see memlane keys list")
        return False

    def touch_api_key(self, key_id: int, at: float) -> None:
        """Record when a key was last used."""
        self._run("UPDATE api_keys SET last_used = %s WHERE id = %s", (at, key_id))
