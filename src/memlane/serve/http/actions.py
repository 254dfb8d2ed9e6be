"""One handler per capability, and ``POST /actions`` that dispatches to them by ``kind``.

A handler takes the ``Memory``, the caller (``Principal``), its validated input and a
``timings`` dict it may add stages to; it checks the caller against the scope it touches
and returns plain JSON data. The REST routes (``rest.py``) call the same handlers through
``run``: one implementation, two routes.

Scope rule for objects addressed by id (a session, a fact, a pack): the object is loaded,
then its scope checked; one the key may not see answers 404 exactly as a missing one, so a
key never learns what exists in another tenant's scopes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union

import anyio
from fastapi import Body, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field, create_model

from memlane.errors import NotFoundError, ValidationError
from memlane.memory import Memory
from memlane.serve.again import once_more_if_lost
from memlane.serve.http import models as m
from memlane.serve.http.auth import Principal, principal
from memlane.serve.http.errors import TAGS, ApiError, KnownQuery
from memlane.serve.http.responses import JSONResponse
from memlane.serve.paging import fact_page, session_page
from memlane.serve.render import filters_given, hit_dict, message_dict, nothing_note, session_dict, to_plain

__all__ = ["ACTIONS", "Action", "answer", "answer_in_thread", "mount", "run", "server_timing"]


Handler = Callable[[Any, Principal, Any, dict[str, float]], Any]


@dataclass(frozen=True)
class Action:
    """A capability: its kind, input model, handler and whether it changes memory."""

    kind: str
    model: type[BaseModel]
    handler: Handler
    write: bool
    summary: str
    finds: bool = False
    """It addresses a stored object (a session, fact, pack, entity) and answers 404 when
    there is none: its route's ``responses`` list 404 (``openapi.statuses_of``)."""


ACTIONS: dict[str, Action] = {}


def action(kind: str, model: type[BaseModel], *, write: bool, summary: str,
           finds: bool = False) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        ACTIONS[kind] = Action(kind, model, fn, write, summary, finds)
        return fn
    return register


def _owned(who: Principal, scope: str | None, what: str, *, write: bool) -> None:
    """The check for an object addressed by id: 404 when the key may not see it."""
    if not who.allows(scope):
        raise ApiError(404, "not_found", f"{what} does not exist")
    who.check(scope, write=write)


# -- ingest ------------------------------------------------------------------------------
@action("memory.add", m.AddInput, write=True,
        summary="Add one message, or a batch (messages: [...]) in one transaction")
def add(mem: Memory, who: Principal, inp: m.AddInput, timings: dict[str, float]) -> Any:
    batch = inp.batch()
    for i, msg in enumerate(batch):
        try:
            who.check(msg.scope, write=True)
        except ApiError as e:
            if inp.messages is not None:
                e.field = f"messages.{i}.scope"
            raise

    # a retry without a time takes the stored message's (``Memory``, where the message is
    # stored: the look-up of its own this made before the call is gone; session 35)
    if inp.messages is None:
        one = batch[0]
        stored = [mem.add_message(one.scope, one.role, one.text, one.at, speaker=one.speaker,
                                  id=one.id, agent=one.agent, project=one.project)]
    else:
        stored = mem.add_messages([msg.model_dump(exclude_none=True) for msg in batch])
    # a retry was answered 200 like a first store, saying nothing (session 35); decided
    # where each message is stored (no look-up of its own)
    return {"messages": [message_dict(s) for s in stored],
            "already_stored": list(mem.last_already_stored)}


@action("sessions.close", m.CloseInput, write=True, finds=True,
        summary="Close a scope's open session, one session by id, or every idle one")
def close(mem: Memory, who: Principal, inp: m.CloseInput, timings: dict[str, float]) -> Any:
    if inp.idle:
        who.check(None, write=True, what="closing every idle session")
        return {"closed": mem.close_idle(inp.now)}
    if inp.session_id is not None:
        _owned(who, _session_scope(mem, inp.session_id), f"session {inp.session_id}", write=True)
        s = mem.close_session(session_id=inp.session_id)
    else:
        who.check(inp.scope, write=True)
        s = mem.close_session(inp.scope)
    return {"closed": [s.id] if s else []}


@action("index", m.IndexInput, write=True,
        summary="Close idle sessions, index closed sessions, run session intelligence")
def index(mem: Memory, who: Principal, inp: m.IndexInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=True, what="index without a scope")
    return to_plain(mem.index(inp.now, resummarize=inp.resummarize, scope=inp.scope))


# -- search and pack ---------------------------------------------------------------------
@action("memory.search", m.SearchInput, write=False,
        summary="Session-aware hybrid search with every score explained")
