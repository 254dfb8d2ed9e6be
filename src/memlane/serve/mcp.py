"""memlane as an MCP server: memory tools, resources and a prompt for coding assistants.

``build_server(memory)`` returns an ``mcp.server.mcpserver.MCPServer`` (the official SDK,
2.x) with nine tools — ``remember``, ``recall``, ``context``, ``facts``, ``fact_history``,
``forget``, ``sessions``, ``session``, ``summarize`` — the resources
``memlane://{scope}/facts`` and ``memlane://{scope}/sessions/{id}``, and the prompt
``use-memory``. ``memlane mcp`` serves it over stdio; ``memlane serve`` mounts it at ``/mcp``
(streamable HTTP) behind its API keys.

Who may reach what: a server has an optional ``ScopeAccess`` (anything with
``allows(scope) -> bool`` and ``read_only``; ``memlane.serve.http.auth.Principal`` is one,
``ScopePatterns`` matches wildcards). Over HTTP, ``access_of_request`` gives each request's
own access (its API key's), so one session can never use another key's rights. A scope
outside the access, or a write with a read-only access, is a tool error; so is any bad
argument (the message names the field) and any memlane ``ValidationError`` or
``NotFoundError``. The server itself never crashes on input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Protocol, runtime_checkable
from urllib.parse import quote

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ToolAnnotations
from pydantic import Field
from pydantic import ValidationError as PydanticValidationError

from memlane.cursor import MAX_CURSOR
from memlane.errors import MemlaneError, NotFoundError, StoreError, ValidationError
from memlane.ingest.params import MAX_BUDGET, MAX_SHORT_TEXT
from memlane.ingest.validate import Whole, check_id_text, check_scope
from memlane.memory import Memory
from memlane.serve import mcp_text as render
from memlane.serve.again import once_more_if_lost, retry_note
from memlane.serve.output import safe
from memlane.serve.keys import scope_matches
from memlane.serve.paging import fact_page, session_page
from memlane.serve.render import filters_given, no_match

__all__ = ["ReadOnlyAccess", "ScopeAccess", "ScopeCheck", "ScopePatterns", "build_server", "as_access",
           "USE_MEMORY"]


@runtime_checkable
class ScopeAccess(Protocol):
    """What a caller may reach: ``allows(scope)``, where ``None`` asks for every scope at
    once (a search or listing that names no scope), and ``read_only``."""

    @property
    def read_only(self) -> bool: ...

    def allows(self, scope: str | None) -> bool: ...


@dataclass(frozen=True)
class ScopePatterns:
    """Scopes matching any of ``patterns`` (``*`` and ``?`` wildcards, case-sensitive)."""

    patterns: tuple[str, ...] = ("*",)
    read_only: bool = False

    def allows(self, scope: str | None) -> bool:
        if scope is None:
            return "*" in self.patterns
        return any(scope_matches(scope, p) for p in self.patterns)


@dataclass(frozen=True)
class ScopeCheck:
    """Scopes a callable accepts (never every scope at once)."""

    check: Callable[[str], bool]
    read_only: bool = False

    def allows(self, scope: str | None) -> bool:
        return scope is not None and bool(self.check(scope))


@dataclass(frozen=True)
class ReadOnlyAccess:
    """Another access's scopes, for reading only: ``read_only`` given beside an access
    object whose own ``read_only`` is false (session 31: the object was taken as it was,
    and the server wrote)."""

    access: ScopeAccess
    read_only: bool = True

    @property
    def name(self) -> str | None:  # an API key's, for its refusals
        name = getattr(self.access, "name", None)
        return name if isinstance(name, str) else None

    def allows(self, scope: str | None) -> bool:
        return self.access.allows(scope)


def as_access(scopes: ScopeAccess | Sequence[str] | Callable[[str], bool] | None,
              *, read_only: bool = False) -> ScopeAccess | None:
    """``None`` (everything, unless ``read_only``), a ``ScopeAccess``, patterns or a callable;
    ``read_only`` holds whatever the form."""
    if scopes is None:
        return ScopePatterns(("*",), read_only=True) if read_only else None
    if isinstance(scopes, ScopeAccess):
        return ReadOnlyAccess(scopes) if read_only and not scopes.read_only else scopes
    if callable(scopes):
        return ScopeCheck(scopes, read_only)
    try:
        patterns = (scopes,) if isinstance(scopes, str) else tuple(scopes)
    except TypeError:
        raise ValidationError(f"scopes: expected patterns, a callable or an access object, got "
                              f"{type(scopes).__name__}", field="scopes") from None
    # an empty list reached every scope: a tenant's grants computed as none got everything
    if not patterns:
        raise ValidationError("scopes: an empty list would reach no scope; pass None for every "
                              "scope, or the patterns to reach", field="scopes")
    for i, p in enumerate(patterns):
        if not isinstance(p, str) or not p.strip():
            raise ValidationError(f"scopes.{i}: a pattern must be a non-empty string, got {p!r}",
                                  field=f"scopes.{i}")
    return ScopePatterns(patterns, read_only)


@contextmanager
def _tool_errors(address: str | None = None) -> Iterator[None]:
    """memlane's own errors (bad input, unknown ids, a failing backend) as tool errors. An
    object not found is named by ``address``, the argument that named it (``fact_id: fact
    999 does not exist``), as every other refusal names its argument (session 25)."""
    try:
        yield
    except NotFoundError as e:
        raise ToolError(f"{address}: {e}" if address else str(e)) from e
    except MemlaneError as e:
        raise ToolError(str(e)) from e


def _again_if_lost(fn: Callable[..., Any], memory: Memory, name: str, *, write: bool
                   ) -> Callable[..., Any]:
    """The tool ``fn`` run once more on a new connection when the database's was lost in
    the middle of it and that cannot do anything twice, as the service's REST routes are
    (``serve.again``); else a tool error naming the cause and whether calling again is safe
    (session 25: it was the driver's "terminating connection due to administrator command"
    alone, where the same loss under ``/v1/search`` answered). Its thread then goes idle
    and gives its connection back while the server is full (``release_if_crowded``, as
    the REST routes' do; session 26: ``/mcp``'s kept theirs until anyio ended them)."""

    @functools.wraps(fn)
    def tool(*args: Any, **kwargs: Any) -> Any:
        def call() -> Any:
            try:
                return fn(*args, **kwargs)
            except ToolError as e:  # a tool body's StoreError, judged here
                if isinstance(e.__cause__, StoreError):
                    raise e.__cause__  # its own cause is the driver's error, kept
                raise

        try:
            return once_more_if_lost(memory.store, f"MCP tool {name}", call, write=write)
        except StoreError as e:
            raise ToolError(f"{e}{retry_note(e)}") from e
        finally:
            memory.store.release_if_crowded()  # this thread is going idle

    return tool


@contextmanager
def _resource_errors(uri: str) -> Iterator[None]:
    """A resource's errors as the client should read them: a missing object or a malformed
    id is invalid params (the SDK's "not found"); so is a scope the caller may not reach
    or a malformed one, with the message naming the scope (``scope: forbidden: scope 'x' is
    outside the scopes ...``) and ``data`` holding the URI and the scope. That answer was an
    internal error (-32603), as if the server had failed. The scope is judged before any
    object is read, so the answer is the same whether the object exists or not."""
    try:
        yield
    except (NotFoundError, ValidationError) as e:  # a malformed id names no resource either
        raise ResourceNotFoundError(str(e)) from e
    except _ScopeRefused as e:
        raise MCPError(code=INVALID_PARAMS, message=str(e),
                       data={"uri": uri, "scope": e.scope}) from e
    except StoreError:
        raise  # judged by the read's ``again``: run once more, or said whether a retry is safe
    except (MemlaneError, ToolError) as e:
        raise ResourceError(str(e)) from e


class _ScopeRefused(ToolError):
    """A scope the caller may not reach (or no scope can be): ``scope`` names it."""

    def __init__(self, message: str, scope: str | None) -> None:
        super().__init__(message)
        self.scope = scope


class _Server(MCPServer):
    """``MCPServer`` whose argument errors read ``field: problem`` (pydantic's own text
    spreads one problem over three lines and a link)."""

    check_prompt_scope: Callable[[str | None, Context | None], Any] | None = None

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Context | None = None) -> Any:
        """An unknown prompt, an argument the prompt does not take, or a scope the caller
        may not reach is an invalid-params error saying so: the first two were 'Internal
        server error' with a traceback on the server's standard error, and the prompt
        told the model to use any scope it was given (one outside ``--allow``, 100,000
        characters, several lines)."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            names = ", ".join(p.name for p in self._prompt_manager.list_prompts())
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name} (the prompts "
                           f"are {names})")
        takes = [a.name for a in prompt.arguments or []]
        for field, value in (arguments or {}).items():
            if field not in takes:
                raise MCPError(code=INVALID_PARAMS, message=f"{field}: not an argument of prompt "
                               f"{name} (it takes {', '.join(takes) or 'none'})")
            if field == "scope" and self.check_prompt_scope is not None:
                try:
                    self.check_prompt_scope(value, context)
                except ToolError as e:
                    raise MCPError(code=INVALID_PARAMS, message=str(e)) from e
        return await super().get_prompt(name, arguments, context)

    async def run_stdio_async(self) -> None:
        """Over standard input and output through ``mcp_stdio.serve_stdio``: the requests
        of the one client applied in the order it sent them, and every request read
        answered before the server stops at end of input (``server.run("stdio")`` too)."""
        from memlane.serve.mcp_stdio import serve_stdio

        await serve_stdio(self)

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context | None = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is not None and isinstance(arguments, dict):
            _refuse_unknown_arguments(name, tool.parameters, arguments)
            _refuse_bools_for_numbers(name, tool.parameters, arguments)
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as e:
            cause = e.__cause__
            if not isinstance(cause, PydanticValidationError):
                raise
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}"
                + (f" (got {render.clip(repr(err['input']), 80)})"
                   if err["type"] not in ("missing", "int_range") else "")
                for err in cause.errors(include_url=False))
            raise ToolError(f"Error executing tool {name}: {problems}") from cause
        for i, part in enumerate(getattr(result, "content", None) or []):
            if getattr(part, "type", None) == "text":  # stored text reaches a terminal
                result.content[i] = part.model_copy(update={"text": safe(part.text)})
        return result


