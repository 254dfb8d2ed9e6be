"""Who is calling, and may they touch this scope?

Rule: while the database has never held an API key, the service is open (every request is
``Principal(None, "open", ("*",), False)``) and answers loopback clients only (``memlane
serve`` refuses to bind another address then). Once a key exists, every request needs
``Authorization: Bearer <key>``: 401 without one or with an unknown or revoked one.

Every handler calls ``principal.check(scope, write=...)`` for the scope it touches: 403
for a scope outside the key's patterns (``*`` and ``?`` wildcards, e.g. ``team-*``) and for a write with a
read-only key. A request that touches no single scope (a search over every scope, stats,
indexing) needs a key holding ``*``.

A process remembers a key it found for ``serve.key_cache_seconds`` (``KeyCache``): on
PostgreSQL the lookup was one of a search's ten round trips. A revocation, made by any
process, is honoured everywhere once that time has passed; unknown keys are never cached.
While the database cannot answer, a key the process found stays known and whether the
database holds keys keeps its last answer, so that ``/metrics`` says the database is down
(``memlane_store_up 0``) instead of failing with it.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from memlane.errors import StoreError
from memlane.serve.again import once_more_if_lost
from memlane.serve.http.errors import ApiError
from memlane.serve.http.proxy import address_of, is_loopback
from memlane.serve.keys import hash_key, scope_matches
from memlane.store.contract import KeyStore

log = logging.getLogger("memlane.serve")

__all__ = ["COOKIE", "OPEN", "KeyCache", "Principal", "RateLimiter", "checked_key", "principal"]

_TOUCH_EVERY = 60.0


def failed_auth_key(host: str) -> str:
    """What ``serve.failed_auth_limit`` counts for the client ``host``: its address (an
    IPv4-mapped one as its IPv4), or, for IPv6, its /64 network, which one host or site holds whole (RFC 6177): counted per
    address, a client of one /64 sent each guess from a new address of its own and was
    never slowed (session 29)."""
    address = address_of(host)
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host if address is None else str(address)


@dataclass(frozen=True)
class Principal:
    """The caller: an API key (``key_id``) or the open service (``key_id`` None)."""

    key_id: int | None
    name: str
    scopes: tuple[str, ...]
    read_only: bool

    @property
    def everything(self) -> bool:
        """Whether the key holds every scope (``*``)."""
        return "*" in self.scopes

    def allows(self, scope: str | None) -> bool:
        """Whether ``scope`` matches one of the key's patterns (None: every scope, needs ``*``).

        The scope is judged as memlane will store and read it: trimmed (``check_label``).
        Matched as sent, ``'user-1 '`` passed the pattern ``user-1?`` (the space took the
        ``?``) and then read, wrote and erased scope ``user-1``."""
        if scope is None:
            return self.everything
        if isinstance(scope, str):
            scope = scope.strip()
        return any(scope_matches(scope, p) for p in self.scopes)

    def check(self, scope: str | None, *, write: bool, what: str | None = None) -> None:
        """Raise ApiError 403 unless the key may read (or, with ``write``, change) ``scope``.

        ``what`` names a request that always spans every scope (stats, metrics, indexing):
        its refusal says a key holding '*' is needed, not to pass a scope it cannot take."""
        if write and self.read_only:
            # the key is what is refused: named as a 401 names it (the field was null)
            raise ApiError(403, "forbidden", f"API key {self.name!r} is read-only; this request "
                           "changes memory (use a key created without --read-only)",
                           "Authorization")
        if not self.allows(scope):
            held = ", ".join(self.scopes)
            if scope is None and what is not None:
                raise ApiError(403, "forbidden", f"{what} spans every scope: it needs a key "
                               f"holding '*', and API key {self.name!r} holds only {held}", "scope")
            if scope is None:
                raise ApiError(403, "forbidden", f"this request spans every scope, but API key "
                               f"{self.name!r} holds only {held}; pass a scope", "scope")
            raise ApiError(403, "forbidden", f"scope {scope!r} is not among API key "
                           f"{self.name!r}'s scopes ({held})", "scope")


OPEN = Principal(None, "open", ("*",), False)


class RateLimiter:
    """A token bucket per key (an API key's id; a client address for failed
    authentications): ``rate`` requests a second, ``burst`` at once. At most ``most``
    buckets are kept, the least recently used dropped first (as if full again), so a flood
    of addresses cannot grow them without bound."""

    def __init__(self, rate: float, burst: int = 0, most: int = 10_000) -> None:
        self.rate = rate
        self.burst = float(burst or max(1, round(2 * rate)))
        self.most = most
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def _tokens(self, key: Hashable, now: float) -> float:
        tokens, last = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def _keep(self, key: Hashable, tokens: float, now: float) -> None:
        self._buckets[key] = (tokens, now)
        self._buckets.move_to_end(key)
        while len(self._buckets) > self.most:
            self._buckets.popitem(last=False)

    def take(self, key: Hashable) -> float:
        """0 when allowed, else the seconds to wait before the next request may pass."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._lock:
            tokens = self._tokens(key, now)
            if tokens >= 1.0:
                self._keep(key, tokens - 1.0, now)
                return 0.0
            self._keep(key, tokens, now)
            return (1.0 - tokens) / self.rate

    def wait(self, key: Hashable) -> float:
        """What ``take`` would answer, taking nothing."""
        if self.rate <= 0:
            return 0.0
        with self._lock:
            if key not in self._buckets:
                return 0.0
            tokens = self._tokens(key, time.monotonic())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def __len__(self) -> int:
        return len(self._buckets)


