"""The input of every action, as pydantic models: they give ``/openapi.json`` its schemas
and turn bad input into a 422 naming the field. Unknown fields are refused (a misspelt
option must not be silently ignored).

Where the overlay spec's request shapes differ from memlane's names, both are accepted:
``agent_id`` / ``project_id``, ``filters: {kinds, lanes, privacy}``, ``budget:
{max_tokens}``, ``ttl_s``, ``topics: [{name, weight}]``, ``source: {uri, tool, …}``.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from memlane.cursor import MAX_CURSOR
from memlane.ingest.validate import Whole
from memlane.retrieve.options import clash_text, flat_by_call
from memlane.types import (
    DURABILITIES,
    ENGINE_LANES,
    KINDS,
    LANES,
    PRIVACIES,
    SOURCES,
    UPSERT_KINDS,
)

__all__ = [
    "AddInput", "CloseInput", "EmptyInput", "FactHistoryInput", "FactsInput", "GraphInput",
    "IdInput", "IndexInput", "MessageIn", "PackInput", "SearchInput", "SessionsInput",
    "UpsertInput",
]

def _scope() -> Any:
    # no length of its own: memlane's rule (1-256 characters after trimming, one line)
    # applies, as through the library, the CLI and MCP (a 400 naming the field)
    return Field(default=None, min_length=1,
                 description="Conversation key (a chat, a channel, a user).")


def _cursor() -> Any:
    # checked by memlane (memlane.cursor: a 400 naming cursor), as through the library
    return Field(default=None, min_length=1, max_length=MAX_CURSOR, description=(
        "The next_cursor of the previous page: reads on after its last row, however many "
        "rows were added or removed before it (offset would repeat or skip rows). Not "
        "with an offset other than 0, nor in another scope's or subject's listing."))


def _before() -> Any:
    # checked by memlane (memlane.cursor.read_before: a 400 naming before)
    return Field(default=None, min_length=1, max_length=MAX_CURSOR, description=(
        "The prev_cursor of a page: lists the rows just before its first one (a page "
        "back), in the listing's order. Not with cursor or an offset other than 0, nor "
        "in another scope's or subject's listing."))


def _members(annotation: Any) -> tuple[Any, ...]:
    """The types a field admits at its top level (``Annotated`` and unions unwrapped)."""
    if get_origin(annotation) is Annotated:
        return _members(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return tuple(t for arg in get_args(annotation) for t in _members(arg))
    return (annotation,)


@cache
def _refuses_bool(model: type[BaseModel], name: str) -> bool:
    """Whether field ``name`` is a number (or a time) that a JSON true/false must not fill."""
    kinds = _members(model.model_fields[name].annotation)
    return (any(t in (int, float) for t in kinds)
            and not any(t is bool or t is Any for t in kinds))


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _one_name_each(cls, data: Any) -> Any:
        # a field taken by two names (agent and the overlay spec's agent_id, ttl_seconds
        # and ttl_s) given by both was "agent: Extra inputs are not permitted": true of
        # pydantic's aliases, silent that the two are one parameter (session 33)
        # A null is a field not given (as beside a batch): "agent": null beside "agent_id":
        # "x" was refused as the parameter given twice (session 34, fix34b)
        if isinstance(data, dict):
            for name, f in cls.model_fields.items():
                if f.alias and f.alias != name and name in data and f.alias in data:
                    if data[name] is not None and data[f.alias] is not None:
                        raise _rule(f.alias, f"the same parameter as {name}; give one of them")
                    data = {k: v for k, v in data.items()  # the null one, as if left out
                            if k != (name if data[name] is None else f.alias)}
        return data

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        # pydantic reads true as 1 and false as 0 for an int or float field: "at": true
        # stored a message at 1970-01-01T00:00:01Z, "ttl_s": true expired a note after 1 s,
        # "k": true asked for one hit. memlane refuses booleans for numbers everywhere.
        if isinstance(value, bool) and info.field_name and _refuses_bool(cls, info.field_name):
            what = ("an ISO-8601 time or epoch seconds" if str in _members(
                cls.model_fields[info.field_name].annotation) else "a number")
            raise PydanticCustomError("bool_for_number",
                                      f"Input should be {what}, not true or false")
        return value


def _rule(field: str, message: str) -> PydanticCustomError:
    """A rule over several fields broken: the error names ``field`` (``errors.from_pydantic``
    reads it from the context). A ``ValueError`` raised by a model validator has no
    location, so ``{}`` to ``/v1/messages`` was a 422 whose ``field`` was null."""
    return PydanticCustomError("field_rule", message, {"field": field})


def _one_of(choices: tuple[str, ...], default: Any = None) -> Any:
    """A text field taking one of ``choices``, said in the document (``enum``): it was a
    bare string, so a client built from ``/openapi.json`` sent any text and met a 400. The
    check stays memlane's own (a 400 naming the field and the choices)."""
    return Field(default=default, json_schema_extra=_in_member("string", {"enum": list(choices)}))