def _json_types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a property's schema admits (``type`` or the members of ``anyOf``)."""
    if "anyOf" in schema:
        return {t for member in schema["anyOf"] for t in _json_types(member)}
    if "$ref" in schema:
        return {"object"}
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if isinstance(kind, str) else {"any"}


def _refuse_unknown_arguments(tool: str, schema: dict[str, Any], arguments: dict[str, Any]
                              ) -> None:
    """An argument the tool does not take is a tool error naming it, as the HTTP API refuses
    an unknown field: it was dropped without a word, so ``remember`` with ``scpoe`` stored
    the note in the server's default scope, and ``recall`` with ``limit`` ignored it."""
    properties = schema.get("properties", {})
    for field in arguments:
        if field not in properties:
            raise ToolError(f"Error executing tool {tool}: {field}: not an argument of {tool} "
                            f"(it takes {', '.join(properties)})")


def _refuse_bools_for_numbers(tool: str, schema: dict[str, Any], arguments: dict[str, Any]
                              ) -> None:
    """A JSON true/false given for a number is a tool error naming the field: pydantic would
    read it as 1 or 0 (``ttl_seconds: true`` expired a note after one second, ``k: true``
    asked for one hit)."""
    properties = schema.get("properties", {})
    for field, value in arguments.items():
        if isinstance(value, bool) and field in properties:
            kinds = _json_types(properties[field])
            if kinds & {"integer", "number"} and not kinds & {"boolean", "any"}:
                raise ToolError(f"Error executing tool {tool}: {field}: Input should be a "
                                f"number, not true or false (got {value!r})")