class KeyCache:
    """The keys a process found by hash, each trusted for ``ttl`` seconds after its lookup.

    Only found (unrevoked) keys are kept, so an unknown key is looked up every time and a
    new key works at once; a revoked one keeps working here for at most ``ttl`` seconds.
    """

    MAX = 10_000

    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._rows: dict[str, tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def lookup(self, store: KeyStore, key_hash: str) -> dict[str, Any] | None:
        """The unrevoked key with this hash (``store.api_key_by_hash``), from the cache while fresh."""
        if self.ttl <= 0:
            return store.api_key_by_hash(key_hash)
        now = time.monotonic()
        hit = self._rows.get(key_hash)
        if hit is not None and now - hit[0] < self.ttl:
            return hit[1]
        try:
            row = store.api_key_by_hash(key_hash)
        except StoreError:
            # the database is down: a key this process knew stays known, so that a scrape
            # of /metrics still says so (memlane_store_up 0); every other route fails on
            # the database anyway, and no key can be revoked meanwhile (session 24)
            if hit is None:
                raise
            return hit[1]
        with self._lock:
            if row is None:
                self._rows.pop(key_hash, None)
            else:
                if len(self._rows) >= self.MAX:
                    self._rows.clear()
                self._rows[key_hash] = (now, row)
        return row


COOKIE = "memlane_key"
"""The inspector's sign-in cookie (``memlane.serve.http.inspector.signin``): the same key,
accepted instead of the header for reads and for the inspector's CSRF-checked forms."""


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        if request.method in ("GET", "HEAD") or getattr(request.state, "csrf_ok", False):
            return request.cookies.get(COOKIE) or None
        return None
    kind, _, token = header.strip().partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "Authorization header must be 'Bearer <key>'",
                       "Authorization")
    return token.strip()


def _keyed(state: Any, store: KeyStore) -> bool:
    """``store.has_api_keys()``, remembered: once true it stays true (a revoked key still
    counts), and while the database is down the last answer stands, so that /metrics of an
    open service still answers (``memlane_store_up 0``) instead of 503."""
    if getattr(state, "keyed", False):
        return True
    try:
        state.keyed = store.has_api_keys()
    except StoreError:
        if getattr(state, "keyed", None) is None:
            raise
    return bool(state.keyed)


def _resolve(request: Request) -> Principal:
    """The caller of ``request`` (``_lookup``), looked up once more on a new connection
    when the database's was lost in the middle of it, as every call's body is
    (``serve.again``; a read: the key's last use is recorded apart, its failure ignored).
    A loss there, before the call's body ran, failed the request with 503 on every
    surface (session 26)."""
    return once_more_if_lost(request.app.state.memory.store, "API key lookup",
                             lambda: _lookup(request), write=False)