def _some_of(choices: tuple[str, ...]) -> Any:
    """A list of ``choices`` (``kinds``, ``lanes``, ``privacy`` filters), said likewise."""
    return Field(default=None, json_schema_extra=_in_member(
        "array", {"items": {"type": "string", "enum": list(choices)}, "minItems": 1}))


def _in_member(kind: str, extra: dict[str, Any]) -> Any:
    """Put ``extra`` in the ``kind`` member of a field's schema (a nullable field's is in
    its ``anyOf``), not beside it."""
    def edit(schema: dict[str, Any]) -> None:
        for member in schema.get("anyOf", [schema]):
            if member.get("type") == kind:
                member.update(extra)
    return edit


class EmptyInput(_In):
    """No input."""


class MessageIn(_In):
    """One message."""

    scope: str = Field(min_length=1)
    role: Literal["user", "assistant", "system", "tool"] = "user"
    text: str
    at: str | float | None = Field(default=None, description="ISO-8601 or epoch seconds; default now.")
    speaker: str | None = None
    id: str | None = Field(default=None, description="Your id (unique per scope).")
    agent: str | None = Field(default=None, alias="agent_id")
    project: str | None = Field(default=None, alias="project_id")


class AddInput(_In):
    """One message (its fields) or a batch (``messages``), stored in one transaction."""

    messages: list[MessageIn] | None = Field(default=None, min_length=1, max_length=10_000)
    scope: str | None = _scope()
    role: Literal["user", "assistant", "system", "tool"] = "user"
    text: str | None = None
    at: str | float | None = None
    speaker: str | None = None
    id: str | None = None
    agent: str | None = Field(default=None, alias="agent_id")
    project: str | None = Field(default=None, alias="project_id")

    @model_validator(mode="after")
    def _one_or_many(self) -> AddInput:
        if self.messages is None:
            if self.scope is None or self.text is None:
                missing = "scope" if self.scope is None else "text"
                raise _rule(missing, f"{missing} is required (or pass messages: [...] for a "
                            "batch)")
        elif self.text is not None:
            raise _rule("messages", "pass either one message (scope, text, ...) or messages, "
                        "not both")
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _nothing_beside_a_batch(cls, data: Any, handler: Any) -> AddInput:
        # a message's field beside a batch was dropped without a word: "role": "assistant"
        # or an "at" stored each message as the user's, now (session 33). Judged on the
        # body as sent, once every field is valid, so that the refusal names the field as
        # the body spelt it ("agent_id" was named "agent"; session 34, fix34b); a null is a
        # field not given
        model: AddInput = handler(data)
        if model.messages is not None and isinstance(data, dict):
            for name, f in cls.model_fields.items():
                for spelt in dict.fromkeys((name, f.alias or name)):
                    if name != "messages" and data.get(spelt) is not None:
                        raise _rule(spelt, f"a batch takes each message's own {spelt}: give "
                                    "it inside each of messages, not beside them")
        return model

    def batch(self) -> list[MessageIn]:
        if self.messages is not None:
            return self.messages
        assert self.scope is not None and self.text is not None
        return [MessageIn.model_validate(self.model_dump(exclude={"messages"}))]


class Filters(_In):
    """The overlay spec's ``filters`` object."""

    kinds: list[str] | None = _some_of(KINDS)
    lanes: list[str] | None = _some_of(LANES)
    privacy: list[str] | None = _some_of(PRIVACIES)


class SearchInput(_In):
    """``memlane search``: every filter, preset and ``explain``."""

    query: str = Field(max_length=10_000)
    scope: str | None = _scope()
    k: Annotated[int, Whole(1, 1000)] | None = None
    kinds: list[str] | None = _some_of(KINDS)
    lanes: list[str] | None = _some_of(LANES)
    agent: str | None = Field(default=None, alias="agent_id")
    project: str | None = Field(default=None, alias="project_id")
    privacy: list[str] | None = _some_of(PRIVACIES)
    since: str | float | None = None
    until: str | float | None = None
    now: str | float | None = None
    preset: str | None = None
    session_aware: bool | None = None
    top_sessions: Annotated[int, Whole(1, 1000)] | None = None
    turns_per_session: Annotated[int, Whole(1, 1000)] | None = None
    mmr: bool | None = None
    explain: bool = False
    filters: Filters | None = None

    @model_validator(mode="after")
    def _each_filter_once(self) -> SearchInput:
        # kinds and filters.kinds (the overlay spec's name) both given: filters' won
        # without a word, whatever kinds said (session 33)
        if self.filters is not None:
            for name in ("kinds", "lanes", "privacy"):
                if getattr(self, name) is not None and getattr(self.filters, name) is not None:
                    raise _rule(f"filters.{name}", f"{name} is given twice, as {name} and as "
                                f"filters.{name}: give one of them")
        # ranked flat by this request, top_sessions (session 33) or session_aware true
        # (session 34) was dropped without a word
        clash = flat_by_call(self.preset, self.session_aware, top_sessions=self.top_sessions,
                             turns_per_session=self.turns_per_session)
        if clash is not None:
            option, cause = clash
            off = "session_aware false" if cause == "session_aware" else f"preset {self.preset!r}"
            name = "session_aware true" if option == "session_aware" else option
            raise _rule(option, clash_text(option, name, off))
        return self

    def options(self) -> dict[str, Any]:
        out = self.model_dump(exclude={"query", "filters"})
        if self.filters is not None:
            for name in ("kinds", "lanes", "privacy"):
                value = getattr(self.filters, name)
                if value is not None:
                    out[name] = value
        return out


