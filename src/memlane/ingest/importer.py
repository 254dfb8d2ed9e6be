"""Import of conversation files: JSON Lines, one message per line (or one JSON list of the
same objects, what ``memlane export --json`` writes).

``{"scope": ..., "role": ..., "text": ..., "at": ISO-8601, "id"?: ..., "speaker"?: ...,
"agent"?: ..., "project"?: ..., "session"?: ..., "closed"?: ..., "session_agent"?: ...,
"session_project"?: ..., "participants"?: [...]}``; where a scope's
``session`` label changes, its open session is closed and the line starts a new one, which
the label's lines join whatever their times (``memlane export`` writes the labels, so
sessions come back as they were from export and import: closed explicitly, overlapping
another, holding a pause longer than the gap); lines without a label go by the gap rule,
and the session they are in when a label follows is closed by it as a label's is, unless
it is the conversation the scope had going, which the file did not start (an older label
is stored closed beside it, ``_start_session``); a label's ``closed`` (how the exported
session ended: ``explicit``, ``gap``, ``idle``, ``late``) closes its session so when the
label ends (the scope's next label, or the end of the file), so sessions come back closed
as they were, for the same reason (session 28); its ``session_agent``,
``session_project`` and ``participants`` (where the session's own are not its first line's
agent and project and its speakers in time order) start its session with them. A bad line
stops the import with an error naming the line, column and field; lines before it stay
stored. With ``strict`` every line is checked
before anything is written and the whole file is written in one transaction, so a bad
file changes nothing. Lines whose ``id`` is already stored in their scope are skipped, so
re-importing a file is safe; a line without an ``id`` gets a stable one from its scope,
role, time and text (``~`` and 24 hex digits), so the same holds for it.
"""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import hashlib
import io
import itertools
import json
import lzma
import signal
import threading
import zlib
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Callable

from memlane.config import IngestConfig
from memlane.errors import ImportFormatError, ValidationError
from memlane.ingest.sessionize import (Incoming, held_under_id, prepare, same_message, scrub_label,
                                       store_messages)
from memlane.ingest.spellings import stored_scope
from memlane.ingest.validate import MAX_NESTING, check_scope, json_nesting
from memlane.types import ImportReport, Message
from memlane.store.contract import Store

__all__ = ["ImportInterrupted", "import_jsonl", "parse_lines", "stable_id"]

_OWN = ("session_agent", "session_project", "participants")
"""A labelled session's own agent, project and participants order, where they are not what
its lines give (its first line's agent and project, its speakers in time order): a late
message is its session's first in time, not the first that came (session 28)."""
_FIELDS = {"scope", "role", "text", "at", "id", "speaker", "agent", "project", "session",
           "closed", *_OWN}
CLOSED_REASONS = ("explicit", "gap", "idle", "late")
"""How a session ended (``Session.closed_reason``): ``close_session``, the gap before the
next message, an idle run (``close_idle``), or the late-message rule (a message earlier
than its scope's sessions, closed at once). ``memlane export`` writes it as a line's
``closed``."""
BATCH = 1000
_REQUIRED = {"role": "one of user, assistant, system, tool", "text": "the message's text",
             "at": "an ISO-8601 time"}


class ImportInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped an import: ``report`` says what was stored, whole batches
    of ``BATCH`` lines only (with ``strict`` the file is one batch). In the main thread a
    batch being written finishes first and is counted; elsewhere its transaction rolls back.
    Still a ``KeyboardInterrupt``, so a caller that does not look for it stops as before."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__(f"import interrupted: {report.imported} message(s) stored")
        self.report = report


def stable_id(*parts: str) -> str:
    """The id memlane gives a message that came without one, made of ``parts``: ``~`` and
    24 hex digits of their SHA-256 (``content_id`` here, ``memlane export``'s ``export_id``).
    An import reads a ``~`` id as such: never one a client gave."""
    return "~" + hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:24]


def content_id(scope: str, role: str, at: datetime, text: str, occurrence: int) -> str:
    """The stable id of a line without one: the same line imported again gets the same id.

    ``occurrence`` counts earlier identical lines of the same file, so two identical
    messages at the same time both stay.
    """
    return stable_id(scope, role, at.isoformat(), text, str(occurrence))


