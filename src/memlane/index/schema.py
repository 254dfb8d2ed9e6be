"""The structured products of session intelligence: summary, entities, facts, relations."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = [
    "MAX_OBSERVATIONS",
    "SUMMARY_SCHEMA",
    "SUMMARY_SCHEMA_VERSION",
    "Entity",
    "Extraction",
    "Fact",
    "Observation",
    "Relation",
    "SessionSummary",
]

SUMMARY_SCHEMA_VERSION = 3
"""Bump when the summary's shape or the way it is written changes: older ones are redone
(when asked: ``index(resummarize=True)``).
2: observations (the user's statements about themselves) are extracted.
3: offline cues — one field per sentence, agreements make decisions, owners on action
items, participants as entities, decisions as facts."""


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """The structured summary of one session."""

    topic: str
    context: str
    decisions: tuple[str, ...] = ()
    rationale: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    next_steps: tuple[str, ...] = ()
    action_items: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    topic_tags: tuple[str, ...] = ()
    time_start: datetime | None = None
    time_end: datetime | None = None
    participants: tuple[str, ...] = ()
    turn_count: int = 0
    model: str = "offline"
    schema_version: int = SUMMARY_SCHEMA_VERSION

    def header(self, scope: str) -> str:
        """The contextual header that both summaries and queries are embedded with."""
        when = ""
        if self.time_start is not None:
            when = self.time_start.strftime("%Y-%m-%d")
            if self.time_end is not None and self.time_end.date() != self.time_start.date():
                when += " to " + self.time_end.strftime("%Y-%m-%d")
        parts = [f"Conversation {scope}"]
        if when:
            parts.append(when)
        if self.participants:
            parts.append("between " + ", ".join(self.participants))
        if self.topic_tags:
            parts.append("about " + ", ".join(self.topic_tags[:5]))
        return " · ".join(parts)

    def flattened(self, scope: str) -> str:
        """Header plus every field as plain text: what is embedded and searched."""
        lines = [self.header(scope), f"Topic: {self.topic}"]
        if self.context:
            lines.append(f"Context: {self.context}")
        for label, values in (
            ("Decisions", self.decisions), ("Rationale", self.rationale),
            ("Open questions", self.open_questions), ("Next steps", self.next_steps),
            ("Action items", self.action_items), ("References", self.references),
            ("Entities", self.entities),
        ):
            if values:
                lines.append(f"{label}: " + "; ".join(values))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, datetime):  # as every time memlane answers with: …Z
                value = value.isoformat().replace("+00:00", "Z")
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class Entity:
    name: str
    type: str = "thing"
    context: str = ""


@dataclass(frozen=True, slots=True)
class Fact:
    """``subject predicate object``, with where it came from."""

    subject: str
    predicate: str
    object: str
    source: str = "stated"
    """stated | observed | inferred | system."""
    seq: int | None = None
    """The turn (1-based message position) it came from."""
    text: str = ""
    """The sentence it was read from."""


@dataclass(frozen=True, slots=True)
class Relation:
    source: str
    relation: str
    target: str
    seq: int | None = None


MAX_OBSERVATIONS = 12
"""Observations kept per session (the first ones said)."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Something the user said about themselves, as said: "I took my niece to the museum today".

    Observations are retrieval keys for the turn they came from: short, so a passing
    mention inside a long message is found by its own words and its own vector, and a
    hit on one lifts its source turn (see ``memlane.retrieve.search``).
    """

    text: str
    seq: int | None = None
    """The turn (1-based message position) it came from."""


@dataclass(frozen=True, slots=True)
class Extraction:
    entities: tuple[Entity, ...] = ()
    facts: tuple[Fact, ...] = ()
    relations: tuple[Relation, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    observations: tuple[Observation, ...] = ()
    endings: tuple[Fact, ...] = ()
    """Facts the session says have ended ("I no longer work at Acme" -> ``user works_at
    Acme``; an empty object: any value, "I quit my job"), stored as endings that retire the
    matching current values (``memlane.index.facts.end_fact``; session 22)."""


_LIST = {"type": ["array", "string", "null"], "items": {"type": "string"}}
# What models commonly write where the prompt asks for a string or a turn number, taken as
# meant rather than sent back for repair (each repair a request; a small model that always
# writes "turn": "3" failed every session): a missing type or source, a number as a
# fact's value ("age": 34), a turn as a string or null (llm_intel reads "3" as 3), null
# for a list with nothing in it, one string for a list of strings ("decisions": "Use
# Postgres"; topic tags "billing, invoices" are split at commas), a name alone for an
# entity (["Hana", "Kyoto"]) and a text alone for an observation.
_OPTIONAL = {"type": ["string", "null"]}
_VALUE = {"type": ["string", "integer", "number", "boolean"]}
_TURN = {"type": ["integer", "string", "null"]}

SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["topic", "context"],
    "properties": {
        "topic": {"type": "string"},
        "context": {"type": "string"},
        "decisions": _LIST,
        "rationale": _LIST,
        "open_questions": _LIST,
        "next_steps": _LIST,
        "action_items": _LIST,
        "references": _LIST,
        "entities": {
            "type": ["array", "null"],
            "items": {
                "type": ["object", "string"],
                "required": ["name"],
                "properties": {"name": {"type": "string"}, "type": _OPTIONAL,
                               "context": _OPTIONAL},
            },
        },
        "facts": {
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "required": ["subject", "predicate", "object"],
                "properties": {"subject": {"type": "string"}, "predicate": {"type": "string"},
                               "object": _VALUE, "source": _OPTIONAL, "turn": _TURN},
            },
        },
        "relations": {
            "type": ["array", "null"],
            "items": {
                "type": "object",
                "required": ["from", "relation", "to"],
                "properties": {"from": {"type": "string"}, "relation": {"type": "string"},
                               "to": {"type": "string"}},
            },
        },
        "observations": {
            "type": ["array", "null"],
            "items": {
                "type": ["object", "string"],
                "required": ["text"],
                "properties": {"text": {"type": "string"}, "turn": _TURN},
            },
        },
        "topic_tags": _LIST,
    },
}
"""The JSON an LLM backend must return for one session (validated, repaired, retried)."""
