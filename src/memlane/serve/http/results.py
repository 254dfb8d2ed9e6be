"""The 200 answer of every route, as ``/openapi.json`` publishes it (session 23).

Session 22 named the results of search, pack and messages; every other route's 200 had an
empty schema (``{}``), as the handlers answer a ``JSONResponse`` built from the library's
dataclasses and dicts, which FastAPI knows nothing of. The models here describe what the
handlers (``actions.py``) really answer: the library's dataclasses (``Message``,
``Session``, ``Item``, ``Hit``, ``Pack``, ``FactView``, ``StoredEntity``, ``IndexReport``)
by pydantic's serialization schema of them, so they follow the types, and the dicts the
handlers build by a model each. ``tests/serve/http/test_openapi_results.py`` calls every
route of the document and validates each real answer against its schema, every object
closed (an unlisted key fails) and every listed key required, so the document cannot drift
from what the service answers.

The published schemas stay open to keys added later (``additionalProperties`` is not
false): a client generated from this version keeps working against the next.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Annotated, Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import models_json_schema

from memlane.index.facts import FactView
from memlane.pack.packer import Pack, PackEntry
from memlane.types import Hit, IndexReport, Item, Message, Session, StoredEntity

__all__ = ["BY_KIND", "BY_ROUTE", "schemas"]


class _Out(BaseModel):
    # every field is in every answer (null when unset): required in the document
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


class Healthz(_Out):
    ok: Literal[True]


class Readyz(_Out):
    ok: Literal[True]
    backend: str = Field(description="sqlite or postgres")


class AddResult(_Out):
    messages: list[Message] = Field(description="Each message as stored, in the order sent "
                                                "(a message sent again: the stored one).")
    already_stored: list[bool] = Field(description=(
        "One per message, in the order sent: true when its id named a message the scope "
        "already held and this request stored nothing for it (a retry), false when it was "
        "stored now."))


class SearchResult(_Out):
    query: str
    hits: list[Hit] = Field(description="Best first: each item, its session and its scores.")
    notice: str | None = Field(description="Why nothing was found; null when something was.")


class UpsertResult(_Out):
    id: int = Field(description="The item's id (the stored one when dedupe found it).")
    item: Item


class Closed(_Out):
    closed: list[int] = Field(description="The ids of the sessions closed (none: []).")


NextOffset = Annotated[int | None, Field(description="The offset of the next page; null after "
                                                  "the last and on a page read by cursor.")]
NextCursor = Annotated[str | None, Field(description="The cursor of the next page (pass it as "
                                                  "cursor); null after the last.")]
PrevCursor = Annotated[str | None, Field(description="The cursor of the page before (pass it "
                                                  "as before); null on the first.")]
"""A listing's paging keys (``SessionList``, ``FactList``): one wording for both."""


class SessionList(_Out):
    sessions: list[Session] = Field(description="Newest first.")
    next_offset: NextOffset
    next_cursor: NextCursor
    prev_cursor: PrevCursor


class SessionFact(_Out):
    id: int
    item_id: int | None
    subject: str
    predicate: str
    object: str
    source: str
    seq: int | None = Field(description="The turn it was read from.")
    status: str


class SessionEntity(_Out):
    name: str
    type: str


class Observation(_Out):
    id: int
    text: str
    seq: int | None


class SessionShow(_Out):
    session: Session
    messages: list[Message]
    next_turn: int | None = Field(description="The turn to ask for next (from_turn); null "
                                              "after the last.")
    summary: dict[str, Any] | None = Field(description="The structured summary (its shape "
                                                       "is its schema_version's); null "
                                                       "before the session is summarized.")
    facts: list[SessionFact]
    entities: list[SessionEntity]
    relations: list[list[str]] = Field(description="[source, relation, target] each.")
    observations: list[Observation]


class FactList(_Out):
    facts: list[FactView]
    next_offset: NextOffset
    next_cursor: NextCursor
    prev_cursor: PrevCursor


class FactEvent(_Out):
    fact_id: int
    kind: str = Field(description="added, reinforced, superseded, forgotten, …")
    other_id: int | None
    session_id: int | None
    message_id: int | None = Field(description="The message (turn) whose statement made the "
                                               "event; null when no one turn did.")
    at: datetime


def _extended(name: str, base: type, **more: Any) -> type[_Out]:
    """A model of dataclass ``base``'s fields, in order, and ``more`` after them: an answer
    that is a library type with keys added (a fact with its events) follows the type."""
    hints = get_type_hints(base)
    fields: dict[str, Any] = {f.name: (hints[f.name], ...) for f in dataclasses.fields(base)}
    return create_model(name, __base__=_Out, **fields, **more)