def _request_of(ctx: Context | None) -> Any:
    """The HTTP request that carried this call (None on stdio)."""
    if ctx is None:
        return None
    try:
        return ctx.request_context.request
    except ValueError:
        return None


FACTS_PAGE = 1000
"""Facts one ``facts`` answer reads (the answer's length may cut it shorter; both say so)."""

# min_length: "" was read as no scope, so it reached the server's default scope or every
# scope the caller may (session 35); the HTTP API's scope is likewise at least 1 character
Scope = Annotated[str | None, Field(
    description="Conversation or project key the memory belongs to (e.g. a repository name or "
                "chat id). Omit to use the server's default scope.", min_length=1,
    max_length=256)]
K = Annotated[Annotated[int, Whole(1, 50)], Field(description="How many hits to return (1-50).")]
Kinds = Literal["turn", "summary", "fact", "entity", "decision", "preference", "plan",
                "observation", "note"]
NoteKind = Literal["note", "decision", "preference", "plan", "observation"]
Role = Literal["note", "user", "assistant", "system", "tool"]
Time = Annotated[str | None, Field(
    description="ISO-8601 time, e.g. 2024-05-01T14:30:00Z (no offset means UTC).")]


class _Tools:
    """The tool bodies over one ``Memory``; each resolves and checks its scope first."""

    def __init__(self, memory: Memory, default_scope: str | None, access: ScopeAccess | None,
                 access_of_request: Callable[[Any], ScopeAccess | None] | None) -> None:
        self.mem = memory
        self.default_scope = check_scope(default_scope, "default_scope") if default_scope else None
        self.access = access
        self.access_of_request = access_of_request

    # -- access -------------------------------------------------------------------------
    def access_for(self, ctx: Context | None) -> ScopeAccess | None:
        if self.access_of_request is None:
            return self.access
        request = _request_of(ctx)  # fail closed: no request, no key, no access
        found = self.access_of_request(request) if request is not None else None
        if found is None:
            raise ToolError("unauthorized: this call carries no valid API key")
        return found

    def reading(self, ctx: Context | None) -> AbstractContextManager[None]:
        """A read-only server's or key's reads write nothing: ``Memory.reading_only`` (no
        pack journal row, no fact access recorded), as on a read-only database."""
        access = self.access_for(ctx)
        return self.mem.reading_only(access is not None and access.read_only)

    @staticmethod
    def allow(access: ScopeAccess | None, scope: str | None, *, write: bool, what: str = "scope"
              ) -> None:
        if access is None:
            return
        name = getattr(access, "name", None)  # an API key's Principal has one
        who = f"API key {name!r}" if isinstance(name, str) else "this server"
        if scope is None:
            if not access.allows(None):
                raise ToolError(f"{what}: forbidden: it belongs to no scope, and {who} reaches "
                                "only some scopes")
        elif not access.allows(scope):
            raise ToolError(f"{what}: forbidden: scope {scope!r} is outside the scopes {who} "
                            "may reach")
        if write and access.read_only:
            raise ToolError(f"forbidden: {who} is read-only (remember, forget and summarize "
                            "with store true are refused; summarize with store false previews)")

    @classmethod
    def owned(cls, access: ScopeAccess | None, scope: str | None, what: str, object_id: int,
              *, write: bool) -> None:
        """The check of an object addressed by id (``what`` names its argument, e.g.
        ``session_id``): one in a scope the access does not reach is reported as missing,
        as the HTTP API and the inspector answer, so a key learns nothing of other tenants
        (it was ``session_id: forbidden: scope 'team-backend' is outside ...``: the id
        existed, and in which scope)."""
        if access is not None and not access.allows(scope):
            raise ToolError(f"{what.removesuffix('_id')} {object_id} does not exist")
        cls.allow(access, scope, write=write, what=what)

    def scope(self, ctx: Context | None, scope: str | None, *, write: bool = False,
              required: bool = False) -> str | None:
        try:
            return self._scope(ctx, scope, write=write, required=required)
        except _ScopeRefused:
            raise
        except ToolError as e:
            raise _ScopeRefused(str(e), scope) from e

    def resource_scope(self, ctx: Context | None, scope: str) -> str | None:
        """A resource address's scope (``memlane://SCOPE/...``): ``memlane:///facts`` read
        the server's default scope's facts, or every scope's (session 35: an empty scope
        was taken as none, as the tools' ``scope: ""`` was)."""
        if scope == "":
            raise _ScopeRefused("scope: must not be empty: the address names the scope "
                                "(memlane://SCOPE/facts, memlane://SCOPE/sessions/ID)", scope)
        return self.scope(ctx, scope)

    def _scope(self, ctx: Context | None, scope: str | None, *, write: bool,
               required: bool) -> str | None:
        access = self.access_for(ctx)
        # "" reaches here only from the use-memory prompt (a client's form may send a blank
        # optional argument; the prompt is text, it reaches nothing): the tools' Scope
        # refuses it
        chosen = scope if scope not in (None, "") else self.default_scope
        if chosen is None:
            if required:
                raise ToolError("scope: required (this server has no default scope); pass the "
                                "conversation or project key")
            if access is not None and not access.allows(None):
                raise ToolError("scope: required: only some scopes may be reached here; name one")
            self.allow(access, None, write=write)
            return None
        with _tool_errors():
            chosen = check_scope(chosen)
        self.allow(access, chosen, write=write)
        return chosen

    # -- tools --------------------------------------------------------------------------
    def remember(
        self,
        text: Annotated[str, Field(min_length=1, description="What to remember, in plain words.")],
        ctx: Context,
        scope: Scope = None,
        role: Annotated[Role, Field(description=(
            "'note' (default) stores a durable memory, searchable at once; 'user', "
            "'assistant', 'system' or 'tool' appends a message to the scope's conversation "
            "(searchable once its session closes)."))] = "note",
        kind: Annotated[NoteKind, Field(description="For notes: what sort of memory it is.")
                        ] = "note",
        at: Time = None,
        pin: Annotated[bool, Field(description=(
            "For notes: always put it first in context packs; never expired."))] = False,
        ttl_seconds: Annotated[Annotated[int, Whole(1)] | None, Field(description=(
            "For notes: forget it after this many seconds."))] = None,
        topics: Annotated[list[str] | None, Field(description=(
            "For notes: topic names; each topic keeps a story thread of its notes."))] = None,
        id: Annotated[str | None, Field(min_length=1, description=(
            "For messages: your id of this message, so a call sent again (a retry after a "
            "timeout) stores it once. The same id with the same role, time and text answers "
            "the stored message; the same id with another message in the scope is an error "
            "naming the id. Without 'at', a retry takes the stored message's time."))] = None,
    ) -> str:
        where = self.scope(ctx, scope, write=True, required=True)
        assert where is not None
        with _tool_errors():
            if role != "note":
                for name, value in (("pin", pin), ("ttl_seconds", ttl_seconds),
                                    ("topics", topics)):
                    if value:
                        raise ToolError(f"{name}: only notes take it; pass role 'note' or leave "
                                        f"{name} out for a message")
                if kind != "note":
                    raise ToolError("kind: only notes have a kind; pass role 'note'")
                # a retry rarely repeats a time it never gave: without ``at`` the same id
                # takes its stored message's time (``Memory.add_message``)
                msg = self.mem.add_message(where, role, text, at, id=id)
                if self.mem.last_already_stored == (True,):  # a retry: nothing new stored
                    return (f"message {msg.id} is already stored under id {msg.ext_id!r} in scope "
                            f"{where}: session {msg.session_id}, turn {msg.seq}; nothing added.")
                redacted = f"; {msg.redactions} secret(s) redacted" if msg.redactions else ""
                gap = self.mem.config.ingest.session_gap_minutes
                return (f"remembered message {msg.id} in scope {where}: session {msg.session_id}, "
                        f"turn {msg.seq}{redacted}. It becomes searchable when the session closes "
                        f"(after {gap:g} minutes without messages, or call summarize).")
            if id is not None:
                raise ToolError("id: only messages take an id (a message role: user, "
                                "assistant, system or tool); leave it out for a note")
            item_id = self.mem.upsert(text, kind=kind, scope=where, at=at, pinned=pin,
                                      ttl_seconds=ttl_seconds, topics=topics or ())
            stored = self.mem.item(item_id).text
        extras = [x for x in ("pinned" if pin else "",
                              f"expires in {ttl_seconds}s" if ttl_seconds else "",
                              # placeholders added, not any change: a NUL dropped or the
                              # text trimmed was reported as "secrets redacted"
                              "secrets redacted" if stored.count("[REDACTED:")
                              > text.count("[REDACTED:") else "") if x]
        more = f" ({', '.join(extras)})" if extras else ""
        return f"remembered {kind} as item {item_id} in scope {where}{more}"

    def recall(
        self,
        query: Annotated[str, Field(min_length=1, description="What to look for, in words.")],
        ctx: Context,
        scope: Scope = None,
        k: K = 8,
        kinds: Annotated[list[Kinds] | None, Field(min_length=1, description=(
            "Only these kinds of memory (turn = a message; summary = a session summary). "
            "Omit for every kind."))] = None,
        since: Time = None,
        until: Time = None,
        explain: Annotated[bool, Field(description=(
            "Also list every ranking signal's value and contribution."))] = False,
    ) -> str:
        where = self.scope(ctx, scope)
        with _tool_errors(), self.reading(ctx):
            hits = self.mem.search(query, scope=where, k=k, kinds=tuple(kinds) if kinds else None,
                                   since=since, until=until, explain=explain)
        # the search's own reason first (a query of no words), as `memlane search` says it
        why = "" if hits else (str(self.mem.last_notice or "") or no_match(
            self.mem, filters_given(kinds=kinds, since=since, until=until), scope=where))
        return render.recall_text(query, where, hits, explain=explain, why=why)

    def context(
        self,
        question: Annotated[str, Field(min_length=1, description=(
            "The question or task the context is for."))],
        ctx: Context,
        scope: Scope = None,
        budget: Annotated[Annotated[int, Whole(16, MAX_BUDGET)] | None, Field(description=(
            "Token budget of the pack (default: the server's pack.budget)."))] = None,
        model: Annotated[str | None, Field(description=(
            "Count tokens with this model's tokenizer, e.g. gpt-4."))] = None,
        instructions: Annotated[str | None, Field(max_length=100_000, description=(
            "Text put first in the pack, always kept (e.g. how to answer)."))] = None,
        now: Annotated[str | None, Field(description=(
            "Build the pack as of this ISO-8601 time (default: now), e.g. "
            "2024-05-01T14:30:00Z."))] = None,
    ) -> str:
        # the parameters of `memlane pack` and POST /v1/pack, under their names and checks:
        # it took neither instructions nor now, and read model "" as no model (session 26)
        where = self.scope(ctx, scope)
        with _tool_errors(), self.reading(ctx):
            try:
                pack = self.mem.pack(question, budget, scope=where, model=model,
                                     instructions=instructions, now=now)
            except ValidationError as e:  # Memory.pack calls it query; this tool, question
                if e.field != "query":
                    raise
                raise ValidationError("question" + str(e).removeprefix("query"),
                                      field="question") from e
        return render.pack_text(pack)

    def facts(
        self,
        ctx: Context,
        scope: Scope = None,
        subject: Annotated[str | None, Field(description=(
            "Only facts about this subject, e.g. user or a project name."))] = None,
        include_superseded: Annotated[bool, Field(description=(
            "Also list values that were replaced."))] = False,
        offset: Annotated[Annotated[int, Whole(0)], Field(description=(
            "List from this position on (0 the first fact; a long list is shown in parts, "
            "and the answer names the offset to ask for next)."))] = 0,
        cursor: Annotated[str | None, Field(min_length=1, max_length=MAX_CURSOR, description=(
            "The cursor the previous answer named: lists from after its last fact, however "
            "many facts were added or removed meanwhile (not with offset)."))] = None,
        before: Annotated[str | None, Field(min_length=1, max_length=MAX_CURSOR, description=(
            "The before cursor an answer named: lists the facts just before its first one "
            "(a page back; not with cursor or offset)."))] = None,
    ) -> str:
        where = self.scope(ctx, scope)
        with _tool_errors():
            page = fact_page(self.mem, where, subject,
                             include_superseded=include_superseded, limit=FACTS_PAGE,
                             offset=offset, cursor=cursor, before=before)
        return render.facts_text(where, page.rows, subject=subject, offset=offset,
                                 more=page.next_cursor is not None, cursor=cursor,
                                 before=before, prev=page.prev_cursor)

    def fact_history(
        self,
        subject: Annotated[str, Field(min_length=1, description="e.g. user")],
        predicate: Annotated[str, Field(min_length=1, description="e.g. lives_in, employer")],
        ctx: Context,
        scope: Scope = None,
    ) -> str:
        where = self.scope(ctx, scope)
        with _tool_errors():
            rows = self.mem.fact_history(subject, predicate, where)
        return render.fact_history_text(subject, predicate, where, rows)

    def forget(
        self,
        ctx: Context,
        fact_id: Annotated[Annotated[int, Whole(1)] | None,
                           Field(description="The fact to delete.")] = None,
        item_id: Annotated[Annotated[int, Whole(1)] | None,
                           Field(description="The item to delete.")] = None,
        session_id: Annotated[Annotated[int, Whole(1)] | None, Field(
            description="The session (a whole conversation) to erase, with everything "
                        "derived from it.")] = None,
    ) -> str:
        if sum(x is not None for x in (fact_id, item_id, session_id)) != 1:
            raise ToolError("fact_id: pass exactly one of fact_id, item_id or session_id")
        access = self.access_for(ctx)
        given = "session_id" if session_id is not None else "item_id" if item_id is not None else "fact_id"
        with _tool_errors(given):
            if session_id is not None:
                scope = self.mem.session(session_id).scope
                self.owned(access, scope, "session_id", session_id, write=True)
                return self.mem.forget_session(session_id).notice
            if item_id is not None:
                item = self.mem.item(item_id)
                self.owned(access, item.scope, "item_id", item_id, write=True)
                fact = self.mem.store.facts_for_items([item_id]).get(item_id)
                if fact is None:
                    self.mem.forget_item(item_id)
                    said = (f", and message {item.message_id} it came from (its session is "
                            "summarised again without it)" if item.kind == "turn" else "")
                    return (f"forgot item {item_id} ({item.kind}: {render.clip(item.text, 80)})"
                            + said)
                fact_id = fact.id
            assert fact_id is not None
            fact = self.mem.store.get_fact(fact_id)
            self.owned(access, fact.scope, "fact_id", fact_id, write=True)
            self.mem.forget_fact(fact_id)
        return (f"forgot fact {fact.id} ({render.fact_sentence(fact.subject, fact.predicate, fact.object)})"
                + (f" and its item {fact.item_id}" if fact.item_id is not None else ""))

    def sessions(
        self,
        ctx: Context,
        scope: Scope = None,
        status: Annotated[Literal["open", "closed", "summarized", "failed"] | None,
                          Field(description="Only sessions in this state.")] = None,
        limit: Annotated[Annotated[int, Whole(1, 100)],
                         Field(description="How many, newest first.")] = 10,
        offset: Annotated[Annotated[int, Whole(0)], Field(description=(
            "Skip this many of the newest first (the answer names the offset of the next "
            "ones)."))] = 0,
        cursor: Annotated[str | None, Field(min_length=1, max_length=MAX_CURSOR, description=(
            "The cursor the previous answer named: lists the sessions older than its last "
            "one, however many were added or removed meanwhile (not with offset)."))] = None,
        before: Annotated[str | None, Field(min_length=1, max_length=MAX_CURSOR, description=(
            "The before cursor an answer named: lists the sessions just newer than its "
            "first one (a page back; not with cursor or offset)."))] = None,
    ) -> str:
        where = self.scope(ctx, scope)
        with _tool_errors():
            page = session_page(self.mem, where, status, limit=limit, offset=offset,
                                cursor=cursor, before=before)
            summaries = [(s, self.mem.session_intelligence(s.id)["summary"])
                         for s in page.rows]
        return render.sessions_text(where, summaries, offset=offset,
                                    more=page.next_cursor is not None, cursor=cursor,
                                    before=before, prev=page.prev_cursor)

    def session(
        self,
        session_id: Annotated[Annotated[int, Whole(1)], Field(description="The session's id.")],
        ctx: Context,
        from_turn: Annotated[Annotated[int, Whole(1)], Field(description=(
            "Show its messages from this turn on (a long session is shown in parts; the "
            "answer names the turn to ask for next)."))] = 1,
    ) -> str:
        access = self.access_for(ctx)
        with _tool_errors("session_id"):
            s = self.mem.session(session_id)
            self.owned(access, s.scope, "session_id", session_id, write=False)
            return render.session_text(s, self.mem.messages(session_id),
                                       self.mem.session_intelligence(session_id),
                                       from_turn=from_turn,
                                       reader="call session with from_turn")

    def summarize(
        self,
        ctx: Context,
        scope: Scope = None,
        last: Annotated[Annotated[int, Whole(1, 10_000)], Field(description=(
            "How many of the scope's latest messages to summarize."))] = 20,
        store: Annotated[bool, Field(description=(
            "Store the summary (default); false only previews it and changes nothing."))] = True,
    ) -> str:
        where = self.scope(ctx, scope, write=store, required=True)
        assert where is not None
        with _tool_errors("scope"):
            if not store:
                draft = self.mem.summarize_recent(where, last)
                return ("preview only, nothing stored (call again with store true to keep it):\n"
                        + draft.preview())
            closed = self.mem.close_session(where)
            draft = self.mem.summarize_recent(where, last)
            item_id = self.mem.store_summary(draft)
            waiting = [s.id for s in self.mem.sessions(scope=where, limit=1000)
                       if s.status != "open" and not s.indexed]
            # this scope's sessions only: index() over every scope closed, indexed and
            # summarized other tenants' sessions (their model calls too) on this key's call
            self.mem.index(scope=where)
            done = [s for s in map(self.mem.session, waiting) if s.indexed]
        head = f"closed session {closed.id}; " if closed is not None else ""
        turns = sum(s.message_count for s in done)
        return (f"{head}summary of the last {len(draft.message_ids)} message(s) stored as item "
                f"{item_id}; indexed {turns} turn(s) of {len(done)} closed session(s) of scope "
                f"{where}, now searchable.\n{draft.preview()}")


