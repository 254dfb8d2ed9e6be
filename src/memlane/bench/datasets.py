"""Loaders for the benchmark files, read as upstream ships them.

``load_longmemeval(path)`` reads LongMemEval S, M or oracle (a JSON array of question
records); ``load_locomo(path)`` reads LoCoMo (a JSON array of conversations with their QA).
Both accept JSON plain or compressed with gzip, xz or bz2 (told by the first bytes, not the
name: ``.json``, ``.json.gz``, ``.json.xz``). A malformed file raises ``DatasetError``
naming the file, the record and the field, before anything runs: an id given twice, an
empty id or question, a record with no session and the other benchmark's file included.

Ids follow the rankings-file scheme of the README ("Benchmarks"): a LongMemEval turn is
``<session id>_<turn index>`` with the index 1-based over all turns of the session (user
and assistant alike); a LoCoMo question is ``<sample_id>:<qa index>`` (0-based).
"""

from __future__ import annotations

import json
import lzma
import re
import warnings
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memlane.errors import ValidationError

__all__ = [
    "DatasetError",
    "DatasetWarning",
    "DialogTurn",
    "HaystackSession",
    "LMEQuestion",
    "LMETurn",
    "LoCoMoConversation",
    "LoCoMoQA",
    "LoCoMoSession",
    "load_locomo",
    "load_longmemeval",
    "parse_lme_date",
    "parse_locomo_date",
    "read_json",
    "session_of_turn",
    "turn_id",
]

LME_DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
LOCOMO_DATE_FORMAT = "%I:%M %p on %d %B, %Y"


class DatasetError(ValidationError):
    """A benchmark file is missing, unreadable or malformed (the message says where)."""


# ---------------------------------------------------------------------------- helpers


def turn_id(session_id: str, index: int) -> str:
    """LongMemEval's turn id: ``<session id>_<1-based turn index>``."""
    return f"{session_id}_{index}"


def session_of_turn(tid: str) -> str:
    """The session id of a turn id (session ids may contain ``_``; the index never does)."""
    head, sep, tail = tid.rpartition("_")
    if not sep or not tail.isdigit():
        raise ValueError(f"not a turn id (<session id>_<turn index>): {tid!r}")
    return head


def parse_lme_date(text: str) -> datetime:
    """``"2023/05/20 (Sat) 02:21"`` -> naive ``datetime(2023, 5, 20, 2, 21)``."""
    return datetime.strptime(text.strip(), LME_DATE_FORMAT)


