"""Validation of caller input on the hot path. Errors name the field."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memlane.errors import ValidationError
from memlane.types import ROLES

__all__ = ["MAX_SCOPE_CHARS", "check_role", "check_scope", "check_text", "parse_time"]

MAX_SCOPE_CHARS = 256


def check_scope(scope: Any, field: str = "scope") -> str:
    if not isinstance(scope, str) or not scope.strip():
        raise ValidationError(f"{field}: must be a non-empty string, got {scope!r}", field=field)
    if len(scope) > MAX_SCOPE_CHARS or "\x00" in scope:
        raise ValidationError(
            f"{field}: must be at most {MAX_SCOPE_CHARS} characters with no NUL bytes", field=field
        )
    return scope.strip()


def check_role(role: Any) -> str:
    if not isinstance(role, str) or role.strip().lower() not in ROLES:
        raise ValidationError(f"role: must be one of {', '.join(ROLES)}, got {role!r}", field="role")
    return role.strip().lower()


def check_text(text: Any, max_chars: int, field: str = "text") -> str:
    if not isinstance(text, str):
        raise ValidationError(f"{field}: must be a string, got {type(text).__name__}", field=field)
    text = text.replace("\x00", "")
    if not text.strip():
        raise ValidationError(f"{field}: must not be empty", field=field)
    if len(text) > max_chars:
        raise ValidationError(
            f"{field}: {len(text)} characters is over the limit of {max_chars} "
            "(ingest.max_message_chars)",
            field=field,
        )
    return text


def parse_time(value: Any, field: str = "at") -> datetime:
    """A timezone-aware UTC datetime from a datetime, ISO-8601 string or epoch seconds.

    Naive datetimes and strings without an offset are taken as UTC.
    """
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, bool):
        raise ValidationError(f"{field}: expected an ISO-8601 time, got {value!r}", field=field)
    elif isinstance(value, (int, float)):
        try:
            dt = datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            raise ValidationError(f"{field}: {value!r} is out of range", field=field) from None
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValidationError(
                f"{field}: {value!r} is not an ISO-8601 time (e.g. 2024-05-01T14:30:00Z)",
                field=field,
            ) from None
    else:
        raise ValidationError(f"{field}: expected an ISO-8601 time, got {value!r}", field=field)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)