class _TwiceGiven(ValueError):
    """A JSON object naming one field twice: which value was meant cannot be told."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _TwiceGiven(key)
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(object_pairs_hook=_object)


def _twice(e: _TwiceGiven, number: int, where: str = "") -> ImportFormatError:
    field = e.key if e.key in _FIELDS else None
    return ImportFormatError(f"{where}{e.key[:60]}: given twice in one object (which value is "
                             "meant cannot be told)", line=number, field=field)


def _load(raw: str, number: int) -> Any:
    if json_nesting(raw) > MAX_NESTING:
        raise ImportFormatError(f"JSON nested deeper than {MAX_NESTING} levels (a message is one "
                                "flat object)", line=number)
    try:
        return _DECODER.decode(raw)
    except json.JSONDecodeError as e:
        hint = ""
        if e.msg == "Extra data" and "\r" in raw.rstrip("\r\n"):
            hint = "; the file's lines end in CR alone: convert them to LF (tr '\\r' '\\n')"
        raise ImportFormatError(f"column {e.colno}: not valid JSON ({e.msg}){hint}",
                                line=number) from None
    except _TwiceGiven as e:
        raise _twice(e, number) from None
    except ValueError as e:  # valid JSON Python will not read: an integer past 4,300 digits
        raise ImportFormatError(f"not a message memlane can read ({e})", line=number) from None


def _objects(lines: Iterable[str]) -> Iterator[tuple[int, str, Any]]:
    """``(line number, where, value)`` of each message: one a line (JSON Lines), or, when the
    file's first non-blank character is ``[``, each element of that one JSON list (what
    ``memlane export --json`` writes), numbered by the line it starts on, ``where`` naming
    its place in the list."""
    numbered = enumerate(lines, start=1)
    first = True
    for number, raw in numbered:
        if not raw.strip():
            continue
        if first and raw.lstrip().startswith("["):
            yield from _elements(number, raw + "".join(rest for _, rest in numbered))
            return
        first = False
        yield number, "", _load(raw, number)


def _elements(start: int, text: str) -> Iterator[tuple[int, str, Any]]:
    """The elements of the JSON list ``text`` (starting on line ``start``), parsed one by
    one, so a bad element stops the import there as a bad line does."""
    if json_nesting(text, MAX_NESTING + 1) > MAX_NESTING + 1:
        raise ImportFormatError(f"JSON nested deeper than {MAX_NESTING} levels (a message is one "
                                "flat object)", line=start)
    decoder = _DECODER
    pos = text.index("[") + 1
    counted, line = 0, start  # the line of text[counted]

    def line_at(i: int) -> int:
        nonlocal counted, line
        line += text.count("\n", counted, i)
        counted = i
        return line

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    index = 0
    while True:
        pos = skip(pos)
        if pos >= len(text):
            raise ImportFormatError("the JSON list is cut short (no closing ])",
                                    line=line_at(len(text)))
        if text[pos] == "]":
            end = skip(pos + 1)
            if end < len(text):
                raise ImportFormatError("text after the JSON list's closing ]", line=line_at(end))
            return
        if index:
            if text[pos] != ",":
                raise ImportFormatError(f"list item {index}: expected , or ] after it",
                                        line=line_at(pos))
            pos = skip(pos + 1)
        if pos >= len(text):
            raise ImportFormatError("the JSON list is cut short (no closing ])",
                                    line=line_at(len(text)))
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise ImportFormatError(f"list item {index + 1}: column {e.colno}: not valid JSON "
                                    f"({e.msg})", line=start + e.lineno - 1) from None
        except _TwiceGiven as e:
            raise _twice(e, line_at(pos), f"list item {index + 1}: ") from None
        except ValueError as e:  # an integer past 4,300 digits
            raise ImportFormatError(f"list item {index + 1}: not a message memlane can read "
                                    f"({e})", line=line_at(pos)) from None
        index += 1
        yield line_at(pos), f"list item {index}: ", value
        pos = end


def parse_lines(
    lines: Iterable[str], cfg: IngestConfig, *, default_scope: str | None = None
) -> Iterator[tuple[int, Incoming]]:
    """Yield ``(line_number, message)``; raise ImportFormatError at the first bad line.

    The lines are JSON Lines, or one JSON list of the same objects (``memlane export
    --json``)."""
    now = datetime.now(UTC)
    seen: Counter[tuple[str, str, datetime, str]] = Counter()
    ids: dict[tuple[str, str], tuple[int, bytes]] = {}  # (scope, id): its first line, content
    for number, where, obj in _objects(lines):
        try:
            msg = _message(obj, number, cfg, default_scope, now, seen)
            _one_message_an_id(msg, number, ids)
        except ImportFormatError as e:
            if not where:
                raise
            raise ImportFormatError(where + str(e).removeprefix(f"line {number}: "),
                                    line=number, field=e.field) from None
        yield number, msg


_OLD_EXPORT = ("; an earlier memlane export could give one ~ id to two messages of a scope, "
               "in a memory holding another's import: export the source again with this "
               "memlane, or remove this line's id")
"""Said of a clashing ``~`` id (session 29: ``cli_export._free_ids``)."""


def _one_message_an_id(msg: Incoming, number: int,
                       ids: dict[tuple[str, str], tuple[int, bytes]]) -> None:
    """Refuse a line whose ``id`` an earlier line of the file gave to another message of
    the scope: one of the two would be skipped as "already stored" without a word. The
    same line twice is a duplicate, as on a second import."""
    if msg.ext_id is None or msg.made_id:
        return
    key = (msg.scope, msg.ext_id)
    content = hashlib.sha256("\x1f".join(
        [msg.role, msg.at.isoformat(), msg.text, msg.speaker or "", msg.agent or "",
         msg.project or ""]).encode("utf-8")).digest()[:16]
    first = ids.setdefault(key, (number, content))
    if first[1] != content:
        raise ImportFormatError(
            f"id: {msg.ext_id[:80]!r} is line {first[0]}'s id too, with another message "
            f"(an id names one message of its scope{_OLD_EXPORT if msg.ext_id[:1] == '~' else ''})",
            line=number, field="id")


def _message(obj: Any, number: int, cfg: IngestConfig, default_scope: str | None,
             now: datetime, seen: Counter[tuple[str, str, datetime, str]]) -> Incoming:
    """The message of one parsed line, checked."""
    if not isinstance(obj, dict):
        raise ImportFormatError("expected a JSON object", line=number)
    unknown = sorted(set(obj) - _FIELDS)
    if unknown:
        raise ImportFormatError(
            f"unknown field(s) {unknown}; allowed: {sorted(_FIELDS)}", line=number, field=unknown[0]
        )
    # null is no value: a null time would be the import's own (and the line's content
    # id with it, so a second import of the file would store it again)
    for name, what in _REQUIRED.items():
        if obj.get(name) is None:
            raise ImportFormatError(f"{name}: missing (required: {what})", line=number,
                                    field=name)
    ext_id = obj.get("id")
    for name in ("id", "session"):
        value = obj.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int))):
            raise ImportFormatError(f"{name}: must be a string or an integer, got "
                                    f"{type(value).__name__}", line=number, field=name)
    label = obj.get("session")
    scope = obj.get("scope")
    if scope is None:
        scope = default_scope
        if scope is None:
            raise ImportFormatError("scope: missing (required, unless a scope for lines "
                                    "without one is passed: --scope, scope=)", line=number,
                                    field="scope")
    try:
        msg = prepare(
            cfg, scope, obj.get("role"), obj.get("text"), obj["at"],
            speaker=obj.get("speaker"), ext_id=None if ext_id is None else str(ext_id),
            agent=obj.get("agent"), project=obj.get("project"), now=now,
        )
        if label is not None:
            msg = dataclasses.replace(msg, session=check_scope(str(label), "session"),
                                      closed=_closed(obj.get("closed"), number),
                                      owner=_owner(cfg, obj, msg))
        elif obj.get("closed") is not None:
            raise ImportFormatError("closed: only with a session label (it says how that "
                                    "session ended)", line=number, field="closed")
        elif any(name in obj for name in _OWN):
            name = next(name for name in _OWN if name in obj)
            raise ImportFormatError(f"{name}: only with a session label (it is that "
                                    "session's)", line=number, field=name)
    except ValidationError as e:
        raise ImportFormatError(str(e), line=number, field=e.field) from None
    if msg.ext_id is None:
        key = (msg.scope, msg.role, msg.at, msg.text)
        msg = dataclasses.replace(msg, ext_id=content_id(*key, seen[key]), made_id=True)
        seen[key] += 1
    return msg


def _closed(value: Any, number: int) -> str | None:
    """A line's ``closed``: how its session ended, one of ``CLOSED_REASONS``, or None."""
    if value is None or isinstance(value, str) and value in CLOSED_REASONS:
        return value
    got = repr(value[:40]) if isinstance(value, str) else type(value).__name__
    raise ImportFormatError(f"closed: must be one of {', '.join(CLOSED_REASONS)} (how the "
                            f"session ended), got {got}", line=number, field="closed")


