"""``memlane.Client``: the HTTP service with ``Memory``'s method names and return types.

>>> mem = Memory("memlane.db")                          # embedded   # doctest: +SKIP
>>> mem = Client("http://127.0.0.1:8420", key)          # remote     # doctest: +SKIP
>>> mem.add_message("chat-42", "user", "I moved to Lisbon")

Methods return the same memlane types as ``Memory`` (``Message``, ``Session``, ``Hit``,
``Pack``, ``IndexReport``, ``FactView``…), rebuilt from the JSON the service answers.
Errors are memlane's: ``ValidationError`` (with ``field``) for bad input, ``ConflictError``,
``NotFoundError``; anything else the service refuses (401, 403, 413, 429, 5xx) raises
``RemoteError`` with its ``status``, ``code`` and ``field``; a service that cannot be reached
or does not answer in time, ``RemoteError`` with status 0 and code ``unreachable`` or
``timeout``; an address that is no http(s) URL, ``ValidationError`` naming ``url``; a value
JSON cannot carry (bytes, a set, a datetime inside ``extra``), ``ValidationError`` naming its
parameter, as ``Memory`` refuses it; a ``Client`` used after ``close()`` (or its ``with``
block), ``RemoteError`` with status 0 and code ``closed``. Only httpx is needed.
"""

from __future__ import annotations

import dataclasses
import email.utils
import json
import math
import types
import typing
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

import httpx

from memlane.errors import ConflictError, MemlaneError, NotFoundError, ValidationError
from memlane.types import EraseReport, Hit, IndexReport, Item, Message, Session, StoredEntity

__all__ = ["Client", "RemoteError"]


class RemoteError(MemlaneError):
    """The service refused a request (auth, scope, size, rate) or failed."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.field = field
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    """A Retry-After header in seconds: delay-seconds or an HTTP date (RFC 9110), as a proxy
    may send; None when absent or unreadable (``float()`` of a date was a ValueError out of
    the client instead of its RemoteError)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    return max(seconds, 0.0) if math.isfinite(seconds) else None


def _build(tp: Any, value: Any) -> Any:
    """``value`` (plain JSON) as type ``tp``: dataclasses, datetimes, tuples, optionals."""
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        for arg in typing.get_args(tp):
            if arg is type(None):
                continue
            try:
                return _build(arg, value)
            except (TypeError, ValueError, KeyError):
                continue
        return value
    if tp is datetime:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else value
    if origin is tuple:
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        return tuple(_build(inner, v) for v in value)
    if origin is list:
        (inner,) = typing.get_args(tp) or (Any,)
        return [_build(inner, v) for v in value]
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return from_plain(tp, value)
    if tp is float and isinstance(value, int):
        return float(value)
    return value


def from_plain(cls: type, data: dict[str, Any]) -> Any:
    """A memlane dataclass rebuilt from its JSON form (unknown keys ignored)."""
    if not isinstance(data, dict):
        raise TypeError(f"expected an object for {cls.__name__}")
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _build(hints[f.name], data[f.name])
              for f in dataclasses.fields(cls) if f.name in data}
    return cls(**kwargs)