def parse_locomo_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> naive ``datetime(2023, 5, 8, 13, 56)``."""
    return datetime.strptime(" ".join(text.split()), LOCOMO_DATE_FORMAT)


def read_json(path: str | Path) -> Any:
    """Parse a JSON file, plain or compressed with gzip, xz or bz2 (told by its first bytes,
    as ``memlane import`` tells them, one inside another too; never by the name)."""
    from memlane.ingest.importer import _NOT_TEXT, _compression, _read_ahead

    p = Path(path)
    if not p.is_file():
        raise DatasetError(f"{p}: no such file" if not p.exists() else f"{p}: not a file")
    kinds: list[str] = []
    try:
        with open(p, "rb") as raw:
            fh: Any = raw
            while len(kinds) < 3:
                head, fh = _read_ahead(fh)
                packed = _compression(head)
                if packed is None:
                    break
                kinds.append(packed[0])
                fh = packed[1](fh)
            for offset, magic, kind, _advice in _NOT_TEXT:
                if head[offset:offset + len(magic)] == magic:
                    raise DatasetError(f"{p}: the file is {kind}"
                                       + "".join(f", {k}-compressed" for k in reversed(kinds))
                                       + ", not JSON: take the JSON file out of it first")
            data = fh.read()
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:
        if not kinds:
            raise DatasetError(f"{p}: cannot read ({exc})") from exc
        raise DatasetError(f"{p}: the {'+'.join(kinds)}-compressed file is damaged or cut "
                           f"short ({exc})") from exc
    if not data.strip():
        raise DatasetError(f"{p}: the file is empty" + (f" ({'+'.join(kinds)}-compressed)"
                                                         if kinds else ""))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        hint = ("; the file is UTF-16: convert it (iconv -f UTF-16 -t UTF-8 FILE)"
                if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "")
        raise DatasetError(f"{p}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
                           f"{exc.start}){hint}") from None
    del data  # a large file's bytes are not kept while its objects are made
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{p}: not valid JSON ({exc})") from exc


class _Where:
    """Builds error messages naming the file, the record and the field."""

    def __init__(self, path: Path, record: str) -> None:
        self.path = path
        self.record = record

    def error(self, message: str) -> DatasetError:
        return DatasetError(f"{self.path}: {self.record}: {message}")

    def get(self, obj: Any, key: str, kind: type | tuple[type, ...], name: str = "") -> Any:
        label = name or key
        if not isinstance(obj, dict):
            raise self.error(f"{label.rpartition('.')[0] or 'record'} is not an object")
        if key not in obj:
            raise self.error(f"field {label!r} is missing")
        value = obj[key]
        if not isinstance(value, kind) or isinstance(value, bool) and bool not in _tuple(kind):
            want = " or ".join(t.__name__ for t in _tuple(kind))
            raise self.error(f"field {label!r} must be {want}, got {type(value).__name__}")
        if isinstance(value, str):
            self.unicode(value, label)
        return value

    def unicode(self, value: str, label: str) -> None:
        """Refuse a lone surrogate (a JSON ``\\ud800`` escape): an id holding one was a
        UnicodeEncodeError traceback when the rankings were written, after the whole run."""
        from memlane.ingest.validate import check_unicode

        try:
            check_unicode(value, label)
        except ValidationError as exc:
            raise self.error(f"field {label!r} {str(exc).partition(': ')[2]}") from None

    def text(self, obj: Any, key: str, name: str = "") -> str:
        """A string field that must hold more than white space (an id, a question)."""
        value = self.get(obj, key, str, name)
        if not value.strip():
            raise self.error(f"field {name or key!r} is empty")
        return str(value)


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


_SHAPES = {"longmemeval": ("question_id", "haystack_sessions"),
           "locomo": ("sample_id", "conversation")}
"""The keys that tell one benchmark's record from the other's."""


def _records(path: Path, data: Any, dataset: str) -> Iterator[tuple[int, Any]]:
    if not isinstance(data, list):
        raise DatasetError(f"{path}: expected a JSON array of records, got {type(data).__name__}")
    if not data:
        raise DatasetError(f"{path}: the array holds no records")
    first = data[0]
    for other, keys in _SHAPES.items():
        if (other != dataset and isinstance(first, dict) and all(k in first for k in keys)
                and not any(k in first for k in _SHAPES[dataset])):
            raise DatasetError(f"{path}: record 0: a {other} record ({' and '.join(keys)}), "
                               f"not {dataset}: run memlane bench {other} on it")
    yield from enumerate(data)


class DatasetWarning(UserWarning):
    """A benchmark file read as it is, with something a reader should know (an id repeated)."""


def _warn(w: _Where, message: str) -> None:
    """Say ``message`` about the record ``w`` is reading, on standard error, and go on."""
    warnings.warn(f"{w.path}: {w.record}: {message}", DatasetWarning, stacklevel=3)


def _once(seen: dict[str, str], key: str, where: str, w: _Where, what: str) -> None:
    """Refuse an id already given (``seen``: id -> where it was first)."""
    if key in seen:
        raise w.error(f"{what} {key!r} again (first in {seen[key]}): ids must be unique, "
                      "or the rankings file cannot tell them apart")
    seen[key] = where


# ------------------------------------------------------------------------ LongMemEval


@dataclass(frozen=True, slots=True)
class LMETurn:
    """One turn of a haystack session; ``index`` is 1-based over all its session's turns."""

    id: str
    index: int
    role: str
    content: str
    has_answer: bool


@dataclass(frozen=True, slots=True)
class HaystackSession:
    id: str
    date: datetime
    date_text: str
    turns: tuple[LMETurn, ...]