USE_MEMORY = """\
You have long-term memory through the memlane tools.{scope_line}

- At the start of a task, or when the user refers to earlier work ("as we discussed", "my
  usual setup", "last time"), call `context` with the task as the question and paste its
  pack into your reasoning. For a specific lookup, call `recall`; each hit has an item id
  and says why it matched.
- When the user states a durable fact, preference or decision ("we use PostgreSQL",
  "I prefer tabs", "deploys go out on Tuesdays"), call `remember` with role "note" and the
  right kind (decision, preference, plan, note). Record conversation turns with role
  "user" or "assistant" when the whole exchange matters.
- Use `facts` for what is currently true (with confidence) and `fact_history` to see how
  a value changed. Trust current facts over older turns that contradict them.
- At the end of a piece of work, call `summarize` to close the session and store a summary
  of its last messages; `sessions` and `session` show earlier sessions whole.
- Call `forget` (by fact_id or item_id) when the user asks you to forget something or a
  memory is wrong; by session_id to erase a whole conversation they ask you to forget. Never store secrets; memlane redacts the ones it recognises.
"""


def _prompt(default_scope: str | None) -> Callable[..., str]:
    def use_memory(scope: str | None = None) -> str:
        """How and when to use memlane's memory tools."""
        chosen = scope or default_scope
        line = f" Use scope {chosen!r} unless told otherwise." if chosen else ""
        return USE_MEMORY.format(scope_line=line)

    return use_memory


