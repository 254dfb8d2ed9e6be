"""Scopes an old database spells otherwise than memlane spells them now (session 22).

Since session 22 a scope is stored in one spelling (``validate.canonical_scope``: Unicode
NFC, no zero-width, bidi or other format characters). A database written before may hold
a scope in another spelling: "café" typed on a Mac (NFD, "e" and a combining accent), or
"team\\u200b" pasted from a chat. Such a scope must stay reachable: every call that names
a scope asks ``stored_scope``, which answers the spelling the database holds when the
scope is stored only in an old spelling, else the scope as given. So "café" typed either
way reaches the old rows, and new messages of the scope join its open session.

The table is read once per store (one pass over each scope index) and dropped when a scope
is erased; a table read before an erase and built after it is not kept (a count of erases
per store). New rows are always written in the one spelling, so the table can only shrink;
a scope stored in both spellings (the bug this rule ends) is read in the new one, and its
old spelling's rows are logged once as apart (``memlane export`` has them, in the new
spelling); an erase of the scope erases every spelling (``spellings_of``).
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any

from memlane.ingest.validate import canonical_scope, check_scope

__all__ = ["forget_spellings", "is_old_spelling", "old_spellings", "resolve_scope", "spellings_of",
           "stored_scope", "writable_scope"]

log = logging.getLogger("memlane.ingest")

_tables: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
# how many times each store's table was dropped: a table built from a read taken before a
# drop is stale and is not kept (an erase's ``forget_spellings`` between another thread's
# ``stored_scopes()`` and its install was overwritten by the older table; session 22)
_generations: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _table(store: Any) -> dict[str, str]:
    for _ in range(3):  # an erase during the read: read again (erases are rare)
        with _lock:
            table = _tables.get(store)
            generation = _generations.get(store, 0)
        if table is not None:
            return table
        table = _build(store.stored_scopes())
        with _lock:
            if _generations.get(store, 0) == generation:  # no erase since the read
                _tables[store] = table
                return table
    return table  # erased three times meanwhile: this call's read, not kept


def _build(stored: list[str]) -> dict[str, str]:
    plain = set(stored)
    table: dict[str, str] = {}
    for s in stored:
        if s.isascii() and s == s.strip():
            continue
        c = canonical_scope(s)
        if c == s or not c:
            continue
        if c in plain:
            log.warning("scope %r is stored in two spellings: the rows spelt %r (written before "
                        "scopes were normalized) are apart from it; export them with "
                        "'memlane export'", c, s)
        elif c in table:
            log.warning("scope %r is stored in two old spellings, %r and %r; %r is read",
                        c, table[c], s, table[c])
        else:
            table[c] = s
    return table


def stored_scope(store: Any, scope: str) -> str:
    """``scope`` (already checked: in the one spelling) as ``store`` holds it."""
    table = _table(store)
    return table.get(scope, scope) if table else scope


def writable_scope(store: Any, scope: str) -> str:
    """Inside a write's transaction: the spelling to write ``scope`` in, where ``scope`` is
    what ``stored_scope`` answered before the transaction. A scope in the one spelling is
    written as it is. An old spelling is written only while the store still holds it,
    read under the scope's writers lock (``open_session_for`` takes it, held to commit):
    an erase that committed between the look-up and the write (``forget_scope`` racing
    ``add_message``) took its last rows, and the write put the old spelling back, a new
    session of ``team\u200b`` (session 23). Then the table is dropped and the one spelling
    written, under its own lock."""
    if scope.isascii() and scope == scope.strip():
        return scope
    canonical = canonical_scope(scope)
    if canonical == scope:
        return scope
    store.open_session_for(scope)
    if scope in store.stored_scopes():
        return scope
    forget_spellings(store)
    store.open_session_for(canonical)
    return canonical


def forget_spellings(store: Any) -> None:
    """Read the table again at the next call (a scope was erased); a table being built
    from a read taken before this call is not kept."""
    with _lock:
        _tables.pop(store, None)
        _generations[store] = _generations.get(store, 0) + 1


def is_old_spelling(store: Any, scope: Any) -> bool:
    """Whether ``scope`` is an old spelling ``store`` holds, one ``stored_scope`` answers: a
    validated method given it by another that looked it up (``Memory.pack`` calling
    ``search``) takes it as it is; checked again, ``team\u200b`` was refused (session 34).
    A caller's own ``team\u200b`` is still checked, and refused (``params.validated``)."""
    if not isinstance(scope, str) or (scope.isascii() and scope == scope.strip()):
        return False  # the common case: no old spelling is plain trimmed ASCII
    table = _table(store)
    return bool(table) and scope in table.values()


def resolve_scope(store: Any, scope: Any, field: str = "scope") -> str:
    """``scope`` checked (``check_scope``) and spelt as ``store`` holds it; an old spelling
    ``stored_scope`` already answered passes as it is (a method re-checking its argument)."""
    if is_old_spelling(store, scope):
        return scope
    return stored_scope(store, check_scope(scope, field))


def old_spellings(store: Any) -> dict[str, str]:
    """Each scope ``store`` holds only in an old spelling: ``{new spelling: stored one}``."""
    return dict(_table(store))


def spellings_of(store: Any, scope: str) -> list[str]:
    """Every spelling of ``scope`` that ``store`` holds, ``scope`` first: an erase of a
    scope stored in both spellings (NFC and NFD, ``team`` and ``team\\u200b``) erased the
    new one only, and no call could name the other (session 22 review). Reads the store's
    scopes afresh (an erase is rare; the table may be older than the last write)."""
    key = canonical_scope(scope)
    return [scope, *(s for s in store.stored_scopes() if s != scope and canonical_scope(s) == key)]