@dataclass(frozen=True, slots=True)
class LMEQuestion:
    question_id: str
    question_type: str
    question: str
    question_date: datetime
    question_date_text: str
    answer: str
    answer_session_ids: tuple[str, ...]
    sessions: tuple[HaystackSession, ...]

    @property
    def is_abstention(self) -> bool:
        """Abstention questions (``_abs`` in the id, as the official scorer tests)."""
        return "_abs" in self.question_id

    @property
    def gold_turn_ids(self) -> frozenset[str]:
        """User turns with ``has_answer: true``."""
        return frozenset(
            t.id for s in self.sessions for t in s.turns if t.role == "user" and t.has_answer
        )

    @property
    def gold_session_ids(self) -> frozenset[str]:
        """Answer sessions that contain a gold (user, has_answer) turn."""
        with_gold = {
            s.id for s in self.sessions if any(t.role == "user" and t.has_answer for t in s.turns)
        }
        return frozenset(sid for sid in self.answer_session_ids if sid in with_gold)

    @property
    def strict_gold_session_ids(self) -> frozenset[str]:
        """The stricter variant: every answer session is gold."""
        return frozenset(self.answer_session_ids)

    @property
    def evaluable(self) -> bool:
        """Counted in the averages: not an abstention and with at least one gold user turn."""
        return not self.is_abstention and bool(self.gold_session_ids) and bool(self.gold_turn_ids)

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def _lme_question(w: _Where, rec: Any) -> LMEQuestion:
    qid = w.text(rec, "question_id")
    w.record += f" (question_id {qid})"
    qtype = w.get(rec, "question_type", str)
    question = w.text(rec, "question")
    qdate_text = w.get(rec, "question_date", str)
    try:
        qdate = parse_lme_date(qdate_text)
    except ValueError:
        raise w.error(f"question_date {qdate_text!r} is not like '2023/05/20 (Sat) 02:21'")
    answer = w.get(rec, "answer", (str, int, float))
    answer_ids = w.get(rec, "answer_session_ids", list)
    dates = w.get(rec, "haystack_dates", list)
    sids = w.get(rec, "haystack_session_ids", list)
    sessions_raw = w.get(rec, "haystack_sessions", list)
    if not (len(dates) == len(sids) == len(sessions_raw)):
        raise w.error(
            f"haystack_dates ({len(dates)}), haystack_session_ids ({len(sids)}) and "
            f"haystack_sessions ({len(sessions_raw)}) differ in length"
        )
    if not sessions_raw:
        raise w.error("field 'haystack_sessions' is empty: a question needs a session to search")
    sessions = []
    first: dict[str, int] = {}
    for si, (sid, dtext, turns_raw) in enumerate(zip(sids, dates, sessions_raw)):
        if not isinstance(sid, str) or not isinstance(dtext, str):
            raise w.error(f"haystack_session_ids[{si}] and haystack_dates[{si}] must be strings")
        if not sid.strip():
            raise w.error(f"field 'haystack_session_ids[{si}]' is empty")
        w.unicode(sid, f"haystack_session_ids[{si}]")
        if sid in first and sessions_raw[first[sid]] != turns_raw:
            # upstream repeats a session under its id at another date (LongMemEval_S does):
            # the same turns are the same evidence. Other turns under one id are a glitch of
            # the file, not a reason to stop a benchmark of hundreds of questions: said, and
            # read as before (both kept; a turn id then names two turns)
            _warn(w, f"haystack_session_ids[{si}] {sid!r} again (first at [{first[sid]}]) "
                     "with other turns: the rankings file cannot tell their turns apart")
        first.setdefault(sid, si)
        try:
            sdate = parse_lme_date(dtext)
        except ValueError:
            raise w.error(f"haystack_dates[{si}] {dtext!r} is not like '2023/05/20 (Sat) 02:21'")
        if not isinstance(turns_raw, list):
            raise w.error(f"haystack_sessions[{si}] must be a list of turns")
        turns = []
        for ti, t in enumerate(turns_raw):
            name = f"haystack_sessions[{si}][{ti}]"
            role = w.get(t, "role", str, f"{name}.role")
            if role not in ("user", "assistant"):
                raise w.error(f"field '{name}.role' must be 'user' or 'assistant', got {role!r}")
            content = w.get(t, "content", str, f"{name}.content")
            has = t.get("has_answer", False)
            if not isinstance(has, bool):
                raise w.error(f"field '{name}.has_answer' must be true or false")
            turns.append(LMETurn(turn_id(sid, ti + 1), ti + 1, role, content, has))
        sessions.append(HaystackSession(sid, sdate, dtext, tuple(turns)))
    for ai, aid in enumerate(answer_ids):
        if not isinstance(aid, str):
            raise w.error(f"answer_session_ids[{ai}] must be a string")
        w.unicode(aid, f"answer_session_ids[{ai}]")
    return LMEQuestion(
        question_id=qid,
        question_type=qtype,
        question=question,
        question_date=qdate,
        question_date_text=qdate_text,
        answer=str(answer),
        answer_session_ids=tuple(answer_ids),
        sessions=tuple(sessions),
    )


def load_longmemeval(path: str | Path) -> list[LMEQuestion]:
    """Read a LongMemEval file (S, M or oracle). Raises DatasetError on malformed input."""
    p = Path(path)
    out = []
    seen: dict[str, str] = {}
    for i, rec in _records(p, read_json(p), "longmemeval"):
        w = _Where(p, f"record {i}")
        q = _lme_question(w, rec)
        _once(seen, q.question_id, f"record {i}", w, "question_id")
        out.append(q)
    return out


# ----------------------------------------------------------------------------- LoCoMo


@dataclass(frozen=True, slots=True)
class DialogTurn:
    dia_id: str
    speaker: str
    text: str
    session_index: int
    blip_caption: str | None = None


@dataclass(frozen=True, slots=True)
class LoCoMoSession:
    index: int
    date: datetime
    date_text: str
    turns: tuple[DialogTurn, ...]


@dataclass(frozen=True, slots=True)
class LoCoMoQA:
    qa_id: str
    index: int
    question: str
    answer: str | None
    category: int
    evidence: tuple[str, ...]
    """Evidence dia_ids, normalised and limited to turns present in the conversation."""
    raw_evidence: tuple[str, ...] = ()
    adversarial_answer: str | None = None

    @property
    def adversarial(self) -> bool:
        return self.category == 5