def _lookup(request: Request) -> Principal:
    store = request.app.state.memory.store
    token = _bearer(request)
    if (token is not None and "authorization" not in request.headers
            and not _keyed(request.app.state, store)):
        # the sign-in cookie of another service on this host and port (cookies know no
        # database): an open service sent the browser to a sign-in no key can pass, saying
        # "this service needs an API key" (session 25). A key sent in the header is still
        # checked: a client that sends one means it.
        token = None
    if token is None:
        if _keyed(request.app.state, store):
            raise ApiError(401, "unauthorized", "this service needs an API key: send "
                           "'Authorization: Bearer <key>' (memlane keys create makes one)",
                           "Authorization")
        host = request.client.host if request.client else ""
        if not is_loopback(host):
            raise ApiError(401, "unauthorized", "no API key is defined, so only loopback "
                           "clients are served; create one with memlane keys create",
                           "Authorization")
        return OPEN
    cache = getattr(request.app.state, "keys", None)
    key_hash = hash_key(token)
    row = cache.lookup(store, key_hash) if cache is not None else store.api_key_by_hash(key_hash)
    if row is None:
        raise ApiError(401, "unauthorized", "unknown or revoked API key", "Authorization")
    state = request.app.state
    now = time.time()
    with state.touch_lock:
        due = now - state.touched.get(row["id"], 0.0) >= _TOUCH_EVERY
        if due:
            state.touched[row["id"]] = now
    if due and getattr(store, "read_only", False):
        # a read-only database (a replica, ?mode=ro): every request failed on this write
        # (session 22); the key's last use goes unrecorded, logged once
        if not getattr(state, "said_read_only", False):
            state.said_read_only = True
            log.warning("the database is read-only: API keys' last use is not recorded")
    elif due:
        try:
            with store.atomic():
                store.touch_api_key(row["id"], now)
        except StoreError:  # the database is down: the route says so if it needs it
            state.touched.pop(row["id"], None)
    return Principal(row["id"], row["name"], tuple(row["scopes"]), row["read_only"])


def _retry_in(wait: float) -> int:
    return max(1, int(wait + 0.999))


def checked_key(request: Request, find: Callable[[], Any], presented: bool) -> Any:
    """``find()`` (a key's lookup), within the failed-authentication limit of the client's
    address (``serve.failed_auth_limit``): an address whose presented keys failed faster
    than that gets 429 with ``Retry-After``, its keys not looked up, until its bucket
    fills again. Unknown keys were refused with 401 as fast as a client could send them,
    so keys could be guessed at the server's full speed (session 28). ``presented``: the
    request carried a key (a 401 for no key at all tells a guesser nothing)."""
    limiter = request.app.state.failed_auth
    address = failed_auth_key(request.client.host) if request.client else ""
    wait = limiter.wait(address)
    if wait > 0:
        retry = _retry_in(wait)
        raise ApiError(429, "rate_limited", f"too many failed authentications from "
                       f"{address or 'this address'} (more than {limiter.rate:g}/s, "
                       f"serve.failed_auth_limit); retry in {retry}s", "Authorization",
                       headers={"Retry-After": str(retry)})
    try:
        return find()
    except ApiError as e:
        if e.status == 401 and presented:
            limiter.take(address)
        raise


def principal(request: Request) -> Principal:
    """FastAPI dependency: the caller, authenticated and within its rate limit."""
    cached = getattr(request.state, "principal", None)
    if cached is not None:
        return cached
    who = checked_key(request, lambda: _resolve(request),
                      "authorization" in request.headers or COOKIE in request.cookies)
    wait = request.app.state.limiter.take(who.key_id)
    if wait > 0:
        retry = _retry_in(wait)
        raise ApiError(429, "rate_limited", f"rate limit of {request.app.state.limiter.rate:g} "
                       f"requests/s for this key; retry in {retry}s",
                       headers={"Retry-After": str(retry)})
    request.state.principal = who
    return who


def caller(request: Request) -> Principal:
    """``principal`` in a thread of its own (FastAPI's for a sync dependency: the inspector's
    pages, ``/metrics``, the live stream; ``/mcp``'s transport), which then goes idle: it
    gives its connection back while the server is full, as a REST route's thread does
    after its call (session 26: these threads kept theirs until anyio ended them)."""
    try:
        return principal(request)
    finally:
        request.app.state.memory.store.release_if_crowded()