_READ = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_DESCRIPTIONS: dict[str, tuple[str, ToolAnnotations]] = {
    "remember": (
        "Store something in long-term memory. role 'note' (default) keeps a fact, decision, "
        "preference or plan that later tasks should know, searchable at once; pin it to put "
        "it in every context pack, or give ttl_seconds to let it expire. A message role "
        "(user, assistant, system, tool) appends a conversation turn instead; give a "
        "message your own id to make a retried call store it once. Returns "
        "the new id.",
        ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)),
    "recall": (
        "Search memory for a query: the best messages, notes, facts and session summaries, "
        "each with its item id, session, date and why it matched (BM25 words, meaning, "
        "session rank, matched terms). Use it to look something specific up.", _READ),
    "context": (
        "Build a token-budgeted context pack for a question or task: current facts, pinned "
        "notes, relevant earlier session summaries and messages, and the scope's latest "
        "turns, ready to paste into your reasoning. Use it at the start of a task.", _READ),
    "facts": (
        "List what memory holds as currently true, each fact as a sentence with its subject "
        "and predicate (what fact_history takes), its id and confidence (source, how often it "
        "was said, staleness).", _READ),
    "fact_history": (
        "Show every value one fact (subject + predicate, e.g. user lives_in) has had, oldest "
        "first, with when it changed and which value superseded which.", _READ),
    "forget": (
        "Permanently delete one fact (fact_id) or memory item (item_id) with its search "
        "index rows, or erase a whole session (session_id) with everything derived from it. "
        "Use when the user asks to forget something or a memory is wrong.",
        ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                        open_world_hint=False)),
    "sessions": (
        "List recent conversation sessions, newest first, each with its state and the gist "
        "of its summary (topic, decisions, open questions, next steps).", _READ),
    "session": (
        "Show one session: its structured summary, facts and entities, and its messages "
        "(a long session in parts: from_turn picks up where the last answer stopped).",
        _READ),
    "summarize": (
        "Close the scope's current session and summarize its last N messages (topic, "
        "decisions, open questions, next steps, references); the summary is stored and the "
        "session indexed so recall finds it. store=false previews without storing.",
        ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)),
}