def import_jsonl(
    store: Store,
    cfg: IngestConfig,
    source: str | Path | IO[str] | IO[bytes],
    *,
    strict: bool = False,
    default_scope: str | None = None,
) -> ImportReport:
    """Import a JSONL file into the store. See the module docstring for the rules."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            fh = path.open("rb")
        except FileNotFoundError:
            raise ValidationError(f"file: {path} does not exist", field="file") from None
        except OSError as e:
            raise ValidationError(f"file: cannot read {path} ({e.strerror or e})", field="file") from None
        with fh:
            if not path.is_file():
                raise ValidationError(f"file: {path} is not a file", field="file")
            return _import(store, cfg, fh, strict, default_scope)
    return _import(store, cfg, source, strict, default_scope)


def _owner(cfg: IngestConfig, obj: dict[str, Any], msg: Incoming) -> tuple[tuple[str, Any], ...]:
    """A labelled line's ``session_agent``, ``session_project`` (a string, or null: the
    session has none) and ``participants`` (a list of distinct names, the line's speaker,
    or role, among them), checked as a message's agent, project and speaker are."""
    out: list[tuple[str, Any]] = []
    for name in _OWN:
        if name not in obj:
            continue
        value = obj[name]
        if name != "participants":
            out.append((name, scrub_label(cfg, value, name)[0]))
            continue
        if not isinstance(value, list) or not value:
            got = "an empty list" if isinstance(value, list) else type(value).__name__
            raise ValidationError(f"participants: must be a non-empty list of names, got {got}",
                                  field=name)
        names = tuple(scrub_label(cfg, v, name)[0] for v in value)
        if None in names or len(set(names)) < len(names):
            raise ValidationError(f"participants: names must be distinct strings, got "
                                  f"{value!r:.80}", field=name)
        who = msg.speaker or msg.role
        if who not in names:
            raise ValidationError(f"participants: {who!r:.40} (this line's speaker, or "
                                  "role) is not listed", field=name)
        out.append((name, names))
    return tuple(out)


def _disagree(owner: tuple[tuple[str, Any], ...], mine: tuple[tuple[str, Any], ...]) -> str:
    """The first of ``_OWN`` two lines of one label give differently."""
    a, b = dict(owner), dict(mine)
    return next(n for n in _OWN if (n in a, a.get(n)) != (n in b, b.get(n)))


