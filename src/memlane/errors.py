"""The exceptions memlane raises.

    MemlaneError
    ├── ConfigError            a config key, file or environment variable is invalid
    ├── ValidationError        bad input from a caller (names the field / line)
    │   ├── ImportFormatError  a line of an import file is malformed (names line and field)
    │   └── ConflictError      the input clashes with what is stored (e.g. a message id)
    ├── NotFoundError          an id that does not exist
    ├── ResetRequired          a change-log position is no longer retained: re-snapshot
    ├── StoreError             the database failed (driver errors are translated to this)
    │   └── MigrationError     a migration is missing, edited or failed
    └── BackendError           a model backend failed
        ├── EmbeddingError     an embedder could not load or answer
        └── BackendUnavailable a backend's package or weights are not installed

Every message says what was wrong and what to pass instead.
"""

from __future__ import annotations

__all__ = [
    "BackendError",
    "BackendUnavailable",
    "ConfigError",
    "ConflictError",
    "EmbeddingError",
    "ImportFormatError",
    "MemlaneError",
    "MigrationError",
    "NotFoundError",
    "ResetRequired",
    "StoreError",
    "ValidationError",
]


class MemlaneError(Exception):
    """Base class of every error memlane raises on purpose."""


class ConfigError(MemlaneError):
    """A configuration value is invalid; the message names the key."""


class ValidationError(MemlaneError, ValueError):
    """Caller input is invalid; ``field`` names the offending parameter."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class ImportFormatError(ValidationError):
    """A line of an import file is invalid; ``line`` is 1-based."""

    def __init__(self, message: str, *, line: int, field: str | None = None) -> None:
        super().__init__(f"line {line}: {message}", field=field)
        self.line = line


class ConflictError(ValidationError):
    """The input clashes with something already stored (the HTTP service answers 409)."""


class NotFoundError(MemlaneError, LookupError):
    """The requested object does not exist."""


class ResetRequired(MemlaneError):
    """A reader asked for changes after a position the change log no longer holds (pruned,
    or from another database): it must take a fresh snapshot. Never a silent gap."""

    def __init__(self, message: str, *, after: int, floor: int, head: int) -> None:
        super().__init__(message)
        self.after = after
        self.floor = floor
        self.head = head


class StoreError(MemlaneError):
    """The database failed; the driver's exception is chained as ``__cause__``."""

    full: bool = False
    """A connection was refused because the server had none left (PostgreSQL's
    ``max_connections``, or a role's or database's connection limit)."""
    rolled_back: bool = False
    """Raised inside a transaction, which did not commit (set by the PostgreSQL store as it
    leaves the transaction): if the connection was lost, the server rolled it back."""
    lost: bool = False
    """Raised by a helper thread whose connection was lost as it worked for the call (set
    by the PostgreSQL store in that thread, which alone can see it)."""
    safe_again: bool | None = None
    """For a connection lost mid-call that was not run again (``serve.again``): whether
    calling again can do nothing twice; None when not judged."""
    busy: bool = False
    """A write asked not to wait (``atomic(wait=False)``) that would have waited for another
    writer: SQLite's write lock held by another process or thread, a PostgreSQL lock held by
    another transaction. Nothing was written; the same write may succeed later."""
    read_only: bool = False
    """A write to a database this process may not write (a read-only SQLite file, folder
    or mount, ``?mode=ro``; a PostgreSQL standby or read-only transaction): trying again
    changes nothing (the service answers 403, not 503; session 36)."""


class MigrationError(StoreError):
    """Schema migrations could not be applied or were edited after release."""


class BackendError(MemlaneError):
    """A model backend (embedder, LLM) failed."""


class EmbeddingError(BackendError):
    """An embedder could not produce vectors. ``unavailable`` is True when its endpoint
    could not answer at all (refused, 429 or 5xx after the retries): not the texts' fault."""

    unavailable: bool = False


class BackendUnavailable(BackendError):
    """A backend needs a package or model files that are not installed."""