def _none(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


def _already_stored(res: Any) -> tuple[bool, ...]:
    """The ``already_stored`` of a ``memory.add`` answer; () when it has none (a service older
    than session 35: ``res["already_stored"]`` raised KeyError after the service had stored
    the messages; session 36)."""
    got = res.get("already_stored") if isinstance(res, dict) else None
    return tuple(bool(b) for b in got) if isinstance(got, list) else ()


def _when(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _unsendable(value: Any) -> tuple[str, Any] | None:
    """The dotted path (and the value) of the first value inside ``value``, an action's
    input, that JSON cannot carry (bytes, a set, a datetime, any object), or None (session
    29: ``json.dumps``'s ``TypeError`` came out of the client, where ``Memory`` raises
    ``ValidationError`` naming the parameter). A list or dict inside itself (a cycle) is
    refused; one that is only shared, twice in the value, is JSON as ``Memory`` takes it
    (session 30: taken for a cycle, the client refused it)."""
    stack: list[tuple[Any, str, frozenset[int]]] = [
        (v, str(k), frozenset()) for k, v in reversed(value.items())]
    while stack:
        item, where, above = stack.pop()  # above: the containers it is inside
        if item is None or isinstance(item, (str, int, float, bool)):
            continue
        if id(item) in above or not isinstance(item, (dict, list, tuple)) or (
                isinstance(item, dict) and not all(isinstance(k, str) for k in item)):
            return where, item
        inside = above | {id(item)}
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        stack.extend((v, f"{where}.{k}", inside) for k, v in reversed(list(pairs)))
    return None


class Client:
    """A remote memory: ``Client(url, key)``; same method names as ``Memory``."""

    def __init__(self, url: str, key: str | None = None, *, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        try:
            base = httpx.URL(url.rstrip("/")) if isinstance(url, str) else None
        except httpx.InvalidURL:
            base = None
        if base is None or base.scheme not in ("http", "https") or not base.host:
            # httpx took any text and failed at the first call (UnsupportedProtocol)
            raise ValidationError(f"url: {url!r} is not an http:// or https:// address of a "
                                  "memlane service, e.g. http://127.0.0.1:8420", field="url")
        self.url = str(base)
        self._http = httpx.Client(base_url=base, headers=headers, timeout=timeout,
                                  transport=transport)
        self.last_timings: dict[str, float] = {}
        self.last_notice: str | None = None
        """Why the last ``search`` found nothing (the service's ``notice``), as ``Memory``'s."""
        self.last_already_stored: tuple[bool, ...] = ()
        """For each message of the last ``add_message`` or ``add_messages``: whether it was
        stored before (the service's ``already_stored``), as ``Memory``'s; empty when the
        service does not say (one older than session 35)."""

    # -- plumbing -----------------------------------------------------------------------
    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        if self._http.is_closed:  # as ``with f:`` on a closed file, and Memory
            raise self._closed()
        return self

    def _closed(self) -> RemoteError:
        return RemoteError(0, "closed", f"{self.url}: this client was closed (Client.close() "
                           "or the end of its with block); open a new Client to use it again")

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def action(self, action_kind: str, /, **inp: Any) -> Any:
        """Run any action by kind (``POST /actions``); returns its result."""
        # JSON with ASCII escapes, so any text reaches the service, which judges it as Memory
        # does: httpx's own encoding raised UnicodeEncodeError on a lone surrogate, where
        # Memory raises ValidationError naming the field (and NaN is the service's to refuse)
        if self._http.is_closed:  # httpx's RuntimeError was all a caller saw
            raise self._closed()
        sent = _none(**inp)
        bad = _unsendable(sent)
        if bad is not None:
            raise ValidationError(f"{bad[0]}: must be JSON (text, a number, true or false, a "
                                  f"list or a dict of them), got {type(bad[1]).__name__}",
                                  field=bad[0])
        body = json.dumps({"kind": action_kind, "input": sent}, ensure_ascii=True)
        try:
            r = self._http.post("/actions", content=body.encode("ascii"),
                                headers={"Content-Type": "application/json"})
        except httpx.TimeoutException as e:  # httpx's own errors were all a caller saw
            raise RemoteError(0, "timeout", f"{self.url} did not answer {action_kind} in time "
                              f"({type(e).__name__})") from e
        except httpx.TransportError as e:
            raise RemoteError(0, "unreachable", f"cannot reach {self.url}: {e or type(e).__name__}"
                              " (is memlane serve running there?)") from e
        body = self._check(r)
        if not isinstance(body, dict) or "result" not in body:
            # a proxy's login page, an HTML error page with a 200, another service
            raise RemoteError(r.status_code, "bad_response", "the service's answer is not a "
                              f"memlane action result: {r.text[:200]!r}")
        self.last_timings = body.get("timings", {})
        return body["result"]

    @staticmethod
    def _check(r: httpx.Response) -> Any:
        try:
            body = r.json()
        except ValueError:
            body = None
        if r.status_code < 400:
            return body
        # memlane's {"error": {...}}; a proxy's or another server's body may be anything
        # ({"error": "Bad Gateway"}, HTML): an AttributeError came out of here for those
        found = body.get("error") if isinstance(body, dict) else None
        err = found if isinstance(found, dict) else {}
        text = found if isinstance(found, str) else None
        message = str(err.get("message") or text or r.text[:200] or r.reason_phrase)
        field = err.get("field") if isinstance(err.get("field"), str) else None
        if field and field.startswith("input."):
            field = field[len("input."):]
        if r.status_code == 409:
            raise ConflictError(message, field=field)
        if r.status_code in (400, 422):
            raise ValidationError(message, field=field)
        if r.status_code == 404:
            raise NotFoundError(message)
        found_code = err.get("code")
        code = found_code if isinstance(found_code, str) else "http_error"
        raise RemoteError(r.status_code, code, message, field,
                          _retry_after(r.headers.get("Retry-After")))

    # -- ingest and sessions ------------------------------------------------------------
    def add_message(self, scope: str, role: str, text: str, at: datetime | str | float | None = None,
                    *, speaker: str | None = None, id: str | None = None,
                    agent: str | None = None, project: str | None = None) -> Message:
        self.last_already_stored = ()
        res = self.action("memory.add", scope=scope, role=role, text=text, at=_when(at),
                          speaker=speaker, id=id, agent=agent, project=project)
        self.last_already_stored = _already_stored(res)
        return from_plain(Message, res["messages"][0])

    def add_messages(self, messages: list[dict[str, Any]]) -> list[Message]:
        """A batch in one transaction (all or none)."""
        # anything but a list of dicts goes as it is, for the service to refuse naming it
        # (an AttributeError came out of here)
        batch = ([{k: _when(v) for k, v in m.items() if v is not None} if isinstance(m, dict)
                  else m for m in messages] if isinstance(messages, (list, tuple)) else messages)
        self.last_already_stored = ()
        res = self.action("memory.add", messages=batch)
        self.last_already_stored = _already_stored(res)
        return [from_plain(Message, m) for m in res["messages"]]

    def close_session(self, scope: str | None = None, *, session_id: int | None = None) -> Session | None:
        closed = self.action("sessions.close", scope=scope, session_id=session_id)["closed"]
        return self.session(closed[0]) if closed else None

    def close_idle(self, now: datetime | str | None = None) -> list[int]:
        return self.action("sessions.close", idle=True, now=_when(now))["closed"]

    def index(self, now: datetime | str | None = None, *, resummarize: bool = False,
              scope: str | None = None) -> IndexReport:
        return from_plain(IndexReport, self.action("index", now=_when(now), resummarize=resummarize,
                                                   scope=scope))

    def sessions(self, scope: str | None = None, status: str | None = None,
                 limit: int = 100, offset: int = 0, cursor: str | None = None,
                 before: str | None = None) -> list[Session]:
        """As ``Memory.sessions``: ``cursor`` is ``memlane.cursor.cursor_after`` of the last
        session of the page before, ``before`` that of the first session of the page after."""
        res = self.action("sessions.list", scope=scope, status=status, limit=limit,
                          offset=offset, cursor=cursor, before=before)
        return [from_plain(Session, s) for s in res["sessions"]]

    def _session_view(self, session_id: int) -> dict[str, Any]:
        return self.action("sessions.show", id=session_id)

    def session(self, session_id: int) -> Session:
        return from_plain(Session, self._session_view(session_id)["session"])

    def messages(self, session_id: int) -> list[Message]:
        return [from_plain(Message, m) for m in self._session_view(session_id)["messages"]]

    def session_intelligence(self, session_id: int) -> dict[str, Any]:
        view = self._session_view(session_id)
        return {k: view[k] for k in ("summary", "facts", "entities", "relations", "observations")}

    # -- search and pack ----------------------------------------------------------------
    def search(self, query: str, scope: str | None = None, k: int | None = None, **options: Any) -> list[Hit]:
        """Options as ``Memory.search``: now, agent, project, kinds, lanes, privacy, since,
        until, preset, session_aware, top_sessions, turns_per_session, mmr, explain."""
        opts = {key: _when(v) for key, v in options.items()}
        for name in ("kinds", "lanes", "privacy"):
            value = opts.get(name)
            if isinstance(value, str):  # "turn" or "turn,summary", as Memory.search takes
                opts[name] = [v for v in value.split(",") if v]  # (list("turn"): 4 letters)
            elif value is not None:
                opts[name] = list(value)
        res = self.action("memory.search", query=query, scope=scope, k=k, **opts)
        self.last_notice = res.get("notice")
        return [Hit(item=from_plain(Item, h["item"]), score=h["score"], scores=h["scores"],
                    session=from_plain(Session, h["session"]) if h.get("session") else None)
                for h in res["hits"]]

    def pack(self, query: str, budget: int | None = None, *, scope: str | None = None,
             model: str | None = None, now: datetime | str | None = None,
             instructions: str | None = None) -> Any:
        from memlane.pack.packer import Pack

        res = self.action("memory.pack", query=query, budget=budget, scope=scope, model=model,
                          now=_when(now), instructions=instructions)
        return from_plain(Pack, res)

    def replay_pack(self, pack_id: int) -> dict[str, Any]:
        return self.action("packs.show", id=pack_id)

    # -- items, facts, graph ------------------------------------------------------------
    def upsert(self, text: str, **fields: Any) -> int:
        """Store one memory item; keyword arguments as ``Memory.upsert``."""
        fields = {k: (list(v) if isinstance(v, tuple) else _when(v)) for k, v in fields.items()}
        return self.action("memory.upsert", text=text, **fields)["id"]

    def facts(self, scope: str | None = None, subject: str | None = None, *,
              include_superseded: bool = False, limit: int = 1000,
              offset: int = 0, cursor: str | None = None,
              before: str | None = None) -> list[Any]:
        """As ``Memory.facts`` (``cursor``, ``before``: as ``sessions``)."""
        from memlane.index.facts import FactView

        res = self.action("facts.list", scope=scope, subject=subject,
                          include_superseded=include_superseded, limit=limit, offset=offset,
                          cursor=cursor, before=before)
        return [from_plain(FactView, f) for f in res["facts"]]

    def fact_history(self, subject: str, predicate: str, scope: str | None = None) -> list[dict[str, Any]]:
        return self.action("facts.history", subject=subject, predicate=predicate,
                           scope=scope)["history"]

    def forget_fact(self, fact_id: int) -> None:
        self.action("facts.forget", id=fact_id)

    # -- erasure (docs/erasure.md) ------------------------------------------------------
    def forget_scope(self, scope: str) -> EraseReport:
        """Erase everything of ``scope`` (``DELETE /v1/scopes/{scope}``); as ``Memory``."""
        res = self.action("scopes.forget", scope=scope)
        return EraseReport(res["scope"], res["session_id"], dict(res["counts"]))

    def forget_session(self, session_id: int) -> EraseReport:
        """Erase one session and what was drawn from it; as ``Memory``."""
        res = self.action("sessions.forget", id=session_id)
        return EraseReport(res["scope"], res["session_id"], dict(res["counts"]))

    def graph(self, entity: str, scope: str | None = None) -> dict[str, Any]:
        res = self.action("graph.show", entity=entity, scope=scope)
        return {"entity": [from_plain(StoredEntity, e) for e in res["entity"]],
                "relations": res["relations"],
                "items": [from_plain(Item, i) for i in res["items"]]}

    def stats(self) -> dict[str, Any]:
        return self.action("stats")