def _import(store: Store, cfg: IngestConfig, fh: IO[Any], strict: bool,
            default_scope: str | None) -> ImportReport:
    lines = 0
    imported = 0
    dupes = 0
    done = 0  # the last line whose message is stored (or was already)
    pending: list[Incoming] = []
    starts: list[int] = []  # places in pending whose line starts a session of the file
    labels: dict[str, str] = {}  # each scope's last session label in the file
    # each scope's session of its label when not its open one (the label's first line
    # stored by an earlier import, an interrupted one; an index run closed it meanwhile):
    # the label's lines go there (its last line written, or the line an earlier import
    # stored: its session is looked up at each write)
    homes: dict[str, Incoming] = {}

    numbers: list[int] = []  # each pending message's line
    # each scope's label's closed, first line, and session fields (``_OWN``)
    ends: dict[str, tuple[str | None, int, tuple[tuple[str, Any], ...]]] = {}
    # each scope's label being written: its first line and how its session ended, which
    # closes that session when the scope's next label starts, or at the end of the file
    current: dict[str, tuple[Incoming, str | None]] = {}
    # each scope's label that starts in a session closed at once, beside a live one that
    # keeps going (``_start_session``): its session, for its first lines
    aside: dict[str, int] = {}
    started = _Started()  # each scope's sessions the file started, and the one it did not
    last: dict[str, Incoming] = {}  # each scope's last line written (or stored already)

    def add(msg: Incoming, number: int) -> None:
        if msg.session is not None and labels.get(msg.scope) != msg.session:
            starts.append(len(pending))
            labels[msg.scope] = msg.session
            ends[msg.scope] = (msg.closed, number, msg.owner)
        elif msg.session is not None and ends[msg.scope][0] != msg.closed:
            closed, first, _ = ends[msg.scope]
            raise ImportFormatError(
                f"closed: {msg.closed!r}, but line {first} of session {msg.session[:40]!r} "
                f"says {closed!r} (a session ends one way)", line=number, field="closed")
        elif msg.session is not None and ends[msg.scope][2] != msg.owner:
            _, first, owner = ends[msg.scope]
            name = _disagree(owner, msg.owner)
            said = {k: repr(v) for k, v in owner}
            says = {k: repr(v) for k, v in msg.owner}
            raise ImportFormatError(
                f"{name}: {says.get(name, 'absent')}, but line {first} of session "
                f"{msg.session[:40]!r} says {said.get(name, 'absent')} (one session, one "
                "value)", line=number, field=name)
        pending.append(msg)
        numbers.append(number)

    def write(upto: int) -> list[Any]:
        """Write ``pending[:upto]`` in one transaction: one entry a message, None where it
        was stored already. A line whose id its scope holds with another message rolls the
        transaction back (``_Clash``)."""
        was, were, knew, lasts = dict(current), dict(homes), started.copy(), dict(last)
        try:
            return _write(upto)
        except BaseException:  # rolled back: the labels it began were not written
            current.clear()
            current.update(was)
            homes.clear()
            homes.update(were)
            last.clear()
            last.update(lasts)
            aside.clear()
            started.__dict__.update(vars(knew))
            raise

    def _write(upto: int) -> list[Any]:
        with store.atomic():
            started.see(store, pending[:upto])  # (before the batch writes a scope)
            held = _held(store, pending[:upto])
            placed = _Placed(held)  # where they are, until the batch writes their scope
            stored: list[Any] = []
            # cut where a label starts a session, and between labelled lines and others:
            # a labelled line stays in its label's session whatever its time (no gap cuts
            # it, none makes it late), so that export | import gives back the sessions as
            # they were, one that overlaps another or holds a long pause included
            cuts = sorted({0, *(i for i in starts if i < upto), upto,
                           *(i for i in range(1, upto)
                             if (pending[i].session is None) != (pending[i - 1].session is None))})
            for begin, end in itertools.pairwise(cuts):
                if begin in starts:
                    scope = pending[begin].scope
                    # the label before it, its last line written and its first: the
                    # session holding them is the import's own, not a live one
                    before = [a for a in (homes.get(scope), current.get(scope, (None,))[0])
                              if a is not None]
                    if scope in current:  # the label before it ends: close its session
                        # (one open in the file ends ``explicit``, as the next label's
                        # start closed it; one stored closed beside a live one too)
                        first, closed = current[scope]
                        _end_label(store, first, closed or "explicit", homes.get(scope))
                    current[scope] = (pending[begin], pending[begin].closed)
                    stored_line = _start_session(store, _label_lines(pending, begin, upto),
                                                 before, started.of(scope))
                    aside.pop(scope, None)
                    if isinstance(stored_line, int):  # closed at once: the live one goes on
                        aside[scope] = stored_line
                        homes.pop(scope, None)
                    elif stored_line is not None:
                        homes[scope] = stored_line
                    else:
                        homes.pop(scope, None)
                if pending[begin].session is None:
                    _resume(store, pending[begin:end], last, current, homes, placed)
                    written = _store_new(store, cfg, pending[begin:end], held)  # None: stored
                else:
                    written = _store_labelled(store, cfg, pending[begin:end], homes,
                                              current, aside, started, held, placed)
                placed.written.update(m.scope for m, got in zip(pending[begin:end], written,
                                                                strict=True) if got is not None)
                started.wrote(pending[begin:end], written)
                last.update((m.scope, m) for m in pending[begin:end])
                stored += written
            for i, got in enumerate(stored):
                # (the import's own content id: a line without an id never clashes)
                # looked up where it was stored: the scope as the database spells it (as
                # typed, an old database's ``team\u200b`` was missed and another message
                # under its id counted a skipped duplicate; session 35)
                ext_id = pending[i].ext_id
                if got is None and ext_id and not pending[i].made_id:
                    there = (held.get((pending[i].scope, ext_id))  # read for the batch
                             or held_under_id(store, pending[i]))  # (an id twice in the batch)
                    if there is not None and not same_message(there, pending[i]):
                        raise _Clash(i)
            return stored

    def flush() -> None:
        nonlocal imported, dupes, done
        with _interrupt_after():  # a batch is written and counted whole, or not at all
            try:
                stored = write(len(pending))
                clash = None
            except _Clash as e:
                clash = e.index
                # the lines before it, as an import stops at a bad line (none with --strict)
                stored = [] if strict else write(clash)
            taken = stored.count(None)
            dupes += taken
            imported += len(stored) - taken
            done = lines if clash is None else numbers[clash] - 1
            if clash is not None:
                msg, number = pending[clash], numbers[clash]
                pending.clear()
                starts.clear()
                numbers.clear()
                raise ImportFormatError(
                    f"id: {(msg.ext_id or '')[:80]!r} already exists in scope {msg.scope!r} with "
                    "another message (an id names one message of its scope; the same message "
                    "again is skipped as a duplicate"
                    f"{_OLD_EXPORT if (msg.ext_id or '')[:1] == '~' else ''})",
                    line=number, field="id")
            pending.clear()
            starts.clear()
            numbers.clear()

    text = _Text(fh)
    parsed = parse_lines(text, cfg, default_scope=default_scope)
    try:
        try:
            if strict:
                checked = list(parsed)  # every line is checked before the first write
                for number, m in checked:
                    add(m, number)
                lines = checked[-1][0] if checked else 0
                flush()  # ...and the file is written in one transaction
                _end_labels(store, current, homes)
                return ImportReport(lines=lines, imported=imported, skipped_duplicates=dupes,
                                    compression=text.compression, empty=text.empty)
            for number, msg in parsed:
                lines = number
                add(msg, number)
                if len(pending) >= BATCH:
                    flush()
            if pending:
                flush()
            _end_labels(store, current, homes)
        except ImportFormatError as err:
            bad = err
            if pending and not strict:
                try:
                    flush()
                except ImportFormatError as clash:  # a line before the bad one clashed
                    bad = clash
            return ImportReport(lines=bad.line, imported=imported, skipped_duplicates=dupes,
                                errors=((bad.line, str(bad)),), error_field=bad.field,
                                compression=text.compression, empty=text.empty)
        return ImportReport(lines=lines, imported=imported, skipped_duplicates=dupes,
                            compression=text.compression, empty=text.empty)
    except KeyboardInterrupt as e:  # while reading or checking lines, or around a batch, the
        # last one too: a Ctrl-C that lands as the input ends (a pipe closed with it) is seen
        # at the last batch's write, after the reading loop
        raise ImportInterrupted(ImportReport(lines=done, imported=imported,
                                             skipped_duplicates=dupes,
                                             compression=text.compression)) from e