@dataclass(frozen=True, slots=True)
class LoCoMoConversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[LoCoMoSession, ...]
    qa: tuple[LoCoMoQA, ...]
    dropped_evidence: tuple[str, ...] = field(default=())
    """Evidence strings naming no turn of the conversation (left out of the gold)."""

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DIA = re.compile(r"^D:?(\d+):(\d+)$")


def normalize_evidence(raw: list[Any], known: set[str]) -> tuple[list[str], list[str]]:
    """Split ``"D8:6; D9:17"``, repair ``"D:11:26"``; return (kept ids, dropped strings)."""
    kept: list[str] = []
    dropped: list[str] = []
    for item in raw:
        for part in re.split(r"[;,\s]+", str(item)):
            if not part:
                continue
            m = _DIA.match(part)
            did = f"D{int(m.group(1))}:{int(m.group(2))}" if m else part
            if did in known:
                if did not in kept:
                    kept.append(did)
            else:
                dropped.append(part)
    return kept, dropped


def _locomo_conversation(w: _Where, rec: Any) -> LoCoMoConversation:
    sample_id = str(w.get(rec, "sample_id", (str, int)))
    if not sample_id.strip():
        raise w.error("field 'sample_id' is empty")
    w.record += f" (sample_id {sample_id})"
    conv = w.get(rec, "conversation", dict)
    speaker_a = w.get(conv, "speaker_a", str, "conversation.speaker_a")
    speaker_b = w.get(conv, "speaker_b", str, "conversation.speaker_b")
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
    sessions = []
    known: set[str] = set()
    where: dict[str, str] = {}
    for n in numbers:
        key = f"session_{n}"
        turns_raw = w.get(conv, key, list, f"conversation.{key}")
        if not turns_raw:
            continue
        dkey = f"{key}_date_time"
        dtext = w.get(conv, dkey, str, f"conversation.{dkey}")
        try:
            sdate = parse_locomo_date(dtext)
        except ValueError:
            raise w.error(f"conversation.{dkey} {dtext!r} is not like '1:56 pm on 8 May, 2023'")
        turns = []
        for ti, t in enumerate(turns_raw):
            name = f"conversation.{key}[{ti}]"
            speaker = w.get(t, "speaker", str, f"{name}.speaker")
            dia_id = w.text(t, "dia_id", f"{name}.dia_id")
            if dia_id in where:  # a glitch of the file, said and read as before (see above)
                _warn(w, f"{name}.dia_id {dia_id!r} again (first in {where[dia_id]}): the "
                         "rankings file cannot tell the two turns apart")
            where.setdefault(dia_id, name)
            text = w.get(t, "text", str, f"{name}.text")
            cap = t.get("blip_caption")
            turns.append(
                DialogTurn(dia_id, speaker, text, n, cap if isinstance(cap, str) else None)
            )
            known.add(dia_id)
        sessions.append(LoCoMoSession(n, sdate, dtext, tuple(turns)))
    if not sessions:
        raise w.error("the conversation has no session_<N> with turns: nothing to search")
    qa_raw = w.get(rec, "qa", list)
    qas = []
    dropped_all: list[str] = []
    for qi, q in enumerate(qa_raw):
        name = f"qa[{qi}]"
        question = w.text(q, "question", f"{name}.question")
        category = w.get(q, "category", int, f"{name}.category")
        evidence_raw = w.get(q, "evidence", list, f"{name}.evidence")
        answer = q.get("answer")
        adv = q.get("adversarial_answer")
        if answer is None and adv is None and category != 5:
            raise w.error(f"field '{name}.answer' is missing")
        kept, dropped = normalize_evidence(evidence_raw, known)
        dropped_all.extend(dropped)
        qas.append(
            LoCoMoQA(
                qa_id=f"{sample_id}:{qi}",
                index=qi,
                question=question,
                answer=None if answer is None else str(answer),
                category=category,
                evidence=tuple(kept),
                raw_evidence=tuple(str(e) for e in evidence_raw),
                adversarial_answer=None if adv is None else str(adv),
            )
        )
    return LoCoMoConversation(
        sample_id, speaker_a, speaker_b, tuple(sessions), tuple(qas), tuple(dropped_all)
    )


def load_locomo(path: str | Path) -> list[LoCoMoConversation]:
    """Read a LoCoMo file. Raises DatasetError on malformed input."""
    p = Path(path)
    out = []
    seen: dict[str, str] = {}
    for i, rec in _records(p, read_json(p), "locomo"):
        w = _Where(p, f"record {i}")
        conv = _locomo_conversation(w, rec)
        _once(seen, conv.sample_id, f"record {i}", w, "sample_id")
        out.append(conv)
    return out
