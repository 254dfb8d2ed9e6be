"""Where the meaning tier's backfill walks stand, in the store's ``meta`` table.

Session 34 keeps, per model and scope, where the backfill's walk stands
(``memlane.retrieve.meaning``): a row keyed ``WALK_PREFIX`` + the scope's tag (its name
hashed; ``*`` for every scope) + the model, its value JSON whose ``after`` is the last
session the walk passed (``[started_at, id]``, ``list_sessions``' key). The key's shape is
here, in the store, because an erase must find a scope's rows (``EraseMixin``, session 35:
``forget_scope`` left the erased scope's row, and a walk of every scope the start of an
erased session).
"""

from __future__ import annotations

import hashlib

__all__ = ["LEASE_PREFIX", "WALK_PREFIX", "scope_tag", "walk_key"]

WALK_PREFIX = "meaning_backfill walk "
LEASE_PREFIX = "meaning_backfill lease "
"""The ``meta`` key of the backfill's lease of a model is this and the model: a round holds
its row's lock from taking the lease to its commit, and an erase takes every such row's
lock before it reads the walk rows (session 36: a walk's first place, inserted by a round
while an erase ran, had no row for the erase to find)."""


def scope_tag(scope: str | None) -> str:
    """The scope's part of a walk's key: its name hashed (``*`` for every scope)."""
    return "*" if scope is None else hashlib.sha256(scope.encode()).hexdigest()[:32]


def walk_key(model: str, scope: str | None) -> str:
    """The ``meta`` key of the walk of ``scope`` (None: every scope) for ``model``."""
    return f"{WALK_PREFIX}{scope_tag(scope)} {model}"