def search(mem: Memory, who: Principal, inp: m.SearchInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    opts = inp.options()
    hits = mem.search(inp.query, **opts)
    timings.update(mem.last_timings)
    # why nothing was found, as `memlane search --json` says it (None when something was)
    given = {n: opts.get(n) for n in ("kinds", "lanes", "agent", "project", "privacy", "since",
                                      "until")}
    notice = nothing_note(mem, inp.scope, search=True, filtered=filters_given(**given),
                          default_privacy=not given["privacy"]) if not hits else None
    return {"query": inp.query, "hits": [hit_dict(h) for h in hits], "notice": notice}


@action("memory.pack", m.PackInput, write=False,
        summary="A token-budgeted context for a query, every candidate's decision explained")
def pack(mem: Memory, who: Principal, inp: m.PackInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    started = time.perf_counter()
    p = mem.pack(inp.query, inp.tokens(), scope=inp.scope, model=inp.model,
                 instructions=inp.instructions, now=inp.now)
    total = (time.perf_counter() - started) * 1000
    timings.update(mem.last_timings if inp.query.strip() else {})
    searched = sum(timings.values())
    timings["pack_ms"] = round(max(total - searched, 0.0), 3)
    return p  # a dataclass: the JSON encoder writes it (responses.py)


@action("memory.upsert", m.UpsertInput, write=True,
        summary="Store one memory item (note, preference, plan, decision...)")
def upsert(mem: Memory, who: Principal, inp: m.UpsertInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=True)
    extra = dict(inp.extra or {})
    # "lane": "" stored the item in "semantic" and a lane given both ways kept lane and
    # dropped extra.lane, each without a word (session 33): "" is refused by upsert as any
    # other lane it does not know, and two lanes are a 422 naming the second; a null is a
    # lane not given ("extra": {"lane": null} beside "lane" was refused; session 34, fix34b)
    given = extra.pop("lane", None)
    if inp.lane is not None and given is not None:
        raise ApiError(422, "invalid_request", "extra.lane: the lane is given twice, as lane "
                       "and as extra.lane: give one of them", "extra.lane")
    lane = inp.lane if inp.lane is not None else given
    lane = "semantic" if lane is None else lane
    source = inp.source
    if isinstance(source, dict):  # the spec's provenance blob: kept, source stays "stated"
        extra["source"] = source
        source = "stated"
    if inp.keywords:
        extra["keywords"] = inp.keywords
    if inp.entities:
        extra["entities"] = inp.entities
    if inp.links:
        extra["links"] = inp.links
    topics = [t if isinstance(t, str) else t.name for t in inp.topics]
    kind = {"obs": "observation", "pref": "preference"}.get(inp.kind, inp.kind)
    item_id = mem.upsert(inp.text, kind=kind, scope=inp.scope, agent=inp.agent,
                         project=inp.project, at=inp.at, lane=lane, durability=inp.durability,
                         privacy=inp.privacy, trust=inp.trust, source=source,
                         ttl_seconds=inp.ttl_seconds, topics=topics, pinned=inp.pinned,
                         dedupe=inp.dedupe, extra=extra or None)
    return {"id": item_id, "item": to_plain(mem.item(item_id))}


# -- sessions, facts, graph, packs, stats ------------------------------------------------
def _session_scope(mem: Memory, session_id: int) -> str:
    try:
        return mem.session(session_id).scope
    except NotFoundError:
        raise ApiError(404, "not_found", f"session {session_id} does not exist") from None


@action("sessions.list", m.SessionsInput, write=False, summary="Sessions, newest first")
def sessions_list(mem: Memory, who: Principal, inp: m.SessionsInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    # sessions past the first 1,000 were on no answer, and nothing said so
    page = session_page(mem, inp.scope, inp.status, limit=inp.limit, offset=inp.offset,
                        cursor=inp.cursor, before=inp.before)
    return {"sessions": [session_dict(s) for s in page.rows],
            "next_offset": page.next_offset, "next_cursor": page.next_cursor,
            "prev_cursor": page.prev_cursor}


@action("sessions.show", m.SessionShowInput, write=False, finds=True,
        summary="One session: messages, summary, facts, entities, relations, observations")
def sessions_show(mem: Memory, who: Principal, inp: m.SessionShowInput,
                  timings: dict[str, float]) -> Any:
    _owned(who, _session_scope(mem, inp.id), f"session {inp.id}", write=False)
    messages = [x for x in mem.messages(inp.id) if x.seq >= inp.from_turn]
    shown = messages if inp.limit is None else messages[:inp.limit]
    rest = messages[len(shown):]
    return {"session": session_dict(mem.session(inp.id)),
            "messages": [message_dict(x) for x in shown],
            "next_turn": rest[0].seq if rest else None,
            **to_plain(mem.session_intelligence(inp.id))}


@action("facts.list", m.FactsInput, write=False, summary="Facts with their confidence")
def facts_list(mem: Memory, who: Principal, inp: m.FactsInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    page = fact_page(mem, inp.scope, inp.subject, include_superseded=inp.include_superseded,
                     limit=inp.limit, offset=inp.offset, cursor=inp.cursor,
                     before=inp.before)
    # the listing was cut at 1,000 facts without a word: next_offset says where it goes on
    return {"facts": [to_plain(f) for f in page.rows], "next_offset": page.next_offset,
            "next_cursor": page.next_cursor, "prev_cursor": page.prev_cursor}


@action("facts.history", m.FactHistoryInput, write=False,
        summary="Every value a subject's predicate has had, with its events")
def facts_history(mem: Memory, who: Principal, inp: m.FactHistoryInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    return {"history": to_plain(mem.fact_history(inp.subject, inp.predicate, inp.scope))}


@action("facts.forget", m.IdInput, write=True, finds=True,
        summary="Hard delete a fact with its item, vector and lexical rows, and the relations that restate it")
def facts_forget(mem: Memory, who: Principal, inp: m.IdInput, timings: dict[str, float]) -> Any:
    try:
        scope = mem.store.get_fact(inp.id).scope
    except NotFoundError:
        raise ApiError(404, "not_found", f"fact {inp.id} does not exist") from None
    _owned(who, scope, f"fact {inp.id}", write=True)
    mem.forget_fact(inp.id)
    return {"forgotten": inp.id}


@action("scopes.forget", m.ScopeInput, write=True,
        summary="Erase a whole scope: sessions, messages, items, facts, entities, packs")
def scopes_forget(mem: Memory, who: Principal, inp: m.ScopeInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=True)
    return mem.forget_scope(inp.scope).to_dict()


@action("sessions.forget", m.IdInput, write=True, finds=True,
        summary="Erase one session and everything derived from it")
def sessions_forget(mem: Memory, who: Principal, inp: m.IdInput, timings: dict[str, float]) -> Any:
    _owned(who, _session_scope(mem, inp.id), f"session {inp.id}", write=True)
    try:
        return mem.forget_session(inp.id).to_dict()
    except NotFoundError:  # erased by another request meanwhile
        raise ApiError(404, "not_found", f"session {inp.id} does not exist") from None


@action("graph.show", m.GraphInput, write=False, finds=True,
        summary="An entity node, its relations and the items that mention it")
def graph_show(mem: Memory, who: Principal, inp: m.GraphInput, timings: dict[str, float]) -> Any:
    who.check(inp.scope, write=False)
    return to_plain(mem.graph(inp.entity, inp.scope))


@action("packs.show", m.IdInput, write=False, finds=True, summary="Replay a journaled pack")
def packs_show(mem: Memory, who: Principal, inp: m.IdInput, timings: dict[str, float]) -> Any:
    try:
        p = mem.replay_pack(inp.id)
    except NotFoundError:
        raise ApiError(404, "not_found", f"pack {inp.id} does not exist") from None
    _owned(who, p.get("scope"), f"pack {inp.id}", write=False)
    return to_plain(p)


@action("stats", m.EmptyInput, write=False,
        summary="Counts of messages, sessions, items, vectors; event counters; the queue")
def stats(mem: Memory, who: Principal, inp: m.EmptyInput, timings: dict[str, float]) -> Any:
    who.check(None, write=False, what="stats")
    return to_plain(mem.stats())


# -- dispatch ----------------------------------------------------------------------------
def _name_the_address(e: ApiError | NotFoundError, inp: BaseModel) -> None:
    """A 404 names the input that addressed the missing object (``id``, ``entity``,
    ``session_id``) in its ``field``, as a 400 names the bad one: it was null ("session
    9999 does not exist"; ``sessions.close``'s ``session_id`` until session 24)."""
    if isinstance(e, ApiError) and (e.status != 404 or e.field is not None):
        return
    if getattr(e, "field", None) is not None:
        return
    for name in ("id", "entity", "session_id"):  # session_id: sessions.close's address
        if name in type(inp).model_fields and getattr(inp, name, None) is not None:
            e.field = name  # type: ignore[union-attr]
            return


def run(mem: Memory, who: Principal, kind: str, inp: BaseModel) -> tuple[Any, dict[str, float]]:
    """Run one action for ``who``; returns ``(result, timings in ms)``."""
    act = ACTIONS[kind]
    if act.write and who.read_only:
        raise ApiError(403, "forbidden", f"API key {who.name!r} is read-only; {kind} changes "
                       "memory (use a key created without --read-only)", "Authorization")
    timings: dict[str, float] = {}
    started = time.perf_counter()
    try:
        # a connection the server ended mid-call (a restart, pg_terminate_backend, a
        # pooler): run it once more on a new one if that cannot do anything twice
        # a read-only key's reads write nothing (no pack journal row, no fact access)
        with mem.reading_only(who.read_only):
            result = once_more_if_lost(mem.store, kind,
                                       lambda: act.handler(mem, who, inp, timings),
                                       write=act.write, again=timings.clear)
    except (ApiError, NotFoundError) as e:
        _name_the_address(e, inp)
        raise
    timings = {k: round(v, 3) for k, v in timings.items()}
    timings["request_ms"] = round((time.perf_counter() - started) * 1000, 3)
    return result, timings


def answer(request: Request, kind: str, inp: BaseModel) -> tuple[Any, dict[str, float]]:
    """``run`` for a route's request, recording its metrics.

    The caller is authenticated here, in the handler's own worker thread: a request makes
    one hop to the thread pool, not two (a sync dependency would make its own)."""
    app = request.app
    try:
        result, timings = run(app.state.memory, principal(request), kind, inp)
    except ValidationError as e:  # the field as the client wrote it: ttl_s, not ttl_seconds
        head, _, rest = (e.field or "").partition(".")
        alias = getattr(type(inp).model_fields.get(head), "alias", None)
        if alias:
            e.field = alias + ("." + rest if rest else "")
        raise
    finally:
        app.state.memory.store.release_if_crowded()  # this thread is going idle
    metrics = getattr(app.state, "metrics", None)
    if metrics is not None:
        if kind in ("memory.search", "memory.pack"):
            metrics.observe_timings(timings)
        elif kind == "memory.add":
            metrics.ingested.inc(len(result["messages"]))
    return result, timings


async def answer_in_thread(request: Request, kind: str,
                           inp: BaseModel) -> tuple[Any, dict[str, float]]:
    """``answer`` in a worker thread, holding a token of the app's read or write limiter
    (``serve.threads`` each): requests beyond them wait in the event loop, not in threads
    contending for the interpreter. Reads never queue behind writers waiting for the
    database. With ``serve.db_connections`` set, it holds a token of the thread pool's own
    limiter too (``app.state.connections``), so that every thread of the process counts."""
    limiters = getattr(request.app.state, "limiters", None)
    limiter = None if limiters is None else limiters[1 if ACTIONS[kind].write else 0]
    cap = getattr(request.app.state, "connections", None)  # serve.db_connections
    if cap is None:
        return await anyio.to_thread.run_sync(answer, request, kind, inp, limiter=limiter)
    async with cap:
        return await anyio.to_thread.run_sync(answer, request, kind, inp, limiter=limiter)


def server_timing(timings: dict[str, float]) -> str:
    """The ``Server-Timing`` header of a response (each stage's milliseconds)."""
    return ", ".join(f"{k.removesuffix('_ms')};dur={v}" for k, v in timings.items())


def _request_model() -> Any:
    """``{"kind": ..., "input": {...}}`` for every action, discriminated by ``kind``."""
    variants = []
    for kind, act in ACTIONS.items():
        name = "Action_" + kind.replace(".", "_")
        variants.append(create_model(
            name, __config__=ConfigDict(extra="forbid"), __doc__=act.summary,
            kind=(Literal[kind], ...),  # type: ignore[arg-type]
            # an absent input is {} validated as the input (validate_default): built by a
            # default_factory, its errors had no "input" in their location, so
            # {"kind": "memory.search"} named "query", not "input.query"
            input=(act.model, Field(default_factory=dict, validate_default=True)),
        ))
    return Annotated[Union[tuple(variants)], Field(discriminator="kind")]  # noqa: UP007


ActionRequest = _request_model()
TAGS.update(ACTIONS)


class ActionResponse(BaseModel):
    ok: bool = True
    result: Any
    timings: dict[str, float]


def mount(app: FastAPI) -> None:
    """``POST /actions``."""

    @app.post("/actions", tags=["actions"], response_model=ActionResponse,
              summary="Run one action: " + ", ".join(ACTIONS), dependencies=[KnownQuery])
    async def actions(body: Annotated[ActionRequest, Body()],  # type: ignore[valid-type]
                      request: Request) -> JSONResponse:
        try:
            result, timings = await answer_in_thread(request, body.kind, body.input)  # type: ignore[attr-defined]
        except ValidationError as e:  # name the field as the client sent it: input.<field>
            e.field = f"input.{e.field}" if e.field else "input"
            raise
        except (ApiError, NotFoundError) as e:  # a 404's address, as sent: input.id
            # and a path into the input (a batch's messages.3.scope, refused 403: it was
            # answered without input., session 27); a 403's scope and Authorization name
            # what is refused, not where
            field = getattr(e, "field", None)
            if field is not None and (not isinstance(e, ApiError) or e.status == 404
                                      or "." in field):
                e.field = f"input.{field}"  # type: ignore[union-attr]
            raise
        return JSONResponse({"ok": True, "result": result, "timings": timings},
                            headers={"Server-Timing": server_timing(timings)})