def _advertise_limits(schema: dict[str, Any], tool: str, memory: Memory) -> None:
    """The limits memlane holds each argument to, in the tool's advertised JSON schema: a
    note's 100,000 characters (``ingest.max_message_chars``), a query's 4,000
    (``retrieval.max_query_chars``), 1,000 for a subject, predicate, topic or model name, 100
    topics, and that a time is a date-time. They were checked and refused with a clear error, but not advertised, so a client
    building a call from the schema (or a model reading it) had no way to know them."""
    config = memory.config
    short = {"minLength": 1, "maxLength": MAX_SHORT_TEXT}
    limits: dict[str, dict[str, Any]] = {
        "text": {"maxLength": config.ingest.max_message_chars},
        "query": {"maxLength": config.retrieval.max_query_chars},
        "question": {"maxLength": config.retrieval.max_query_chars},
        "subject": {"maxLength": MAX_SHORT_TEXT},
        "predicate": {"maxLength": MAX_SHORT_TEXT},
        "model": short,
        "instructions": {"maxLength": 100_000},
        "topics": {"maxItems": 100, "items": {"type": "string", **short}},
        **{t: {"format": "date-time"} for t in ("at", "since", "until", "now")},
    }
    for name, prop in schema.get("properties", {}).items():
        if name not in limits:
            continue
        want = "array" if name == "topics" else "string"
        for member in prop.get("anyOf", [prop]):
            if member.get("type") == want:
                member.update(limits[name])


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memlane")
    except PackageNotFoundError:
        return ""


