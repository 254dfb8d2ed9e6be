"""Import of conversation files: JSON Lines, one message per line.

``{"scope": ..., "role": ..., "text": ..., "at": ISO-8601, "id"?: ..., "speaker"?: ...,
"agent"?: ..., "project"?: ...}``. A bad line stops the import with an error naming the
line and field; lines before it stay stored. With ``strict`` every line is checked before
anything is written, so a bad file changes nothing. Lines whose ``id`` is already stored
in their scope are skipped, so re-importing a file is safe.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from memlane.config import IngestConfig
from memlane.errors import ImportFormatError, ValidationError
from memlane.ingest.sessionize import Incoming, prepare, store_message
from memlane.types import ImportReport
from memlane.store.contract import Store

__all__ = ["import_jsonl", "parse_lines"]

_FIELDS = {"scope", "role", "text", "at", "id", "speaker", "agent", "project"}
BATCH = 1000


def parse_lines(
    lines: Iterable[str], cfg: IngestConfig, *, default_scope: str | None = None
) -> Iterator[tuple[int, Incoming]]:
    """Yield ``(line_number, message)``; raise ImportFormatError at the first bad line."""
    now = datetime.now(UTC)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ImportFormatError(f"not valid JSON ({e.msg} at column {e.colno})", line=number) from None
        if not isinstance(obj, dict):
            raise ImportFormatError("expected a JSON object", line=number)
        unknown = sorted(set(obj) - _FIELDS)
        if unknown:
            raise ImportFormatError(
                f"unknown field(s) {unknown}; allowed: {sorted(_FIELDS)}", line=number, field=unknown[0]
            )
        if "at" not in obj:
            raise ImportFormatError("at: missing (an ISO-8601 time is required)", line=number, field="at")
        scope = obj.get("scope", default_scope)
        try:
            msg = prepare(
                cfg, scope, obj.get("role"), obj.get("text"), obj["at"],
                speaker=obj.get("speaker"), ext_id=obj.get("id"), agent=obj.get("agent"),
                project=obj.get("project"), now=now,
            )
        except ValidationError as e:
            raise ImportFormatError(str(e), line=number, field=e.field) from None
        yield number, msg


def import_jsonl(
    store: Store,
    cfg: IngestConfig,
    source: str | Path | IO[str],
    *,
    strict: bool = False,
    default_scope: str | None = None,
) -> ImportReport:
    """Import a JSONL file into the store. See the module docstring for the rules."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.is_file():
            raise ValidationError(f"file: {path} does not exist or is not a file", field="file")
        with path.open(encoding="utf-8", errors="strict") as fh:
            return _import(store, cfg, fh, strict, default_scope)
    return _import(store, cfg, source, strict, default_scope)


def _import(store: Store, cfg: IngestConfig, fh: IO[str], strict: bool, default_scope: str | None) -> ImportReport:
    lines = 0
    imported = 0
    dupes = 0
    pending: list[Incoming] = []

    def flush() -> None:
        nonlocal imported, dupes
        with store.atomic():
            for m in pending:
                if m.ext_id is not None and store.message_by_ext_id(m.scope, m.ext_id) is not None:
                    dupes += 1
                    continue
                store_message(store, cfg, m)
                imported += 1
        pending.clear()

    try:
        parsed: Iterable[tuple[int, Incoming]] = parse_lines(_decode(fh), cfg, default_scope=default_scope)
        if strict:
            parsed = list(parsed)  # every line is checked before the first write
        for number, msg in parsed:
            lines = number
            pending.append(msg)
            if len(pending) >= BATCH:
                flush()
    except ImportFormatError as e:
        if pending and not strict:
            flush()
        return ImportReport(lines=e.line, imported=imported, skipped_duplicates=dupes,
                            errors=((e.line, str(e)),))
    if pending:
        flush()
    return ImportReport(lines=lines, imported=imported, skipped_duplicates=dupes)


def _decode(fh: IO[str]) -> Iterator[str]:
    number = 0
    try:
        for number, line in enumerate(fh, start=1):
            yield line
    except UnicodeDecodeError as e:
        raise ImportFormatError(f"not valid UTF-8 ({e.reason})", line=number + 1) from None