class _Clash(Exception):
    """A line of the batch being written whose id its scope holds with another message."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


_NO_GAP = float("inf")
"""The gap of an import's labelled lines: none cuts their session."""


def _held(store: Store, lines: Sequence[Incoming]) -> dict[tuple[str, str], Message]:
    """The stored message of each of ``lines`` whose id its scope holds, keyed by the
    line's scope and id: one read per scope of the batch (500 ids a statement), under the
    scope's writers lock (``open_session_for``, held to commit: no erase between it and
    the batch's writes). Importing a file again read each line's message twice, the store's
    check and the importer's comparison, and a label's line up to four times (session 36)."""
    ids: dict[str, list[str]] = {}
    for m in lines:
        if m.ext_id is not None:
            ids.setdefault(m.scope, []).append(m.ext_id)
    out: dict[tuple[str, str], Message] = {}
    for scope in sorted(ids):
        real = stored_scope(store, scope)
        store.open_session_for(real)
        out.update(((scope, ext_id), got)
                   for ext_id, got in store.messages_by_ext_ids(real, ids[scope]).items())
    return out


class _Placed(Mapping[tuple[str, str], Message]):
    """The batch's stored messages (``_held``) as a record of the session each is in: those
    of the scopes the batch has written nothing to yet. A line written can move a stored
    message to another session: a late line between two sessions joins them, and the one
    joined is deleted. Session 37 (rev37): a label's next line in the batch was given that
    deleted session (``_home``), ``add_to_session`` failed with a ``TypeError``, and the
    file could not be imported (each attempt rolled back); ``_resume`` compared sessions
    read before and after the move. Whether a line is stored, and what it holds, the
    batch's read still tells (``held``)."""

    def __init__(self, held: Mapping[tuple[str, str], Message]) -> None:
        self.held = held
        self.written: set[str] = set()
        """The scopes (as the lines spell them, checked) the batch has written to."""

    def __getitem__(self, key: tuple[str, str]) -> Message:
        if key[0] in self.written:
            raise KeyError(key)
        return self.held[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return (k for k in self.held if k[0] not in self.written)

    def __len__(self) -> int:  # (counted: not asked on the import's paths, ``get`` is)
        return sum(1 for _ in self)


def _store_new(store: Store, cfg: IngestConfig, lines: Sequence[Incoming],
               held: Mapping[tuple[str, str], Message], **where: Any) -> list[Message | None]:
    """``store_messages`` (``where``: its ``gap`` and ``session``) for the lines whose id
    their scope did not hold (``held``): None for the others, as the store answers them."""
    out: list[Message | None] = [None] * len(lines)
    new = [i for i, m in enumerate(lines) if m.ext_id is None or (m.scope, m.ext_id) not in held]
    if new:
        got = store_messages(store, cfg, [lines[i] for i in new], **where)
        for i, one in zip(new, got, strict=True):
            out[i] = one
    return out


def _store_labelled(store: Store, cfg: IngestConfig, run: list[Incoming],
                    homes: dict[str, Incoming],
                    current: dict[str, tuple[Incoming, str | None]],
                    aside: dict[str, int], started: _Started,
                    held: Mapping[tuple[str, str], Message],
                    placed: Mapping[tuple[str, str], Message]) -> list[Any]:
    """Store labelled lines (of one label per scope): each scope's in the session its label
    resumes (the session holding the label's last line written, or its first, ``homes``
    and ``current``, looked up now: a message added since may have joined it to another),
    in the closed session its label started beside a live one (``aside``), or in the
    scope's open session, which the label started, with no gap; ``store_messages``'
    entries, in ``run``'s order. Each scope's last line is its ``homes`` line after.
    ``held``: the batch's stored messages; ``placed``: those still where they were read
    (``_Placed``)."""
    out: list[Any] = [None] * len(run)
    groups: dict[int | None, list[int]] = {}
    sessions = {scope: _home(store, [first, current[scope][0]],
                             [m for m in run if m.scope == scope], started.of(scope), placed)
                for scope, first in homes.items() if any(m.scope == scope for m in run)}
    for scope in [s for s in aside if any(m.scope == s for m in run)]:
        sessions[scope] = aside.pop(scope)  # its first lines; then ``homes`` finds it
    for i, m in enumerate(run):
        groups.setdefault(sessions.get(m.scope), []).append(i)
    for home, places in groups.items():
        got = _store_new(store, cfg, [run[i] for i in places], held, gap=_NO_GAP, session=home)
        for i, one in zip(places, got, strict=True):
            out[i] = one
    homes.update((m.scope, m) for m in run)
    return out


def _home(store: Store, anchors: list[Incoming], lines: list[Incoming],
          started: Collection[int] = (),
          known: Mapping[tuple[str, str], Message] | None = None) -> int | None:
    """The session holding the first stored of a label's ``anchors`` (its last line
    written, its first), when it is not its scope's open one (None: the open one). None
    stored: the label's session was erased since (``forget_session`` between two batches):
    its next ``lines`` start a session of their own, as its first did (``_start_session``;
    they went to the scope's open session, and with none open, no gap cutting them, joined
    the scope's nearest session, the file's label before). ``known``: the batch's stored
    messages, read already (``_held``)."""
    scope = stored_scope(store, anchors[0].scope)
    opened = store.open_session_for(scope)  # (the scope's writers lock first)
    held = store.first_stored(scope, [a.ext_id for a in anchors if a.ext_id is not None])
    if held is None:
        line = _start_session(store, lines, (), started)
        if isinstance(line, int):  # a closed session of its own, beside a live one
            return line
        if line is None or line.ext_id is None:
            return None  # the session it opened
        held = line.ext_id
        opened = store.open_session_for(scope)
    there = ((known.get((anchors[0].scope, held)) if known is not None else None)
             or store.message_by_ext_id(scope, held))
    if there is None or (opened is not None and opened[0] == there.session_id):
        return None
    return there.session_id


def _end_label(store: Store, first: Incoming, closed: str | None,
               last: Incoming | None = None) -> None:
    """A label's lines are all written: its session (the one holding its ``last`` line
    written, or else its ``first``) is closed as the exported session was (``closed``: ``explicit``, ``gap``, ``idle`` or
    ``late``; None: it was open, and stays so until the scope's next label). Closed
    already (the file imported again): nothing changes, unless something else closed it
    for another reason (an index run closing as idle the session an interrupted or
    stopped import left open): it takes the file's, as one whole import gives."""
    if closed is None or first.ext_id is None:
        return
    scope = stored_scope(store, first.scope)
    store.open_session_for(scope)  # the scope's writers lock first, as a close takes it
    held = store.first_stored(
        scope, [a.ext_id for a in (last, first) if a is not None and a.ext_id is not None])
    there = None if held is None else store.message_by_ext_id(scope, held)
    if there is None:
        return
    if store.close_session(there.session_id, closed):
        store.bump("sessions_closed")
        store.bump(f"sessions_closed_{closed}")
    else:
        store.set_closed_reason(there.session_id, closed)


def _end_labels(store: Store, current: dict[str, tuple[Incoming, str | None]],
                homes: dict[str, Incoming]) -> None:
    """The end of the file ends each scope's last label (``_end_label``)."""
    if any(closed for _, closed in current.values()):
        with store.atomic():
            for scope, (first, closed) in current.items():
                _end_label(store, first, closed, homes.get(scope))


def _resume(store: Store, run: list[Incoming], last: dict[str, Incoming],
            current: dict[str, tuple[Incoming, str | None]],
            homes: dict[str, Incoming],
            known: Mapping[tuple[str, str], Message] | None = None) -> None:
    """Before unlabelled lines are written: a scope's label that a shorter copy of the
    file ended (its end closed the label's session for the file's ``closed``) is resumed
    for them (``reopen_session``) when the line before the first of them not stored yet is
    in the label's session and the scope has no session open: one import of the whole file
    finds that session open there (a label's ``closed`` closes it at its end, the next
    label or the end of the file), and the lines go by the gap rule against it. Before
    session 33 they found it closed (``explicit`` is a boundary: a session of their own;
    ``gap``, ``idle`` or ``late``: joined late). A label the file gives as open, or whose
    session was stored closed beside a live one, is not resumed: the live session, or the
    label's, is open. ``known``: the batch's stored messages, read already (``_held``)."""
    for scope in dict.fromkeys(m.scope for m in run):
        label = current.get(scope)
        if label is None or label[1] is None or label[0].ext_id is None:
            continue
        real = stored_scope(store, scope)
        before = last.get(scope)
        there = None  # before's stored message, once read (it was read here a second time)
        for m in (m for m in run if m.scope == scope):
            got = None if m.ext_id is None else (
                (known.get((scope, m.ext_id)) if known is not None else None)
                or store.message_by_ext_id(real, m.ext_id))
            if got is None:
                break
            before, there = m, got
        else:
            continue  # all stored already: nothing to place
        if there is None and before is not None and before.ext_id is not None:
            there = store.message_by_ext_id(real, before.ext_id)  # the line before the run
        held = store.first_stored(real, [a.ext_id for a in (homes.get(scope), label[0])
                                         if a is not None and a.ext_id is not None])
        home = (there if there is not None and held == there.ext_id
                else None if held is None else store.message_by_ext_id(real, held))
        if there is not None and home is not None and there.session_id == home.session_id:
            store.reopen_session(home.session_id, label[1])


def _label_lines(pending: list[Incoming], begin: int, upto: int) -> list[Incoming]:
    """The lines of the label ``pending[begin]`` starts, of its scope, in the batch."""
    first = pending[begin]
    out = []
    for m in pending[begin:upto]:
        if m.scope == first.scope:
            if m.session != first.session:
                break
            out.append(m)
    return out


def _start_session(store: Store, lines: list[Incoming], before: Sequence[Incoming] = (),
                   started: Collection[int] = ()) -> Incoming | int | None:
    """A line whose ``session`` label is new for its scope starts a session: the scope's
    open session is closed first (reason ``explicit``, as ``close_session`` closes one) and
    a session opened at the line's time, which the label's lines join whatever their times
    (``_NO_GAP``), so sessions come back as they were from ``export | import``: before
    session 24 the line went by the gap rule, and a session that overlapped the one before
    it (a message dated before the end of an explicitly closed session) came back joined to
    it, one holding a pause longer than the gap (its middle turn forgotten) cut in two. Not
    when the line is stored already (importing a file again, whole or after an
    interruption; that line is returned): the label's session is then the one holding that
    line (``_home``), so that the label's new lines join it (before session 25
    they went to whatever session the scope had open: one an index run had closed sent them
    to the nearest session in time, a message added live since took them into its own).
    The scope is looked up as the database spells it (``ingest.spellings``), as its
    messages are stored: an old database's ``team\u200b`` kept its session open to a line
    of ``team``. ``lines``: the label's lines in the batch, the first first; any of them
    stored tells where the label is (its first line erased since, the others kept: the
    line came back in a session of its own, session 25).

    A live session (open, and neither the session of the scope's label ``before`` it in the
    file, its lines given, nor one of the sessions the file ``started``: its unlabelled
    lines', ``_Started``) is closed only by a label that starts after its last message, as
    the next conversation. A label that starts earlier is a past conversation: the live session
    goes on untouched, and the label's session is opened closed at once (its id is
    returned), for the reason the file gives (``closed``) or ``late`` when the file's
    session was open (a scope holds one open session; a late message's session of its
    own is closed ``late`` so too). Before session 31 the label closed the live session
    (``explicit``) and the older, imported one became the scope's open session; before
    session 32 the session the file's own unlabelled lines had opened was taken for a live
    one too."""
    msg = lines[0]
    scope = stored_scope(store, msg.scope)
    # the scope's writers lock first (``open_session_for`` takes it, to commit): another
    # import of the file storing this line meanwhile is seen, not given a second session
    opened = store.open_session_for(scope)
    held = store.first_stored(scope, [m.ext_id for m in lines if m.ext_id is not None])
    if held is not None:
        return next(m for m in lines if m.ext_id == held)
    own = dict(msg.owner)  # the session's own, where the file gives them (``_OWN``)
    if opened is not None and msg.at.timestamp() < opened[1] and opened[0] not in started \
            and not _holds(store, scope, opened[0], before):
        reason = msg.closed or "late"
        session_id = store.create_session(
            scope, msg.at.timestamp(), own.get("session_agent", msg.agent),
            own.get("session_project", msg.project), own.get("participants", ()),
            closed=reason)
        for counter in ("sessions_opened", "sessions_closed", f"sessions_closed_{reason}"):
            store.bump(counter)
        return session_id
    if opened is not None and store.close_session(opened[0], "explicit"):
        store.bump("sessions_closed")
        store.bump("sessions_closed_explicit")
    store.create_session(scope, msg.at.timestamp(), own.get("session_agent", msg.agent),
                         own.get("session_project", msg.project),
                         own.get("participants", ()))
    store.bump("sessions_opened")
    return None


class _Started:
    """Which open sessions of each scope an import's file started (session 32): a label
    older than the scope's open session closes it when the file started it, as the next
    label closes the one before, and is stored closed beside it when it is the
    conversation a user is in (``_start_session``). The file started the sessions its lines
    went to (``wrote``), but not the one open when the import first wrote to the scope
    (``see``), which the file's unlabelled lines may have joined by the gap rule, unless
    that session's first stored message is a line of the file (an earlier import of it,
    cut short). Before session 32 only a label's session counted as the file's: one the
    file's unlabelled lines had opened was taken for a live one."""

    def __init__(self) -> None:
        self.first: dict[str, int | None] = {}  # the open session at the import's first write
        self.opener: dict[str, str] = {}  # its first message's id, while no line showed it
        self.shown: set[str] = set()  # the scopes where a line showed it: the file's
        self.mine: dict[str, set[int]] = {}  # the sessions the file's lines went to

    def copy(self) -> _Started:
        other = _Started()
        other.first, other.opener, other.shown = dict(self.first), dict(self.opener), set(self.shown)
        other.mine = {scope: set(ids) for scope, ids in self.mine.items()}
        return other

    def see(self, store: Store, batch: Sequence[Incoming]) -> None:
        """Before ``batch`` is written: each new scope's open session, and each line
        showing the first stored message of one (the file started it)."""
        for m in batch:
            if m.scope not in self.first:
                opened = store.open_session_for(stored_scope(store, m.scope))
                self.first[m.scope] = None if opened is None else opened[0]
                held = None if opened is None else store.opener(opened[0])
                if held is not None:
                    self.opener[m.scope] = held
            if m.ext_id is not None and self.opener.get(m.scope) == m.ext_id:
                del self.opener[m.scope]
                self.shown.add(m.scope)

    def wrote(self, batch: Sequence[Incoming], got: Sequence[Any]) -> None:
        """``batch``'s lines stored (``got``: a ``Message`` each, None where stored
        already)."""
        for m, one in zip(batch, got, strict=True):
            if one is not None:
                self.mine.setdefault(m.scope, set()).add(one.session_id)

    def of(self, scope: str) -> set[int]:
        """The sessions of ``scope`` the file started."""
        mine, first = self.mine.get(scope, set()), self.first.get(scope)
        if first is None:
            return mine
        return mine | {first} if scope in self.shown else mine - {first}


def _holds(store: Store, scope: str, session_id: int, lines: Sequence[Incoming]) -> bool:
    """Whether the session holds the first stored of ``lines``."""
    held = store.first_stored(scope, [m.ext_id for m in lines if m.ext_id is not None])
    there = None if held is None else store.message_by_ext_id(scope, held)
    return there is not None and there.session_id == session_id


_WHAT_IT_IS = {
    b"\xff\xfe": "; the file is UTF-16: convert it (iconv -f UTF-16 -t UTF-8 FILE)",
    b"\xfe\xff": "; the file is UTF-16: convert it (iconv -f UTF-16 -t UTF-8 FILE)",
}
"""A hint for a first line that is not UTF-8 text because of how the file is stored."""

_COMPRESSIONS: tuple[tuple[bytes, str, Callable[[IO[bytes]], Any]], ...] = (
    (b"\x1f\x8b\x08", "gzip", lambda fh: gzip.GzipFile(fileobj=fh, mode="rb")),
    (b"\xfd7zXZ\x00", "xz", lambda fh: lzma.LZMAFile(fh)),
    (b"BZh", "bz2", lambda fh: bz2.BZ2File(fh)),  # and a block size digit, 1-9
)
"""Compressions the standard library reads, told by their first bytes (never the name),
so ``memlane import chat.jsonl.gz`` (or ``… | memlane import -``) reads what it holds."""

_NOT_TEXT: tuple[tuple[int, bytes, str, str], ...] = (
    (0, b"PK\x03\x04", "a zip archive", "unzip -p FILE | memlane import -"),
    (0, b"PK\x05\x06", "a zip archive", "unzip -p FILE | memlane import -"),
    (0, b"(\xb5/\xfd", "zstd-compressed", "zstd -dc FILE | memlane import -"),
    (0, b"7z\xbc\xaf\x27\x1c", "a 7z archive", "7z x -so FILE | memlane import -"),
    (0, b"\x04\x22\x4d\x18", "lz4-compressed", "lz4 -dc FILE | memlane import -"),
    (0, b"\x1f\x9d", "compress-compressed (.Z)", "uncompress -c FILE | memlane import -"),
    (0, b"SQLite format 3\x00", "a SQLite database",
     "a memlane database's conversations: memlane --db FILE export | memlane import -"),
    (257, b"ustar", "a tar archive", "tar -xOf FILE | memlane import -"),
)
"""Kinds of file that hold no conversation as they are: refused naming the kind and how to
get the conversation out (an ``(offset, magic, kind, advice)`` each)."""

_HEAD = 262  # bytes read ahead to tell the kind: a tar header's "ustar" ends at 262


class _Replay(io.RawIOBase):
    """The bytes read ahead from ``fh`` (``head``), then the rest of it: a pipe cannot be
    read twice."""

    def __init__(self, head: bytes, fh: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        self._fh = fh
        self._read1 = getattr(fh, "read1", None)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            data, self._head = self._head[:len(buffer)], self._head[len(buffer):]
        else:  # what the pipe holds now: read(n) waits for n bytes, a writer for its answer
            data = (self._read1 or self._fh.read)(len(buffer)) or b""
        buffer[:len(data)] = data
        return len(data)


def _read_ahead(fh: IO[bytes]) -> tuple[bytes, IO[bytes]]:
    """The first bytes of ``fh`` (up to ``_HEAD``; fewer once a line has ended, so a writer
    that sends a line and waits is not waited for) and a stream reading all of it."""
    head = b""
    read = getattr(fh, "read1", fh.read)
    while len(head) < _HEAD and not (len(head) >= 16 and b"\n" in head):
        more = read(_HEAD - len(head))
        if not more:
            break
        head += more
    return head, io.BufferedReader(_Replay(head, fh), 1 << 16)


def _compression(head: bytes) -> tuple[str, Callable[[IO[bytes]], Any]] | None:
    for magic, name, opener in _COMPRESSIONS:
        if head.startswith(magic) and (name != "bz2" or head[3:4] in b"123456789"):
            return name, opener
    return None


class _Text:
    """The lines of an import's input as text; a file compressed with gzip, xz or bz2
    (``compression``, told by its first bytes, nested too) is read decompressed; a zip,
    7z or tar archive, a zstd, lz4 or .Z file or a SQLite database is refused naming what
    it is. ``empty``:
    no byte was read. Bytes are decoded line by line, so an invalid byte is reported on its
    own line and column; a text stream that fails to decode is reported on the line after
    the last good one."""

    def __init__(self, fh: IO[Any]) -> None:
        self.fh = fh
        self.compression: str | None = None
        self.empty = False

    def _unpacked(self) -> IO[Any]:
        fh = self.fh
        if not isinstance(fh, (io.BufferedIOBase, io.RawIOBase)):
            return fh  # text (or lines an object yields): no bytes to tell a kind by
        kinds: list[str] = []
        while True:
            head, fh = _read_ahead(fh)
            packed = _compression(head)
            if packed is None or len(kinds) == 3:
                break
            kinds.append(packed[0])
            self.compression = "+".join(kinds)  # (a damaged stream is named by it)
            fh = packed[1](fh)
        of = "".join(f", {k}-compressed" for k in reversed(kinds))
        for offset, magic, kind, advice in _NOT_TEXT:
            if head[offset:offset + len(magic)] == magic:
                raise ImportFormatError(f"the file is {kind}{of}, not JSON Lines ({advice})",
                                        line=1)
        if packed is not None:
            raise ImportFormatError(f"the file is compressed more than {len(kinds)} times "
                                    f"({self.compression}, …): decompress it first", line=1)
        return fh

    def __iter__(self) -> Iterator[str]:
        number = 0
        try:
            for number, line in enumerate(self._unpacked(), start=1):
                if isinstance(line, bytes):
                    try:
                        line = line.decode("utf-8")
                    except UnicodeDecodeError as e:
                        column = len(line[: e.start].decode("utf-8", "replace")) + 1
                        raise ImportFormatError(
                            f"column {column}: not valid UTF-8 (byte 0x{line[e.start]:02x})"
                            + (_WHAT_IT_IS.get(line[:2], "") if number == 1 else ""),
                            line=number) from None
                    if number == 1:
                        line = line.removeprefix("\ufeff")
                yield line
            self.empty = number == 0
        except UnicodeDecodeError as e:
            raise ImportFormatError(f"not valid UTF-8 ({e.reason})", line=number + 1) from None
        except (EOFError, OSError, lzma.LZMAError, zlib.error) as e:
            if self.compression is None:
                raise
            raise ImportFormatError(f"the {self.compression}-compressed file is damaged or cut "
                                    f"short ({e})", line=number + 1) from None


@contextmanager
def _interrupt_after() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until it ends: a batch that
    committed is then counted, so an interrupted import reports exactly what it stored.
    Only where Python's own handler is in place, in the main thread (the command line);
    elsewhere the block runs as it is (its transaction still rolls back on an interrupt)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    held: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if held:
        raise KeyboardInterrupt