def build_server(
    memory: Memory,
    *,
    default_scope: str | None = None,
    scopes: ScopeAccess | Sequence[str] | Callable[[str], bool] | None = None,
    read_only: bool = False,
    access_of_request: Callable[[Any], ScopeAccess | None] | None = None,
    name: str = "memlane",
) -> MCPServer:
    """The MCP server over ``memory``.

    ``default_scope`` is used when a call names none. ``scopes`` restricts every call (a
    ``ScopeAccess``, wildcard patterns or a callable); ``read_only`` refuses the writing
    tools. ``access_of_request(request)`` gives an HTTP request's own access (None: the
    request has no valid key); it wins over ``scopes`` for calls that came over HTTP.
    """
    access = as_access(scopes, read_only=read_only)
    if default_scope and access is not None and not access.allows(default_scope):
        raise ValidationError(f"default_scope: {default_scope!r} is outside the allowed scopes",
                              field="default_scope")
    tools = _Tools(memory, default_scope, access, access_of_request)
    server: MCPServer = _Server(
        name,
        title="memlane memory",
        instructions=USE_MEMORY.format(scope_line=(
            f" The default scope is {tools.default_scope!r}." if tools.default_scope else "")),
        version=_version(),
        log_level="WARNING",
    )
    for tool_name, (description, hints) in _DESCRIPTIONS.items():
        server.add_tool(_again_if_lost(getattr(tools, tool_name), memory, tool_name,
                                       write=not hints.read_only_hint),
                        name=tool_name, description=description,
                        annotations=hints, structured_output=False)
        _advertise_limits(server._tool_manager.get_tool(tool_name).parameters, tool_name, memory)

    def again(read: Callable[[], str], uri: str) -> str:
        """A resource read once more when its connection was lost (as a tool is)."""
        try:
            return once_more_if_lost(memory.store, f"MCP resource {uri}", read, write=False)
        except StoreError as e:
            raise ResourceError(f"{e}{retry_note(e)}") from e
        finally:
            memory.store.release_if_crowded()  # this thread is going idle

    @server.resource("memlane://{scope}/facts", name="facts", mime_type="text/plain",
                     description="The scope's current facts with their confidence.")
    def facts_resource(scope: str, ctx: Context) -> str:
        uri = f"memlane://{quote(scope, safe='')}/facts"
        return again(lambda: _facts_resource(scope, ctx, uri), uri)

    def _facts_resource(scope: str, ctx: Context, uri: str) -> str:
        with _resource_errors(uri):
            where = tools.resource_scope(ctx, scope)
            page = fact_page(memory, where, None, limit=FACTS_PAGE)
            return safe(render.facts_text(where, page.rows, subject=None,
                                          more=page.next_cursor is not None,
                                          reader="call the facts tool with"))

    @server.resource("memlane://{scope}/sessions/{session_id}", name="session",
                     mime_type="text/plain",
                     description="One session of the scope: messages, summary, facts.")
    def session_resource(scope: str, session_id: str, ctx: Context) -> str:
        uri = f"memlane://{quote(scope, safe='')}/sessions/{session_id}"
        return again(lambda: _session_resource(scope, session_id, ctx, uri), uri)

    def _session_resource(scope: str, session_id: str, ctx: Context, uri: str) -> str:
        with _resource_errors(uri):
            where = tools.resource_scope(ctx, scope)
            s = memory.session(check_id_text(session_id, "session_id"))
            access = tools.access_for(ctx)
            if access is not None and not access.allows(s.scope):  # another tenant's: missing
                raise NotFoundError(f"session {s.id} does not exist")
            if s.scope != where:
                raise ResourceNotFoundError(f"session {session_id} is not in scope {where!r}")
            return safe(render.session_text(
                s, memory.messages(s.id), memory.session_intelligence(s.id),
                reader=f"call the session tool with session_id {s.id} and from_turn"))

    if tools.default_scope and access_of_request is None:
        # the default scope's facts as a listed resource, for clients that offer resources
        # to attach rather than templates to fill (no per-request access on this path)
        default = tools.default_scope

        def default_facts() -> str:
            return facts_resource(default, None)  # type: ignore[arg-type]

        server.add_resource(FunctionResource.from_function(
            default_facts, uri=f"memlane://{default}/facts", name=f"facts of {default}",
            mime_type="text/plain", description=f"The current facts of scope {default}."))

    assert isinstance(server, _Server)
    server.check_prompt_scope = lambda scope, ctx: tools.scope(ctx, scope)
    server.prompt(name="use-memory", title="Use memlane memory",
                  description="When to call which memlane tool.")(_prompt(tools.default_scope))
    return server