# a fact of its history: the FactView facts.list answers, with its events
HistoryEntry = _extended("HistoryEntry", FactView, events=(list[FactEvent], ...))


class FactHistory(_Out):
    history: list[HistoryEntry] = Field(description="Oldest first.")  # type: ignore[valid-type]


class Forgotten(_Out):
    forgotten: int = Field(description="The id of the fact erased.")


class EraseCounts(_Out):
    sessions: int
    messages: int
    items: int
    vectors: int
    cached_vectors: int
    facts: int
    fact_events: int
    entities: int
    relations: int
    packs: int
    changes: int


class Erased(_Out):
    scope: str
    session_id: int | None = Field(description="The session erased; null for a scope.")
    erased: bool = Field(description="Whether anything was deleted.")
    counts: EraseCounts


class SupersededRelation(_Out):
    scope: str
    source: str
    relation: str
    target: str
    replaced_by: str


class Graph(_Out):
    entity: list[StoredEntity] = Field(description="The entity's node in each scope.")
    relations: list[list[str]] = Field(description="[scope, source, relation, target] each.")
    items: list[Item] = Field(description="The items that mention it.")
    superseded: list[SupersededRelation]


class PackReplay(_Out):
    id: int
    query: str
    scope: str | None
    budget: int
    used: int
    text: str
    entries: list[PackEntry]
    config: dict[str, Any] = Field(description="The pack settings it was built with.")
    created_at: datetime
    token_counter: str
    notice: str | None


class SummaryQueue(_Out):
    pending: int
    leased: int
    failed: int
    done: int


def _avg_optional(schema: dict[str, Any]) -> None:
    schema["required"].remove("summary_ms_avg")


class Stats(_Out):
    model_config = ConfigDict(json_schema_serialization_defaults_required=True,
                              json_schema_extra=_avg_optional)

    backend: str
    db: str
    messages: int
    scopes: int
    sessions: dict[str, int] = Field(description="Sessions by status.")
    sessions_unindexed: int
    items: dict[str, int] = Field(description="Items by kind.")
    vectors: dict[str, int] = Field(description="Vectors by embedding model.")
    embed_cache: int
    counters: dict[str, int]
    migrations: list[str]
    summary_queue: SummaryQueue
    summary_leased_until: datetime | None
    summary_ms_avg: float = Field(default=0.0, description="Present once a session was "
                                                           "summarized.")


RESULTS: dict[str, type[Any]] = {
    "memory.add": AddResult, "memory.search": SearchResult, "memory.pack": Pack,
    "memory.upsert": UpsertResult, "index": IndexReport, "sessions.list": SessionList,
    "sessions.close": Closed, "sessions.show": SessionShow, "sessions.forget": Erased,
    "scopes.forget": Erased, "facts.list": FactList, "facts.history": FactHistory,
    "facts.forget": Forgotten, "graph.show": Graph, "packs.show": PackReplay, "stats": Stats,
}
"""The result of each action kind (``actions.ACTIONS``): its REST route's 200 body, and
``result`` of ``POST /actions`` for that kind."""

OWN: dict[tuple[str, str], type[Any]] = {("get", "/healthz"): Healthz,
                                         ("get", "/readyz"): Readyz}


def _wrapped(cls: type[Any]) -> type[BaseModel]:
    """A model holding ``cls`` (a dataclass), so the document's schemas are all made in one
    pass with one set of names."""
    return type(f"_{cls.__name__}", (_Out,), {"__annotations__": {"value": cls}})


def schemas() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """``(schema of each result by name, the components they refer to)``."""
    models: list[type[BaseModel]] = []
    for cls in {*RESULTS.values(), *OWN.values()}:
        models.append(cls if isinstance(cls, type) and issubclass(cls, BaseModel)
                      else _wrapped(cls))
    by_model, top = models_json_schema([(m, "serialization") for m in models],
                                       ref_template="#/components/schemas/{model}")
    components: dict[str, Any] = top.get("$defs", {})
    named: dict[str, dict[str, Any]] = {}
    for (m, _), schema in by_model.items():
        if m.__name__.startswith("_"):  # a dataclass: the schema of its value
            name = m.__name__[1:]
            named[name] = {"$ref": f"#/components/schemas/{name}"}
            components.pop(m.__name__, None)
        else:
            named[m.__name__] = schema
    return named, components


def _name(cls: type[Any]) -> str:
    return cls.__name__


BY_KIND = {kind: _name(cls) for kind, cls in RESULTS.items()}
BY_ROUTE = {route: _name(cls) for route, cls in OWN.items()}