class Budget(_In):
    """The overlay spec's ``PackBudget``."""

    max_tokens: Annotated[int, Whole(16, 1_000_000)]


class PackInput(_In):
    """``memlane pack``."""

    query: str = Field(max_length=10_000)
    budget: Annotated[int, Whole(16, 1_000_000)] | Budget | None = Field(
        default=None, description="Tokens (at least 16), or {max_tokens}.")
    scope: str | None = _scope()
    model: str | None = None
    instructions: str | None = Field(default=None, max_length=100_000)
    now: str | float | None = None

    def tokens(self) -> int | None:
        return self.budget.max_tokens if isinstance(self.budget, Budget) else self.budget


class Topic(_In):
    name: str
    weight: float | None = None


class UpsertInput(_In):
    """``memory.upsert``: one memory item (note, preference, plan, decision…)."""

    text: str
    kind: str = _one_of(UPSERT_KINDS, "note")
    scope: str | None = _scope()
    agent: str | None = Field(default=None, alias="agent_id")
    project: str | None = Field(default=None, alias="project_id")
    at: str | float | None = None
    lane: str | None = _one_of(tuple(x for x in LANES if x not in ENGINE_LANES))
    durability: str = _one_of(DURABILITIES, "long")
    privacy: str = _one_of(PRIVACIES, "private")
    trust: float = Field(default=1.0, ge=0.0, le=1.0)
    source: str | dict[str, Any] = _one_of(SOURCES, "stated")
    ttl_seconds: Annotated[int, Whole(1)] | None = Field(default=None, alias="ttl_s")
    topics: list[str | Topic] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    entities: list[str | dict[str, Any]] = Field(default_factory=list)
    links: dict[str, list[Any]] | None = None
    pinned: bool = False
    dedupe: bool = False
    extra: dict[str, Any] | None = None


class SessionsInput(_In):
    """``memlane sessions list``: ``limit`` sessions, newest first, from the ``offset``-th
    on, after ``cursor`` or just before ``before`` (as ``FactsInput``)."""

    scope: str | None = _scope()
    status: Literal["open", "closed", "summarized", "failed"] | None = None
    limit: Annotated[int, Whole(1, 1000)] = 50
    offset: Annotated[int, Whole(0)] = 0
    cursor: str | None = _cursor()
    before: str | None = _before()


class IdInput(_In):
    """One object by id."""

    id: Annotated[int, Whole(1)]


class SessionShowInput(IdInput):
    """One session; its messages from turn ``from_turn`` on, ``limit`` of them (every one
    by default). The answer's ``next_turn`` is the turn to ask for next (null after the
    last): a session of 100,000 messages was one answer, with no way to read it in parts."""

    from_turn: Annotated[int, Whole(1)] = 1
    limit: Annotated[int, Whole(1, 100_000)] | None = None


class ScopeInput(_In):
    """One scope (``DELETE /v1/scopes/{scope}``)."""

    scope: str = Field(min_length=1)


class CloseInput(_In):
    """``memlane sessions close``: a scope's open session, one session, or every idle one."""

    scope: str | None = _scope()
    session_id: Annotated[int, Whole(1)] | None = None
    idle: bool = False
    now: str | float | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> CloseInput:
        given = [n for n in ("scope", "session_id") if getattr(self, n) is not None]
        if self.idle:
            given.append("idle")
        if len(given) != 1:
            raise _rule(given[-1] if given else "scope",
                        "pass exactly one of scope, session_id or idle")
        if self.now is not None and not self.idle:
            # the time idle sessions are measured at: with scope or session_id it was
            # dropped without a word (the CLI refuses --now without --idle; session 33)
            raise _rule("now", "now goes with idle (the time idle sessions are measured at)")
        return self


class IndexInput(_In):
    """``memlane index``; with ``scope``, that scope's sessions only (a key holding it
    may); without, every scope (a key holding ``*``)."""

    scope: str | None = _scope()
    now: str | float | None = None
    resummarize: bool = False


class FactsInput(_In):
    """``memlane facts list``: ``limit`` facts from the ``offset``-th on, after
    ``cursor`` or just before ``before`` (the answer's ``next_offset`` and ``next_cursor``
    read on, null after the last; its ``prev_cursor`` reads back, null on the first)."""

    scope: str | None = _scope()
    subject: str | None = None
    include_superseded: bool = False
    limit: Annotated[int, Whole(1, 100_000)] = 1000
    offset: Annotated[int, Whole(0)] = 0
    cursor: str | None = _cursor()
    before: str | None = _before()


class FactHistoryInput(_In):
    """``memlane facts history``."""

    subject: str = Field(min_length=1)
    predicate: str = Field(min_length=1)
    scope: str | None = _scope()


class GraphInput(_In):
    """``memlane graph show``."""

    entity: str = Field(min_length=1)
    scope: str | None = _scope()
