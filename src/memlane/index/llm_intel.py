"""The LLM intelligence backend: a session's summary and facts written by a chat model.

Same interface as :class:`memlane.index.offline.OfflineIntelligence` — ``name`` and
``summarize(scope, messages) -> (SessionSummary, Extraction)`` — backed by any
:class:`memlane.backends.llm.base.LLM` (usually an OpenAI-compatible endpoint).

The model gets the instructions of ``prompts/summarize.md`` as the system message and the
session as numbered turns, ``[n] role (speaker): text``, under a header with the scope,
dates and participants. Long sessions are cut to about ``max_input_tokens`` as
``memlane.pack.tokens.counter_for`` counts them (cl100k_base): the first turn and the most
recent turns are kept and the cut is marked. The answer must match :data:`memlane.index.schema.SUMMARY_SCHEMA`; malformed
answers are repaired (see :func:`memlane.backends.llm.base.complete_json`). Times,
participants and the turn count come from the messages, never from the model.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Iterable, Mapping, Sequence, Set
from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any

from memlane.backends.llm.base import LLM, complete_json
from memlane.clip import clip
from memlane.index.normalize import name_key, normalize_predicate, normalize_value, user_subject
from memlane.index.people import speaker_subject
from memlane.index.schema import (
    MAX_OBSERVATIONS,
    SUMMARY_SCHEMA,
    Entity,
    Extraction,
    Fact,
    Observation,
    Relation,
    SessionSummary,
)
from memlane.pack.tokens import counter_for
from memlane.types import Message

__all__ = ["LLMIntelligence", "format_transcript", "summarize_prompt"]

log = logging.getLogger("memlane.index")

CHARS_PER_TOKEN = 4
"""The characters a token of English prose: the transcript's first cut. A text of other
words (Japanese, Chinese, Greek, emoji: 1 to 1.5 characters a token) is cut again, shorter,
until the counter says it fits (``LLMIntelligence.transcript``; session 26)."""
_SOURCES = ("stated", "observed", "inferred")
_SENT = re.compile(r"(?<=[.!?])\s+|\n+")
_CUT = " […]"


@cache
def summarize_prompt() -> str:
    """The system prompt: ``memlane/index/prompts/summarize.md`` (package data)."""
    path = resources.files("memlane.index") / "prompts" / "summarize.md"
    return path.read_text(encoding="utf-8").strip()


def _when(at: datetime) -> str:
    text = at.strftime("%a %Y-%m-%d %H:%M")
    if at.tzinfo is not None:
        text += f" {at.tzname() or at.strftime('%z')}"
    return text


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at whole graphemes (``memlane.clip``), at a word
    when one ends in the second half of what is kept, marked ``_CUT``."""
    cut = clip(text, limit, mark=_CUT)
    if cut == text:
        return text
    head = cut[: -len(_CUT)]
    if " " in head[len(head) // 2:]:
        head = head.rsplit(" ", 1)[0]
    return head + _CUT


def _turn(m: Message) -> str:
    who = m.role if not m.speaker or m.speaker == m.role else f"{m.role} ({m.speaker})"
    text = m.text.strip().replace("\r\n", "\n")
    return f"[{m.seq}] {who}: {text}"


def format_transcript(messages: Sequence[Message], max_chars: int) -> tuple[str, int]:
    """The numbered transcript within about ``max_chars`` characters, and how many turns
    were left out. A line ``--- <date> ---`` precedes a turn whose day differs from the
    previous one's. Over budget, the first turn (clipped to a quarter of the budget) and
    as many of the most recent turns as fit are kept, with a marker line where the cut
    is; the most recent turn is always present, clipped if it alone is too long."""
    blocks: list[str] = []
    day = messages[0].at.date() if messages else None
    for m in messages:
        block = _turn(m)
        if m.at.date() != day:
            day = m.at.date()
            block = f"--- {day.isoformat()} ---\n{block}"
        blocks.append(block)
    if sum(len(b) + 1 for b in blocks) <= max_chars or len(blocks) == 0:
        return "\n".join(blocks), 0
    if len(blocks) == 1:
        return _clip(blocks[0], max_chars), 0
    first = _clip(blocks[0], max(200, max_chars // 4))
    marker_room = 90
    budget = max_chars - len(first) - 1 - marker_room
    tail: list[str] = []
    for block in reversed(blocks[1:]):
        if len(block) + 1 <= budget:
            tail.append(block)
            budget -= len(block) + 1
        else:
            if not tail:
                tail.append(_clip(block, max(200, budget)))
            break
    tail.reverse()
    omitted = len(blocks) - 1 - len(tail)
    parts = [first]
    if omitted:
        lo, hi = messages[1].seq, messages[omitted].seq
        span = f"turn {lo}" if lo == hi else f"turns {lo}-{hi}"
        parts.append(f"[… {omitted} turn{'s' if omitted > 1 else ''} omitted here ({span}) "
                     "to fit the length limit …]")
    parts.extend(tail)
    return "\n".join(parts), omitted


def _strings(value: Any, limit: int = 20, chars: int = 400) -> tuple[str, ...]:
    if isinstance(value, str):  # one string where a list was asked: one item (not letters)
        value = [value]
    out: dict[str, None] = {}
    for v in value or ():
        text = _clean(v, chars)
        if text:
            out.setdefault(text, None)
    return tuple(out)[:limit]


# What a model's JSON may carry that no stored message does (ingest drops NUL and refuses
# lone surrogates): control characters become spaces, a lone surrogate (a "\ud800" escape)
# U+FFFD. PostgreSQL refuses both in text, SQLite stored them: the backends now agree.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]|(?P<half>[\ud800-\udfff])")


def _safe(match: re.Match[str]) -> str:
    return "\ufffd" if match.group("half") else " "


def _scalar(value: Any) -> str:
    """A value of a model's JSON as text: a number or a boolean as JSON writes it. ``0`` and
    ``false`` are values ("I have 0 cars now"): ``str(value or "")`` made them nothing, so the
    fact was dropped and the old value stayed current (session 26); ``True`` was "True"."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value) if math.isfinite(value) else ""
    return str(value)


def _clean(value: Any, limit: int = 200) -> str:
    """One line of a model's answer: controls and lone surrogates replaced, whitespace
    collapsed, clipped to ``limit`` characters (a model may answer a name of 50,000)."""
    text = _scalar(value)
    if len(text) > 4 * limit:
        text = text[: 4 * limit]
    return _clip(" ".join(_UNSAFE.sub(_safe, text).split()), limit)


def _subject(value: str, me: str = "user") -> str:
    """A model's subject, ``me`` for the user ("I", "the user"): ``user``, or the speaker's
    name in a conversation among named people (session 19, as the offline backend), whose
    "user's sister" or "my sister" is then ``Caroline's sister``."""
    if user_subject(value) == "user":
        return me
    if me != "user" and (own := _OWN.match(value)) is not None:
        return f"{me}'s {value[own.end():]}"
    return value


_OWN = re.compile(r"(?:the\s+)?user['’]s\s+(?=\S)|my\s+(?=\S)", re.IGNORECASE)
"""The user's own relative or thing, as a model may write it: "user's sister", "my sister"."""


_WORD = re.compile(r"\w+")
# subjects a model may use that no turn spells out: the user, the assistant, a meeting's team
_GENERIC = frozenset({"user", "assistant", "team", "we", "us", "speaker", "participants"})


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _said(name: str, vocabulary: Set[str]) -> bool:
    """Whether the session mentions ``name``: one of its words of three letters or more
    (any word, when all are shorter) was said, or is ``user`` / a participant."""
    words = [w.casefold() for w in _WORD.findall(name)]
    long = [w for w in words if len(w) >= 3] or words
    return any(w in vocabulary for w in long)


def _sentence_with(text: str, needle: str) -> str:
    """The sentence of ``text`` that mentions ``needle`` (else the text, trimmed)."""
    low = needle.casefold()
    for s in _SENT.split(text):
        if low and low in s.casefold():
            return _clip(s.strip(), 200)
    return _clip(" ".join(text.split()), 200)


class LLMIntelligence:
    """Session summaries and extraction written by a chat model.

    Args:
        llm: any object with the ``LLM`` interface (e.g. ``OpenAIChat``).
        max_input_tokens: the transcript sent is cut to about this many tokens.
        max_output_tokens: passed as ``max_tokens`` (None: the server's default).
        repairs: repair turns allowed for a malformed answer before ``LLMBadResponse``.
    """

    def __init__(
        self,
        llm: LLM,
        *,
        max_input_tokens: int = 6000,
        max_output_tokens: int | None = None,
        repairs: int = 2,
    ) -> None:
        if max_input_tokens < 64:
            raise ValueError("max_input_tokens must be >= 64")
        self.llm = llm
        self.name = f"llm:{llm.name}"
        self.model = str(getattr(llm, "model", None) or llm.name)
        self.max_input_tokens = int(max_input_tokens)
        self.max_output_tokens = max_output_tokens
        self.repairs = repairs

    def close(self) -> None:
        """Close the model's client, if it has one to close."""
        close = getattr(self.llm, "close", None)
        if callable(close):
            close()

    def transcript(self, messages: Sequence[Message]) -> tuple[str, int]:
        """``format_transcript`` within ``max_input_tokens`` as the model's tokenizer counts
        them (``counter_for``; cl100k_base for a model of another): first at
        ``CHARS_PER_TOKEN`` characters a token, then, while the count is over, at the
        characters a token the text cut last had (a few passes at most). At 4 characters a
        token alone, a Japanese session's 6000 "tokens" were about 18,000 (session 26)."""
        count = counter_for(self.model).count
        chars = self.max_input_tokens * CHARS_PER_TOKEN
        transcript, omitted = format_transcript(messages, chars)
        for _ in range(4):
            tokens = count(transcript)
            if tokens <= self.max_input_tokens:
                break
            chars = min(chars - 1, int(len(transcript) * self.max_input_tokens / tokens * 0.97))
            transcript, omitted = format_transcript(messages, max(chars, 1))
        return transcript, omitted

    def prompt(self, scope: str, messages: Sequence[Message]) -> tuple[list[dict[str, str]], int]:
        """The chat messages sent for a session, and the number of turns left out."""
        transcript, omitted = self.transcript(messages)
        start = min(m.at for m in messages)
        end = max(m.at for m in messages)
        participants = ", ".join(dict.fromkeys(m.speaker or m.role for m in messages))
        header = [
            f"Conversation scope: {scope}",
            f"Session: {_when(start)} to {_when(end)}",
            f"Participants: {participants}",
            f"Turns: {len(messages)}"
            + (f" ({omitted} left out of this transcript for length)" if omitted else ""),
        ]
        user = "\n".join(header) + "\n\nTranscript:\n" + transcript
        return [{"role": "system", "content": summarize_prompt()},
                {"role": "user", "content": user}], omitted

    def summarize(
        self, scope: str, messages: Sequence[Message]
    ) -> tuple[SessionSummary, Extraction]:
        """Ask the model for the session's summary and extraction.

        Raises ``ValueError`` for an empty session and the ``LLMError`` family when the
        model cannot be reached or gives no valid answer (the caller's queue retries).
        """
        messages = list(messages)
        if not messages:
            raise ValueError("summarize() needs at least one message")
        chat, omitted = self.prompt(scope, messages)
        data = complete_json(
            self.llm, chat, SUMMARY_SCHEMA, repairs=self.repairs, max_tokens=self.max_output_tokens
        )
        extraction = self._extraction(data, messages, omitted)
        summary = SessionSummary(
            topic=_clean(data.get("topic"), 200),
            context=_clean(data.get("context"), 2000),
            decisions=_strings(data.get("decisions")),
            rationale=_strings(data.get("rationale")),
            open_questions=_strings(data.get("open_questions")),
            next_steps=_strings(data.get("next_steps")),
            action_items=_strings(data.get("action_items")),
            references=_strings(data.get("references"), limit=40),
            entities=tuple(e.name for e in extraction.entities)[:40],
            topic_tags=_strings((t.lower() for t in _tags(data.get("topic_tags"))), 10, 60),
            time_start=min(m.at for m in messages),
            time_end=max(m.at for m in messages),
            participants=tuple(dict.fromkeys(m.speaker or m.role for m in messages)),
            turn_count=len(messages),
            model=self.model,
        )
        return summary, extraction

    def _extraction(
        self, data: dict[str, Any], messages: list[Message], omitted: int
    ) -> Extraction:
        by_seq = {m.seq: m for m in messages}
        # A model can claim facts about people the session never mentions: a fact, relation
        # or entity must name something a turn said (or the user, a participant, the team).
        said = _GENERIC | _words(" ".join(f"{m.text} {m.speaker or ''}" for m in messages))
        unsaid: dict[str, None] = {}
        # who "the user" is: the speaker of the fact's turn when the user's turns carry names
        # (facts of two people never one subject's, so one never supersedes the other), the
        # one person when only one speaks, else ``user`` (session 19)
        person = {m.seq: speaker_subject(m) for m in messages if m.role == "user"}
        people = set(person.values())
        alone = next(iter(people)) if len(people) == 1 else "user"
        entities: dict[str, Entity] = {}
        for e in data.get("entities") or ():
            if isinstance(e, str):  # a name alone
                e = {"name": e}
            name = _clean(e.get("name"))
            key = name_key(name)
            if not key or key in entities:
                continue
            if not _said(name, said):
                unsaid.setdefault(name, None)
                continue
            kind = _clean(e.get("type"), 40).lower() or "thing"
            entities[key] = Entity(name, kind, _clean(e.get("context"), 200))

        facts: dict[tuple[str, str, str], Fact] = {}
        for f in data.get("facts") or ():
            seq = _turn_of(f.get("turn"), by_seq)
            subject = _subject(_clean(f.get("subject")), person.get(seq, alone) if seq is not None else alone)
            predicate = normalize_predicate(_clean(f.get("predicate"), 100))
            obj = _clean(f.get("object"), 400)
            if not subject or not predicate or not obj:
                continue
            if not _said(subject, said):
                unsaid.setdefault(subject, None)
                continue
            source = _clean(f.get("source"), 40).lower() or "stated"
            if source not in _SOURCES:
                source = "inferred"
            text = _sentence_with(by_seq[seq].text, obj) if seq is not None else ""
            fact_key = (name_key(subject), predicate, normalize_value(obj))
            facts.setdefault(fact_key, Fact(subject, predicate, obj, source, seq, text))

        relations: dict[tuple[str, str, str], Relation] = {}
        for r in data.get("relations") or ():
            src = _subject(_clean(r.get("from")), alone)
            rel = normalize_predicate(_clean(r.get("relation"), 100))
            dst = _subject(_clean(r.get("to")), alone)
            if src and rel and dst:
                if not (_said(src, said) and _said(dst, said)):
                    unsaid.setdefault(src if not _said(src, said) else dst, None)
                    continue
                seq = _seq_of(facts.values(), src, rel, dst)
                relations.setdefault((name_key(src), rel, name_key(dst)),
                                     Relation(src, rel, dst, seq))
        observations: dict[str, Observation] = {}
        for o in data.get("observations") or ():
            if isinstance(o, str):  # a text alone
                o = {"text": o}
            text = _clean(o.get("text"), 240)
            seq = _turn_of(o.get("turn"), by_seq)
            if text and len(observations) < MAX_OBSERVATIONS:
                observations.setdefault(text.lower(), Observation(text, seq))
        extra: dict[str, Any] = {"backend": self.name}
        if omitted:
            extra["turns_omitted"] = omitted
        if unsaid:
            extra["unsaid"] = list(unsaid)
            log.warning("%s named what the session never mentions; its facts, relations and "
                        "entities about it are left out: %s", self.name,
                        ", ".join(repr(n) for n in list(unsaid)[:5]))
        return Extraction(tuple(entities.values()), tuple(facts.values()),
                          tuple(relations.values()), extra,
                          observations=tuple(observations.values()))


def _tags(value: Any) -> list[str]:
    """Topic tags: a list, or one string of them ("billing, invoices; refunds")."""
    if isinstance(value, str):
        return [t for t in re.split(r"[,;]", value) if t.strip()]
    return list(value or ())


def _turn_of(value: Any, by_seq: Mapping[int, Message]) -> int | None:
    """The turn a fact or observation names, when it is one of the session's: a number,
    or a string holding one ("3", "[3]", "turn 3")."""
    if isinstance(value, str):
        digits = re.fullmatch(r"\s*(?:turn\s*)?\[?\s*(\d{1,9})\s*\]?\s*", value, re.IGNORECASE)
        value = int(digits.group(1)) if digits else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    seq = int(value)
    return seq if seq in by_seq else None


def _seq_of(facts: Iterable[Fact], src: str, rel: str, dst: str) -> int | None:
    """The turn of a fact saying the same as a relation, when there is one."""
    for f in facts:
        if (name_key(f.subject), f.predicate, name_key(f.object)) == (
            name_key(src), rel, name_key(dst)
        ):
            return f.seq
    return None
