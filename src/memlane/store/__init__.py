"""Storage backends behind one contract (``memlane.store.contract``).

``open_store(url)`` picks the backend from the URL: a file path or ``sqlite:///path`` opens
the embedded SQLite store, ``postgresql://…`` the PostgreSQL + pgvector one. Both pass
the same contract suite (tests/store/test_contract.py) and the type checker proves both
are a ``Store``. Backend-specific SQL never leaves ``store/<backend>/``.

``parse_db_url`` is the one place that reads a database URL: everything that needs to
know which backend a URL names asks it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from memlane.errors import ConfigError
from memlane.store.contract import Store
from memlane.store.filters import Filters

if TYPE_CHECKING:
    from memlane.store.postgres.store import PostgresStore
    from memlane.store.sqlite.store import SqliteStore

__all__ = ["DatabaseUrl", "Filters", "Store", "open_store", "parse_db_url", "store_class"]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_SQLITE_SCHEME = "sqlite:///"


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A database URL read once: its ``backend`` and the ``location`` its store opens
    (the SQLite file path, or the whole PostgreSQL URL)."""

    backend: Literal["sqlite", "postgres"]
    location: str
    read_only: bool = False
    """``sqlite:///path?mode=ro``: open the file read-only (session 22)."""

    @property
    def is_postgres(self) -> bool:
        return self.backend == "postgres"


def parse_db_url(url: str | Path) -> DatabaseUrl:
    """Classify ``url``: ``postgresql://`` (or ``postgres://``) is PostgreSQL, a file path
    or ``sqlite:///path`` SQLite (``sqlite:///path?mode=ro`` read-only); any other ``scheme://`` is a ``ConfigError``."""
    text = str(url)
    if text.startswith(_POSTGRES_SCHEMES):
        _check_postgres_url(text)
        return DatabaseUrl("postgres", text)
    if text.startswith(_SQLITE_SCHEME):
        path = text[len(_SQLITE_SCHEME):]
        if path.endswith("?mode=ro"):  # SQLite's own URI parameter: read, never write
            return DatabaseUrl("sqlite", _sqlite_location(path.removesuffix("?mode=ro")), True)
        query = _QUERY.search(path)
        if query:
            raise ConfigError(
                f"db: {text!r} asks for {query.group()!r}; "
                f"the one query memlane reads is ?mode=ro ({_SQLITE_SCHEME}"
                f"{path[:query.start()]}?mode=ro opens the file read-only)")
        return DatabaseUrl("sqlite", _sqlite_location(path))
    if "://" in text:
        raise ConfigError(f"db: unknown database URL scheme in {text!r}; pass a file path")
    query = _QUERY.search(text)
    if query:  # "memlane.db?mode=ro" made a file of that name and wrote to it (session 24)
        raise ConfigError(
            f"db: {text!r} is a file path followed by a "
            f"URL query ({query.group()!r}), which only a URL has: write "
            f"{_SQLITE_SCHEME}{text[:query.start()]}?mode=ro to open the file read-only")
    return DatabaseUrl("sqlite", _sqlite_location(text))


_QUERY = re.compile(r"\?[A-Za-z_][\w.-]*=[^/\\]*$")
"""A URL query at the end of a database location (``?mode=ro``, ``?cache=shared&x=1``): a
file name may hold a ``?`` (``what?.db``), not one followed by ``name=value``."""


def _check_postgres_url(url: str) -> None:
    """Refuse what libpq would read otherwise than it reads: an ``@`` of a password left
    unencoded makes libpq take the password's tail for the host, and quote it in its error
    (the URL shown, password masked, would name another host)."""
    from memlane.store.urls import public_url

    authority = url.partition("://")[2]
    for ch in "/?#":
        authority = authority.split(ch, 1)[0]
    if authority.count("@") > 1:
        raise ConfigError(
            f"db: {public_url(url)}: the user name or password holds an '@'; write it as "
            "%40 (and ':' as %3A, '/' as %2F) in a URL"
        )


def _sqlite_location(text: str) -> str:
    """A SQLite file name memlane will keep writing to. An empty name (``--db ""``,
    ``MEMLANE_DB=``, ``sqlite:///``) would open SQLite's private temporary database, whose
    every write is gone when the process ends."""
    if not text.strip():
        raise ConfigError(f"db: {text!r} names no database file; pass a path (or :memory: for "
                          "a database that lasts as long as the process)")
    if "\x00" in text:
        raise ConfigError("db: a file name cannot hold a NUL character")
    # "~/memlane.db" from a config file or a client's JSON (no shell to expand it) is the
    # home folder's file, as the CLI's existence check reads it
    if not text.startswith("~"):
        return text
    home = os.path.expanduser(text)
    if home.startswith("~"):  # pathlib raised a bare RuntimeError on it later (session 29)
        user = text[1:].split("/", 1)[0]
        raise ConfigError(f"db: {text!r}: there is no home folder of {'~' + user!r} on this "
                          f"machine; pass a full path (./{text} for a file of that name)")
    return home


def store_class(url: DatabaseUrl) -> type[SqliteStore] | type[PostgresStore]:
    """The store class of a parsed URL (importing PostgreSQL support only when named)."""
    if url.is_postgres:
        try:
            from memlane.store.postgres.store import PostgresStore
        except ImportError as e:
            raise ConfigError(
                f"db: PostgreSQL needs extra packages ({e}); pip install 'memlane[postgres]'"
            ) from e
        return PostgresStore
    from memlane.store.sqlite.store import SqliteStore

    return SqliteStore


def open_store(url: str | Path, **options: Any) -> Store:
    """Open (and migrate) the store named by ``url`` (see ``parse_db_url``)."""
    parsed = parse_db_url(url)
    if parsed.read_only:
        options["read_only"] = True
    store: Store = store_class(parsed)(parsed.location, **options)
    return store


if TYPE_CHECKING:
    def _both_backends_are_stores(s: SqliteStore, p: PostgresStore) -> tuple[Store, Store]:
        """Never called: the type checker (``make lint``) proves both classes are a ``Store``."""
        return s, p
