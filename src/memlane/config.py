"""Typed settings: defaults here, then ``memlane.toml``, then ``MEMLANE_*`` environment.

Every default of memlane lives in this module. A TOML file has a ``[memory]`` table with
one sub-table per section::

    [memory]
    db = "memlane.db"

    [memory.ingest]
    session_gap_minutes = 30

    [memory.search]
    lexical_weight = 0.7

An environment variable overrides a key: ``MEMLANE_<SECTION>_<KEY>`` (for example
``MEMLANE_SEARCH_RRF_K=60``); ``MEMLANE_DB`` sets the database and ``MEMLANE_CONFIG`` names
the TOML file. Key and variable names are never renamed once released.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import math
import os
import tomllib
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memlane.clip import clip
from memlane.errors import ConfigError
from memlane.types import KINDS, PRIVACIES

__all__ = [
    "ConfidenceConfig",
    "Config",
    "EmbeddingConfig",
    "FactsConfig",
    "HygieneConfig",
    "IndexingConfig",
    "IngestConfig",
    "LLMServiceConfig",
    "LiveConfig",
    "McpConfig",
    "PackConfig",
    "RetrievalConfig",
    "SearchConfig",
    "ServeConfig",
    "load_config",
]


def _check(cond: bool, key: str, message: str) -> None:
    if not cond:
        raise ConfigError(f"{key}: {message}")


def _check_int(value: Any, key: str, low: int, high: int | None = None, note: str = "") -> None:
    """An integer key's range, refused in the words of every other surface (the CLI's
    options, the library's, HTTP's and MCP's parameters: ``validate.int_range``):
    ``memory.search.default_k: must be an integer from 1 to 1000, got 0``; ``note`` says
    what a special value means (`` (0 = no cap)``). No ``high``: at most what 64 bits hold."""
    from memlane.ingest.validate import INT64_MAX, int_refused

    refused = int_refused(value, low, INT64_MAX if high is None else high)
    if refused is not None:
        raise ConfigError(f"{key}: {refused}{note}")


@dataclass(frozen=True)
class IngestConfig:
    """How messages become sessions. ``[memory.ingest]``."""

    session_gap_minutes: float = 30.0
    """An inactivity gap longer than this closes a scope's open session."""
    min_session_messages: int = 4
    """Sessions smaller than this are not summarized (counted as skipped)."""
    max_message_chars: int = 100_000
    """Longer messages are refused with a ValidationError."""
    max_future_minutes: float = 1440.0
    """A message dated more than this after the clock of the process storing it is refused
    (``at``, a ValidationError): a skewed clock or a local time sent as UTC would otherwise
    open a session that ends in the future, which no idle sweep closes and before which every
    later message is late."""
    redact_secrets: bool = True
    """Replace API keys, tokens, passwords and private keys by typed placeholders."""
    redact_pii: bool = False
    """Also replace email addresses and phone numbers (a PII class, off by default)."""
    redact_patterns: tuple[str, ...] = ()
    """Extra regular expressions whose matches are redacted as ``custom`` (your own formats)."""

    def __post_init__(self) -> None:
        import re

        for pattern in self.redact_patterns:
            try:
                re.compile(pattern)
            except re.error as e:
                raise ConfigError(f"memory.ingest.redact_patterns: {pattern!r} is not a regular "
                                  f"expression ({e})") from None
        _check(self.session_gap_minutes > 0, "memory.ingest.session_gap_minutes", "must be > 0")
        _check(0 <= self.max_future_minutes <= 1e9, "memory.ingest.max_future_minutes",
               "must be from 0 to 1e9")
        _check_int(self.min_session_messages, "memory.ingest.min_session_messages", 1)
        _check_int(self.max_message_chars, "memory.ingest.max_message_chars", 1)


@dataclass(frozen=True)
class EmbeddingConfig:
    """Which embedder indexes and queries. ``[memory.embedding]``."""

    backend: str = "static"
    """static (default, fast, derived from bundled MiniLM), minilm, hashing or openai."""
    model: str = ""
    """Model name for the openai backend."""
    base_url: str = ""
    """Base URL for the openai backend, e.g. http://127.0.0.1:8080/v1."""
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the openai backend's key (the key is never stored)."""
    batch_size: int = 256

    def __post_init__(self) -> None:
        allowed = ("static", "minilm", "hashing", "openai")
        _check(self.backend in allowed, "memory.embedding.backend", f"must be one of {', '.join(allowed)}")
        if self.backend == "openai":
            _check(bool(self.base_url), "memory.embedding.base_url",
                   "is required for memory.embedding.backend = openai")
            _check(self.base_url.startswith(("http://", "https://")), "memory.embedding.base_url",
                   f"must be an http(s) URL, got {self.base_url!r}")
            _check(bool(self.model), "memory.embedding.model", "is required for memory.embedding.backend = openai")
        _check_int(self.batch_size, "memory.embedding.batch_size", 1)


@dataclass(frozen=True)
class SearchConfig:
    """Hybrid retrieval. ``[memory.search]``."""

    rrf_k: int = 60
    """Reciprocal-rank-fusion constant (textbook 60)."""
    lexical_weight: float = 0.7
    vector_weight: float = 0.3
    candidates: int = 100
    """Candidates taken from each of the lexical and vector lists before fusion."""
    default_k: int = 10
    default_privacy: tuple[str, ...] = ("private", "project")
    """Privacy levels searched unless a caller asks for others ("shared" only on request)."""

    def __post_init__(self) -> None:
        _check_int(self.rrf_k, "memory.search.rrf_k", 1)
        _check(self.lexical_weight >= 0, "memory.search.lexical_weight", "must be >= 0")
        _check(self.vector_weight >= 0, "memory.search.vector_weight", "must be >= 0")
        _check(
            self.lexical_weight + self.vector_weight > 0,
            "memory.search.lexical_weight + memory.search.vector_weight",
            "must be > 0 (with both 0 nothing is ranked)",
        )
        _check_int(self.candidates, "memory.search.candidates", 1)
        from memlane.ingest.params import MAX_K  # the same bounds as a call's k

        _check_int(self.default_k, "memory.search.default_k", 1, MAX_K)
        bad = [p for p in self.default_privacy if p not in PRIVACIES]
        _check(not bad, "memory.search.default_privacy", f"unknown level(s) {bad}; use {PRIVACIES}")
        _check(bool(self.default_privacy), "memory.search.default_privacy",
               f"must name at least one level of {PRIVACIES} (none would find nothing)")


@dataclass(frozen=True)
class IndexingConfig:
    """Session intelligence: summaries, entities, facts. ``[memory.indexing]``."""

    enabled: bool = True
    """Off: closed sessions are only turn-indexed, exactly as without this feature."""
    backend: str = "offline"
    """offline (default: no model, no network) or llm (a service of ``[llm.services]``)."""
    service: str = ""
    """Name of the ``[llm.services.NAME]`` table to use with backend llm."""
    model: str = ""
    """Model override for that service (default: the service's model)."""
    max_attempts: int = 5
    """A failing session is retried with backoff until this many attempts."""
    retry_base_seconds: float = 30.0
    """Backoff after attempt n is retry_base_seconds × 2^(n-1)."""
    max_deferrals: int = 24
    """A 429 or 5xx from the model endpoint while nothing shows that it answers other
    sessions is taken for an outage: the session's attempt is given back (at most this many
    times a session, each waiting retry_base_seconds × 2^n, at most an hour); past it, such
    failures count as attempts (a session the endpoint never answers is not retried for
    ever). 0: every failure counts."""
    lease_seconds: float = 600.0
    """A claimed session returns to the queue if its worker has not finished by then."""
    late_settle_seconds: float = 60.0
    """A summarized (or queued) session that late messages join is summarized again by the
    background worker this long after the first of them, not at its next poll: a burst of
    late messages (an app replaying its outbox) costs one summary, not one a message; those
    arriving after that wait for the next. An explicit ``index()`` summarizes it at once.
    0: at the next poll."""
    max_input_tokens: int = 6000
    """Session text sent to a model is capped at about this many tokens, counted with
    cl100k_base as packs count them (the first turn and the most recent turns are kept)."""
    small_session_facts: bool = True
    """A session smaller than ``ingest.min_session_messages`` gets no summary, but the
    offline patterns still read its facts, entities and observations ("I'm vegetarian" in a
    two-message exchange); no model is called for it, whatever the backend. Off: such a
    session is skipped entirely, as before session 17."""
    jobs: int = 1
    """Processes that summarize with the offline backend (pure CPU work) when a backlog
    waits (200 sessions or more): one a core. 1 (the default): in the worker's own process
    only; 0: the usable cores, at most 4. Off by default: on the shared 2-core machine of
    session 24 no run of two processes was faster than one (320 sessions: 8.3 s wall
    against 6.2 s), so it is for a machine with idle cores, measured there. The worker still writes every session itself, one
    transaction each, in the order it claimed them; an LLM backend summarizes one session
    at a time whatever this says (its calls wait on the network)."""
    worker_max_backoff_seconds: float = 60.0
    """The background worker's longest wait after failed runs (each failure doubles the
    wait from the poll, up to this). A failure while the database did not answer ends its
    wait as soon as the database answers again (asked every second), whatever this says."""

    def __post_init__(self) -> None:
        from memlane.backends.registry import available_intelligence

        _check(self.backend in available_intelligence(), "memory.indexing.backend",
               f"must be one of {', '.join(available_intelligence())} (a name given to "
               f"memlane.backends.registry.register_intelligence counts), got {self.backend!r}")
        if self.backend == "llm":
            _check(bool(self.service), "memory.indexing.service", "is required for memory.indexing.backend "
                   "= llm (the NAME of an [llm.services.NAME] table)")
        _check_int(self.max_attempts, "memory.indexing.max_attempts", 1)
        _check_int(self.max_deferrals, "memory.indexing.max_deferrals", 0, 10_000)
        _check(0 <= self.retry_base_seconds <= 86400, "memory.indexing.retry_base_seconds",
               "must be 0-86400 seconds")
        _check(0 < self.lease_seconds <= 604800, "memory.indexing.lease_seconds",
               "must be more than 0 and at most 604800 seconds (a week)")
        _check(0 <= self.late_settle_seconds <= 86400, "memory.indexing.late_settle_seconds",
               "must be 0-86400 seconds")
        _check_int(self.max_input_tokens, "memory.indexing.max_input_tokens", 256)
        _check_int(self.jobs, "memory.indexing.jobs", 0, 64,
                   " (0: the usable cores, at most 4)")
        _check(0.01 <= self.worker_max_backoff_seconds <= 86400,
               "memory.indexing.worker_max_backoff_seconds", "must be 0.01-86400 seconds")


@dataclass(frozen=True)
class SummaryConfig:
    """The offline backend's summaries. ``[memory.summary]``."""

    sentence_model: bool = True
    """The learned sentence model that ships in the package joins the cue patterns (it
    places decisions, next steps and rationale they missed; session 14 of
    docs/summary-eval.md). Off: the cue patterns alone, as before session 14."""
    facts_model: bool = False
    """The learned facts reader (session 49 of docs/summary-eval.md): with the sentence model
    on, it adds the sentences it finds stating a fact as ``<speaker> stated <sentence>``.
    Opt-in: facts F1 0.170 -> 0.351 on the 16 labelled sets it never saw, but about 14 % more
    CPU a session (session 50). Its ``stated`` facts are stored with no search item (session 50):
    retrieval is the reader off's (LoCoMo dev recall_any@10 0.879 either way; it was 0.873 when
    they were searched). Off (the default): the readers' facts alone."""
    sentence_vectors: str = "static"
    """Where the sentence model's sentence vectors come from: ``static`` (the default) the
    static embedder's; ``meaning`` the meaning tier's transformer's (all-MiniLM-L6-v2 int8,
    the ``meaning`` extra) beside them, with weights that ship beside the default's. Opt-in:
    on the eleven labelled sets neither model trained on, D+R+OQ+NS 18.48 -> 19.07 (mostly
    rationale), at about a thirteenth of the offline backend's speed (12 against 157-177
    sessions per CPU second; session 31 of docs/summary-eval.md)."""

    def __post_init__(self) -> None:
        _check(self.sentence_vectors in ("static", "meaning"), "memory.summary.sentence_vectors",
               f"must be static or meaning, got {self.sentence_vectors!r}")


@dataclass(frozen=True)
class ConfidenceConfig:
    """The confidence model of facts. ``[memory.confidence]``.

    ``score = base(source) × min(1 + reinforcement_step × reinforcements, reinforcement_cap)
    × staleness × (0 if superseded)``; staleness is 1.0 until ``staleness_days`` since the
    last access, then falls linearly to ``staleness_floor`` at ``staleness_full_days``.
    """

    base_stated: float = 1.0
    base_system: float = 0.9
    base_observed: float = 0.7
    base_inferred: float = 0.5
    reinforcement_step: float = 0.1
    reinforcement_cap: float = 1.5
    staleness_days: float = 30.0
    staleness_full_days: float = 365.0
    staleness_floor: float = 0.5
    touch_on_access: bool = True
    """Searching a fact counts as an access (its staleness clock restarts)."""

    def __post_init__(self) -> None:
        for name in ("base_stated", "base_system", "base_observed", "base_inferred"):
            _check(0 <= getattr(self, name) <= 1, f"memory.confidence.{name}", "must be between 0 and 1")
        _check(self.reinforcement_step >= 0, "memory.confidence.reinforcement_step", "must be >= 0")
        _check(self.reinforcement_cap >= 1, "memory.confidence.reinforcement_cap", "must be >= 1")
        _check(self.staleness_days >= 0, "memory.confidence.staleness_days", "must be >= 0")
        _check(self.staleness_full_days > self.staleness_days, "memory.confidence.staleness_full_days",
               f"must be greater than memory.confidence.staleness_days ({self.staleness_full_days:g} "
               f"<= {self.staleness_days:g})")
        _check(0 <= self.staleness_floor <= 1, "memory.confidence.staleness_floor", "must be between 0 and 1")


_MULTI = ("likes", "dislikes", "visited", "has", "acquired", "started", "signed_up_for", "uses",
          "studied_at", "allergic_to", "sister", "brother", "friend", "colleague", "coworker",
          "son", "daughter", "cousin", "cat", "dog", "pet", "puppy", "kitten", "niece", "nephew",
          "neighbor", "aunt", "uncle", "decided", "did", "scheduled", "suggested",
          # session 18: what the user says about themselves and their people
          "child", "parent", "grandchild", "grandson", "granddaughter", "grandmother", "grandfather",
          "grandparent", "stepson", "stepdaughter", "baby", "flatmate", "roommate", "housemate",
          "sister_in_law", "brother_in_law", "rabbit", "hamster", "tortoise", "parrot", "horse",
          "intolerant_to", "condition", "avoids",
          # session 49: a sentence the learned facts reader keeps is one of many, never a value that replaces
          "stated")


@dataclass(frozen=True)
class FactsConfig:
    """Which predicates hold one value at a time. ``[memory.facts]``.

    A new fact with the same subject and predicate but another object supersedes the old
    one when the predicate is single-valued (a city, a job, a key) and accumulates when it
    is multi-valued (likes, visited).
    """

    multi_valued: tuple[str, ...] = _MULTI
    single_valued: tuple[str, ...] = ()
    """Listed here wins over multi_valued."""
    default_single_valued: bool = True
    """Cardinality of predicates in neither list."""


@dataclass(frozen=True)
class HygieneConfig:
    """Expiry, lane caps and compaction. ``[memory.hygiene]``."""

    lane_caps: tuple[str, ...] = ("ephemeral=5000",)
    """``lane=max_items`` pairs; the lowest-value items of a lane over its cap are evicted."""
    compact_min_summaries: int = 5
    """A topic with more summaries than this is folded into one decision record."""
    compact_older_than_days: float = 90.0
    """...or when its summaries are all older than this (and there are at least two)."""

    def caps(self) -> dict[str, int]:
        out = {}
        for pair in self.lane_caps:
            lane, _, n = pair.partition("=")
            out[lane.strip()] = int(n)
        return out

    def __post_init__(self) -> None:
        from memlane.types import LANES

        for pair in self.lane_caps:
            lane, sep, n = pair.partition("=")
            n = n.strip()
            _check(bool(sep) and lane.strip() in LANES and n.isascii() and n.isdigit()
                   and int(n) < _INT64, "memory.hygiene.lane_caps",
                   f"{pair!r} must be lane=max_items with a lane of {', '.join(LANES)} and a "
                   "whole number of items")
        _check_int(self.compact_min_summaries, "memory.hygiene.compact_min_summaries", 2)
        _check(self.compact_older_than_days > 0, "memory.hygiene.compact_older_than_days", "must be > 0")


@dataclass(frozen=True)
class LiveConfig:
    """The change log behind the live memory stream. ``[memory.live]``.

    Hygiene (``gc``) prunes it; a client resuming from a pruned position is told to take
    a new snapshot.
    """

    keep_days: float = 7.0
    """Changes older than this are pruned."""
    keep_changes: int = 1_000_000
    """At most this many of the newest changes are kept (all scopes together)."""

    def __post_init__(self) -> None:
        _check(self.keep_days > 0, "memory.live.keep_days", "must be > 0")
        _check_int(self.keep_changes, "memory.live.keep_changes", 1)


@dataclass(frozen=True)
class EraseConfig:
    """Erasure. ``[memory.erase]`` (docs/erasure.md)."""

    vacuum: bool = False
    """After every erase (``forget_scope``, ``forget_session``, ``forget_item``,
    ``forget_fact``), rewrite the database (``Memory.vacuum``): on SQLite a stale copy of an
    erased row left in a page's free gap goes too; each erase then takes as long as a
    ``VACUUM`` of the whole file."""


@dataclass(frozen=True)
class PackConfig:
    """Context packing. ``[memory.pack]``."""

    budget: int = 1000
    """Default token budget of a pack."""
    model: str = ""
    """Target model whose tokenizer counts tokens (e.g. gpt-4); any other model, or empty:
    cl100k_base as a stated approximation."""
    candidates: int = 30
    """Search hits considered for a pack."""
    max_summaries: int = 3
    summary_chars: int = 420
    max_facts: int = 8
    max_relevant_turns: int = 8
    recent_turns: int = 4
    """Verbatim most recent messages of the scope (when a scope is given)."""
    slot_order: tuple[str, ...] = ("facts", "summaries", "relevant_turns", "recent_turns")
    """Soft slots in priority order; hard slots (instructions, pinned) always come first."""
    journal: bool = True
    """Record each pack so ``memlane packs show ID`` can replay it."""

    def __post_init__(self) -> None:
        from memlane.ingest.params import MAX_BUDGET, MAX_K  # the same bounds as a call's

        _check_int(self.budget, "memory.pack.budget", 16, MAX_BUDGET)
        # 0 was taken and packed one hit (a search's k is at least 1), while the README
        # said it was refused
        _check_int(self.candidates, "memory.pack.candidates", 1, MAX_K, " (it is a search's k)")
        for name in ("max_summaries", "summary_chars", "max_facts",
                     "max_relevant_turns", "recent_turns"):
            _check_int(getattr(self, name), f"memory.pack.{name}", 0)
        known = {"facts", "summaries", "relevant_turns", "recent_turns"}
        bad = [x for x in self.slot_order if x not in known]
        _check(not bad, "memory.pack.slot_order", f"unknown slot(s) {bad}; use {sorted(known)}")
        twice = sorted({x for x in self.slot_order if self.slot_order.count(x) > 1})
        _check(not twice, "memory.pack.slot_order", f"names {twice} more than once")


@dataclass(frozen=True)
class McpConfig:
    """The MCP server (``memlane mcp``). ``[memory.mcp]``."""

    scope: str = ""
    """Default scope of the tools when a call names none (``--scope`` and ``$MEMLANE_SCOPE``
    win over it); empty = none."""
    allowed_scopes: tuple[str, ...] = ()
    """Scope patterns (``*`` and ``?`` wildcards) the stdio server may reach; empty = all."""
    read_only: bool = False
    """Refuse the tools that write or delete (remember, forget, summarize)."""
    index_worker: bool = True
    """Index closed sessions in a background thread while the server runs."""
    worker_poll_seconds: float = 5.0
    """Seconds between that worker's index runs."""

    def __post_init__(self) -> None:
        _check(len(self.scope) <= 256 and "\x00" not in self.scope, "memory.mcp.scope",
               "must be at most 256 characters with no NUL bytes")
        _check(all(p.strip() for p in self.allowed_scopes), "memory.mcp.allowed_scopes",
               "patterns must not be empty")
        _check(0.01 <= self.worker_poll_seconds <= 86400, "memory.mcp.worker_poll_seconds",
               "must be from 0.01 to 86400 (as Memory.start_worker's poll_seconds)")


@dataclass(frozen=True)
class ServeConfig:
    """The HTTP service (``memlane serve``). ``[memory.serve]``."""

    host: str = "127.0.0.1"
    """Address to bind; a non-loopback one is refused while no API key exists."""
    port: int = 8420
    workers: int = 1
    """uvicorn worker processes (each runs its own index worker thread unless disabled)."""
    index_worker: bool = True
    """Run the index worker in the service (a background thread, off the request path)."""
    worker_poll_seconds: float = 5.0
    """Seconds between the service's index runs."""
    max_body_bytes: int = 10_000_000
    """Larger request bodies are refused with 413."""
    rate_limit: float = 0.0
    """Requests per second allowed per API key (token bucket) by each process; 0 means no
    limit. Each of ``serve.workers`` processes keeps its own bucket, so with N processes a
    key may make up to N times this."""
    rate_burst: int = 0
    """Requests a key may make at once before the rate applies; 0 means 2 × rate_limit."""
    failed_auth_limit: float = 1.0
    """Failed authentications (an unknown, revoked or malformed API key, by header, cookie
    or the inspector's sign-in) a client address may make a second, by each process; past
    it (and ``failed_auth_burst``), every request from that address gets 429 with
    ``Retry-After`` and its keys are not looked up until its bucket fills again. 0 means no
    limit. The address is the connection's, or behind a proxy of ``trusted_proxies`` the one
    its ``X-Forwarded-For`` names."""
    failed_auth_burst: int = 10
    """Failed authentications an address may make at once before ``failed_auth_limit``
    applies; 0 means 2 × failed_auth_limit."""
    failed_auth_addresses: int = 10_000
    """The addresses whose failures a process remembers, the least recently failed
    forgotten first (bounded memory under a flood of addresses)."""
    trusted_proxies: tuple[str, ...] = ()
    """Reverse proxies (addresses or CIDR networks, e.g. ``["10.0.0.0/8", "::1"]``) whose
    ``X-Forwarded-For`` names the client: a request from one of them is the right-most
    address of that header not itself a trusted proxy (for ``failed_auth_limit`` and the
    loopback-only open service), its scheme ``X-Forwarded-Proto``'s. Empty (the default):
    no forwarded header is trusted, the client is the connection's address."""
    stream_poll_seconds: float = 0.5
    """How often ``/state/memory`` looks for new changes."""
    shutdown_seconds: float = 30.0
    """On SIGTERM, how long in-flight requests and streams may take to finish."""
    threads: int = 0
    """Requests a process runs at once, reads and writes each (the rest wait their turn in
    the event loop); 0 = by store: 2 on SQLite, 40 on PostgreSQL."""
    key_cache_seconds: float = 1.0
    """How long a process trusts an API key it looked up (0: look it up on every request).
    A revoked key is refused by every process at most this long after the revocation."""
    db_connections: int = 0
    """On PostgreSQL, the connections one process opens at most, all of them: 1 held by the
    thread running its event loop, 2 by its index worker (when it runs), a quarter of the
    rest (at most 4) for the helper threads of searches over every scope, and the rest for
    requests: the threads it runs requests in at once, every route together (reads, writes,
    live-stream polls, the inspector, MCP, ``/metrics``; the rest wait in the event loop).
    Too few for one request thread is refused at start. 0 = derived at start: half of the
    connections the server lets this role open (``max_connections`` less its reserved
    slots, or the role's or database's ``CONNECTION LIMIT``) divided by ``workers``, at
    most 16 (session 26; before, 0 was no cap: up to 2 × ``threads`` + 47). On SQLite it
    caps the request threads (0: no cap of its own)."""

    def __post_init__(self) -> None:
        _check(bool(self.host.strip()), "memory.serve.host", "must not be empty")
        _check_int(self.port, "memory.serve.port", 0, 65535)
        _check_int(self.workers, "memory.serve.workers", 1)
        _check(0.01 <= self.worker_poll_seconds <= 86400, "memory.serve.worker_poll_seconds",
               "must be from 0.01 to 86400 (as Memory.start_worker's poll_seconds)")
        _check_int(self.max_body_bytes, "memory.serve.max_body_bytes", 1024)
        _check(self.rate_limit >= 0, "memory.serve.rate_limit", "must be >= 0 (0 = no limit)")
        _check_int(self.rate_burst, "memory.serve.rate_burst", 0)
        _check(self.failed_auth_limit >= 0, "memory.serve.failed_auth_limit",
               "must be >= 0 (0 = no limit)")
        _check_int(self.failed_auth_burst, "memory.serve.failed_auth_burst", 0)
        _check_int(self.failed_auth_addresses, "memory.serve.failed_auth_addresses", 1, 10_000_000)
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy.strip())
            except ValueError as e:
                raise ConfigError(f"memory.serve.trusted_proxies: {proxy!r} is not an address "
                                  f"or CIDR network ({e})") from None
        _check(self.stream_poll_seconds > 0, "memory.serve.stream_poll_seconds", "must be > 0")
        _check(self.shutdown_seconds > 0, "memory.serve.shutdown_seconds", "must be > 0")
        _check_int(self.threads, "memory.serve.threads", 0, note=" (0 = by store)")
        _check(self.key_cache_seconds >= 0, "memory.serve.key_cache_seconds", "must be >= 0 (0 = no cache)")
        _check_int(self.db_connections, "memory.serve.db_connections", 0, 10_000,
                   " (0 = derived from the server at start)")


MAX_TIMEOUT = 86_400.0
"""The longest ``timeout_seconds`` (a day): past about 1e10 s every request raised a bare
OverflowError from the socket layer."""


@dataclass(frozen=True)
class LLMServiceConfig:
    """One OpenAI-compatible chat endpoint. ``[llm.services.NAME]``."""

    base_url: str
    """e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8080/v1."""
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    """Environment variable holding the key; the key itself is never stored."""
    timeout_seconds: float = 60.0
    max_retries: int = 3
    requests_per_minute: float = 0.0
    """0 means no client-side rate limit."""
    temperature: float = 0.0

    def __post_init__(self) -> None:
        from urllib.parse import urlsplit

        _check(self.base_url.startswith(("http://", "https://")), "llm.services.base_url",
               f"must be an http(s) URL, got {self.base_url!r}")
        _check(bool(urlsplit(self.base_url).hostname), "llm.services.base_url",
               f"names no host, got {self.base_url!r} (e.g. 'http://127.0.0.1:11434/v1')")
        _check(bool(self.model), "llm.services.model", "is required")
        _check(0 < self.timeout_seconds <= MAX_TIMEOUT, "llm.services.timeout_seconds",
               f"must be > 0 and at most {MAX_TIMEOUT:,.0f} (a day), got {self.timeout_seconds:g}")
        _check_int(self.max_retries, "llm.services.max_retries", 0)
        _check(self.requests_per_minute >= 0, "llm.services.requests_per_minute", "must be >= 0")
        _check(0 <= self.temperature <= 2, "llm.services.temperature",
               f"must be 0-2 (the range OpenAI-compatible endpoints take), got {self.temperature}")


@dataclass(frozen=True)
class RetrievalConfig:
    """Session-aware two-stage retrieval and reranking. ``[memory.retrieval]``.

    The ``*_weight`` keys are the ``default`` preset; a named preset (``preset = "arawn"``,
    see ``memlane.retrieve.presets``) replaces them all.
    """

    session_aware: bool = True
    """Rank sessions first (by their summaries and best turns), then turns inside them."""
    top_sessions: int = 5
    """S: sessions kept by stage one."""
    turns_per_session: int = 5
    """T: turns taken from each of those sessions by stage two (5, not the 3 first proposed:
    measured on LongMemEval_S dev, T = 3 loses 3 points of turn recall_all@10)."""
    late_turns: int = 2
    """Stage two also takes each shortlisted session's next this many turns after its best
    ``turns_per_session``; they compete for the first ``final_k`` places but none takes one
    of the first ``LATE_HOLD`` (5), which stay those of the best T turns' pool (0: off;
    docs/retrieval.md, "Session 40: turns past a session's fifth")."""
    final_k: int = 10
    """K: how many of the S×T turns the rerank puts first (the rest of the ranking follows)."""
    candidates: int = 200
    """Items taken from each of the lexical and vector lists for stage one."""
    session_depth: int = 3
    """Stage one: how many of a session's best candidate turns count toward its score."""
    session_decay: float = 0.3
    """Stage one: the j-th best turn counts ``session_decay ** j`` (the best fully)."""
    session_intel_weight: float = 0.0
    """Stage one: weight of the session's best summary / fact / entity candidate."""
    session_time_boost: float = 1.0
    """Stage one: a session inside a window the query names ("last week") scores × (1 + this)."""
    session_entity_boost: float = 0.2
    """Stage one: a session holding the entities the query names ("What did the kids do at
    Lake Wanaka?": an item of the session mentions Lake Wanaka; not the conversation's
    speakers, named in every session) scores × (1 + this × the share of them it holds), so
    the session of the named place or person rises past one that only shares the question's
    other words (0: off; docs/retrieval.md, "Session 52")."""
    source_lift: float = 1.0
    """A candidate fact or observation lifts the turn it was read from to this share of its
    own relevance (0: off). Short, they find passing mentions inside long messages."""
    fusion_lexical: float = 0.6
    """RRF weight of the lexical list in this section's presets (``flat`` uses [memory.search])."""
    fusion_vector: float = 0.4
    """RRF weight of the vector list in this section's presets."""
    preset: str = "default"
    """default (the weights below) or a named preset of ``memlane.retrieve.presets``:
    session, flat, arawn, recency, lexical."""
    relevance_weight: float = 1.0
    """Fused lexical + vector relevance of the item itself (rank-normalised RRF)."""
    session_weight: float = 0.05
    """Stage-one score of the item's session (normalised to the best session's)."""
    bm25_weight: float = 0.0
    """BM25 score divided by the best candidate's."""
    cosine_weight: float = 0.0
    """Raw cosine similarity to the query (the arawn preset's 0.4)."""
    recency_weight: float = 0.0
    """Recency decay by durability: short 6 h, long 7 d, chat 72 h, decisions 30 d."""
    confidence_weight: float = 0.0
    graph_weight: float = 0.0
    """Entities of the item (or its session) named by the query."""
    overlap_weight: float = 0.0
    """Share of query terms found in the item's text."""
    summary_weight: float = 0.0
    """Bonus for session summaries."""
    coverage_weight: float = 0.0
    """Penalty for turns of a session already represented higher up."""
    trust_weight: float = 0.0
    pin_weight: float = 0.0
    kind_weight: float = 1.0
    kind_bonuses: tuple[str, ...] = ("turn.user:0.3",)
    """Per-kind bonuses as ``kind:value`` (``turn.user`` / ``turn.assistant`` for turns by
    role), scaled by kind_weight; also added to a turn's relevance in stage one."""
    time_weight: float = 0.4
    """Match between item time and the dates the query names ("last week", "in March",
    "on 21 May, 2023"); docs/retrieval.md, ninth round."""
    mmr: bool = False
    """Diversify the final top K with maximal marginal relevance."""
    mmr_lambda: float = 0.7
    """MMR trade-off: 1 is pure relevance, 0 pure diversity."""
    hyde: bool = False
    """Expand low-confidence queries with a hypothetical answer from an LLM."""
    hyde_service: str = ""
    """The ``[llm.services.NAME]`` used for HyDE."""
    hyde_threshold: float = 0.5
    """A query is low-confidence when its best lexical and vector lists agree less than this."""
    newest_weight: float = 0.23
    """Newest truth first: unless the question names an earlier time ("initially", "two
    weeks ago") or asks for advice, the best hit of each top session that says nearly what
    the best turn says gains this × its session's day's place in time among them (newest
    day 1; sessions of one day share a place) × its relevance over the best turn's (at
    most 1), and a turn whose stated facts were all superseded loses it (0: off)."""
    graph_hops: int = 1
    """Multi-hop: items mentioning the entities the query names (0) and their neighbours in
    the entity graph (1) join the candidates (0 hops: off, at most 1)."""
    graph_relevance: float = 0.3
    """The relevance such an item gets when it was not a candidate already (hop 1: × 0.7)."""
    speaker_factor: float = 0.6
    """Speaker focus: when the query names one of a conversation's speakers ("what did
    Caroline research?"), the name leaves the lexical query and other speakers' turns keep
    this share of their relevance (1: off)."""
    reply_lift: float = 1.0
    """A question one speaker asks that matches the query well lifts the next turn, its
    answer, to this share of its relevance (conversations with speakers only; 0: off)."""
    feedback_weight: float = 0.15
    """Feedback: when the query names one of a conversation's speakers, the lexical list is
    searched again with the words of that speaker's best ``feedback_depth`` candidate turns
    added, and fused as a third list of this RRF weight (0: off)."""
    feedback_depth: int = 1
    """How many of the best candidate turns give their words to the feedback list."""
    opener_lift: float = 0.9
    """Session openers: in a chat between a user and an assistant (no speakers), the user's
    first turn of each of the best sessions scores at least this share of its session's
    best hit (0: off)."""
    gather_sessions: int = 2
    """For a gathering question ("how many", "in total"), stage two also takes the turns of
    this many sessions after the ``top_sessions`` best; their hits rank below the best hit of
    each of those sessions (0: off)."""
    gather_openers: float = 0.6
    """For a gathering question ("how many", "in total"), the opener of each of the
    ``top_sessions`` best sessions (``opener_lift``) that scores at least this share of the
    best hit takes a place among the first ``final_k`` hits: each session tells its piece
    once, most often in its opener (0: off)."""
    advice_focus: bool = True
    """Advice questions ("Any tips?", "Can you recommend ...?"): the request's own words
    ("tips", "suggestions", "thinking", "lately") leave the lexical and the vector query,
    so the subject finds the user's earlier statements (``memlane.retrieve.advice``)."""
    day_parts: bool = True
    """A part of the day the query names ("in the evening", "tonight") also searches for
    the words of its hours: the parts it overlaps ("night") and "pm", so "by 9:30 pm" is
    found (``memlane.retrieve.timeparse.day_part_words``)."""
    continue_lift: float = 0.9
    """For an advice question, the user's first turn after their best-matching turn in
    each of the best sessions scores at least this share of it: the user states their
    likes and plans over several turns (chats without speakers only; 0: off)."""
    assistant_factor: float = 0.6
    """For a question about the user that is not a request for advice, the assistant's
    turns keep this share of their relevance: the answer is what the user said, and the
    assistant restates the user's subject at length (chats without speakers only; 1: off)."""
    reaction_factor: float = 0.8
    """When a query names one of a conversation's speakers, that speaker's turns with no
    first-person word ("Wow, that's so cool!", "What breed is your kitten?") keep this share
    of their relevance: the evidence is what they tell of themselves (1: off)."""
    named_lift: float = 1.5
    """For a question asking for things known by their names ("What films has Rosa
    seen?", "Which places has Omar been to?"), a candidate turn with a speaker that names
    something (a quoted title, a capitalised word inside a sentence; the focused speaker's
    own when the query names one) gains this share of its relevance: the instances share
    no word with the question, but they share its form (conversations with speakers only;
    0: off)."""
    doing_lift: float = 0.2
    """For a question asking what someone does ("What activities does Rosa take
    part in?", "What are Lena's hobbies?"), a candidate turn with a speaker that tells of doing
    something in the first person ("we went sailing", "I took up rowing"; the focused
    speaker's own when the query names one) gains this share of its relevance
    (conversations with speakers only; 0: off)."""
    speaker_first_named: bool = True
    """Speaker focus also when the query names two speakers apart ("What news did
    Omar share with Ivan?"): on the first one named, the one asked about (not when the
    names are joined: "Omar and Ivan", "both"; docs/retrieval.md, twelfth round)."""
    hedge_words: bool = True
    """Words of likelihood ("likely", "potentially", "possibly", "probably", "might") leave
    the lexical query: a question asking for an inference ("What would Rosa likely study?")
    is answered by what the speaker told of themselves, which rarely says "likely", and
    the rare word pulled in the turns that do (false: off; docs/retrieval.md, "Session 54")."""
    newest_skips_speakers: bool = True
    """A question naming one of a conversation's speakers ("Which team does Ivan
    support?") takes no newest-first lift (``newest_weight``): in a conversation between
    people a present-tense question about one of them asks what they told, wherever it was
    said, and the newest session that talks of the same thing is rarely where (false: the
    lift as for any question; docs/retrieval.md, "Session 55")."""
    speaker_session_weight: float = 0.3
    """For a question naming one of a conversation's speakers and asking for one thing (not
    a gathering, plural, over-time or habit question: "Where did Ivan leave his bike?"),
    the session signal (its stage-one score, as a share of the best session's)
    weighs this much more in the final score, beside ``session_weight``: the answer is most
    often a further turn of the best session, which other sessions' best turns outscored
    by a little (conversations with speakers only; 0: off; docs/retrieval.md, "Session 56")."""
    timeless_factor: float = 0.6
    """For a question asking when ("When did Ivan win his second cup?"), a turn with a
    speaker that places nothing in time (no day, month, year or "yesterday", "last week",
    "recently"...) keeps this share of its relevance: the answer is the turn that dates the
    event (conversations with speakers only; 1: off)."""
    impersonal_factor: float = 0.5
    """For a question about the user ("my", "I"; not one recalling what the assistant
    said), a user turn with no first-person word ("Can you list the main
    studies on this topic?") keeps this share of its relevance: the evidence is a
    statement about the user (chats without speakers only; 1: off)."""
    meaning: bool = False
    """The meaning tier: a transformer (MiniLM, ONNX int8 with the ``meaning`` extra, else
    numpy) re-scores the best ``meaning_candidates`` candidates (the ``meaning`` preset)."""
    meaning_candidates: int = 100
    """How many of the best fused candidates the transformer re-scores."""
    meaning_weight: float = 0.6
    """Added to a re-scored candidate's relevance: this × (its cosine − the lowest's)
    (0.5 before session 27: docs/retrieval.md)."""
    meaning_cold: int = 1
    """At most this many passages whose vectors are not cached yet are embedded in one
    query (the best-ranked candidates' first); the other uncached candidates are not
    re-scored this time (they get the median of the re-scored ones' lifts) and the index
    worker computes them in its next round (0: no limit, every candidate embedded, as
    before session 32; docs/retrieval.md, "Session 32")."""
    meaning_max_tokens: int = 128
    """The transformer reads at most this many tokens of a text."""
    meaning_window: int = 0
    """Words per passage: a longer text is cut into pieces of at most this many words and
    scored by the piece holding the most query words (0: the whole text)."""
    meaning_worker: bool = True
    """With the tier on, the index worker computes the vectors of new turns ahead of queries."""
    meaning_backfill: int = 8
    """With the tier and ``meaning_worker`` on, a worker round that had nothing newer to do
    computes at most this many passage vectors not cached yet of the items no session holds
    (since session 34), then of older sessions' items (indexed before the tier was on, or by
    another process), newest sessions first; several workers on one database divide the walk
    (one round at a time under a lease, its place kept in the store) (0: off; 8: a round's
    CPU p50 0.22-0.28 s on LoCoMo on 2 shared cores, 16's 0.66-0.75 s; docs/retrieval.md,
    "Session 33" and "Session 34")."""
    meaning_list: int = 0
    """With the tier on, the transformer also ranks the scope's turns whose vectors are
    cached (the worker's, ``meaning_worker``) by exact cosine, and its best this many join
    the candidates as a third fused list (0: off; nothing is computed for it but the
    query's vector)."""
    meaning_list_weight: float = 0.4
    """The RRF weight of that list, beside ``fusion_lexical`` and ``fusion_vector``."""
    meaning_speaker_list: int = 50
    """With the tier on and speaker focus on the one speaker a question names, the
    transformer also ranks the cached turns that speaker said (its query vector without
    the name) and its best this many join the candidates (0: off, as before session 28:
    docs/retrieval.md)."""
    meaning_speaker_weight: float = 0.3
    """The RRF weight of that list, beside ``fusion_lexical`` and ``fusion_vector``."""
    meaning_speaker_gate: int = 5
    """That list joins only when the named speaker said more than half of the first this
    many candidate turns with a speaker (an adversarial question names the wrong speaker,
    and its words lead to the other's turns; 0: always)."""
    meaning_speaker_lead: float = 0.0
    """And only when, among the candidate turns that tell of their speaker (a first-person
    word: not a question or reaction to the other), the named speaker's best has at least
    this many times the relevance of any other speaker's best (when both spoke of the topic,
    the one the question's words match best; 0: always; session 29)."""
    speaker_list: int = 0
    """With speaker focus on the one speaker a question names, that speaker's turns ranked
    by the static vectors' cosine to the question without the name: the best this many
    join the candidates, any tier (0: off; measured in session 29: docs/retrieval.md)."""
    speaker_list_weight: float = 0.2
    """The RRF weight of that list, beside ``fusion_lexical`` and ``fusion_vector``."""
    speaker_list_gate: int = 5
    """That list joins only when the named speaker said more than half of the first this
    many candidate turns with a speaker (as ``meaning_speaker_gate``; 0: always)."""
    speaker_list_lead: float = 0.0
    """And only when the named speaker's best candidate turn telling of its speaker has at
    least this many times the relevance of any other speaker's best (as
    ``meaning_speaker_lead``; 0: always)."""
    pool_candidates: int = 10
    """For a question asking what someone has done over time ("What has Rosa painted?",
    "Where has Rosa camped?"), or what the one person it names does ("What does Ivan do
    to unwind?", when that person said most of the best candidate turns), that does
    not count ("how many"), the first this many candidate turns by relevance join stage
    two's pool even when stage one does not shortlist their session; they rank below the
    best hit of each shortlisted session (as ``gather_sessions``' hits; 0: off;
    docs/retrieval.md, "Session 31" and "Session 39")."""
    min_similarity: float = 0.1
    """A vector candidate (the embedder's cosine to the query, in every preset: the meaning
    preset's transformer re-scores these candidates) joins only above this; an item sharing
    no query word and no nearer than this is not a hit, so a small scope answers nothing
    found rather than its unrelated items (-1: every vector candidate, as before session 31;
    docs/retrieval.md, "Session 31: a floor under the vector list")."""
    max_query_chars: int = 4000
    """Longer queries are refused (a query's cost grows with its length)."""

    def __post_init__(self) -> None:
        for key in ("top_sessions", "turns_per_session", "final_k", "candidates",
                    "max_query_chars"):
            _check_int(getattr(self, key), f"memory.retrieval.{key}", 1)
        for f in dataclasses.fields(self):
            if f.name.endswith("_weight"):
                _check(getattr(self, f.name) >= 0, f"memory.retrieval.{f.name}", "must be >= 0")
        _check_int(self.session_depth, "memory.retrieval.session_depth", 1)
        _check(0.0 <= self.session_decay <= 1.0, "memory.retrieval.session_decay", "must be between 0 and 1")
        _check(self.session_intel_weight >= 0, "memory.retrieval.session_intel_weight", "must be >= 0")
        _check(self.fusion_lexical >= 0, "memory.retrieval.fusion_lexical", "must be >= 0")
        _check(self.fusion_vector >= 0, "memory.retrieval.fusion_vector", "must be >= 0")
        _check(self.fusion_lexical + self.fusion_vector > 0,
               "memory.retrieval.fusion_lexical + memory.retrieval.fusion_vector", "must be > 0")
        _check(self.source_lift >= 0, "memory.retrieval.source_lift", "must be >= 0")
        _check(self.session_time_boost >= 0, "memory.retrieval.session_time_boost", "must be >= 0")
        _check(self.session_entity_boost >= 0, "memory.retrieval.session_entity_boost", "must be >= 0")
        _check(0.0 <= self.mmr_lambda <= 1.0, "memory.retrieval.mmr_lambda", "must be between 0 and 1")
        _check_int(self.graph_hops, "memory.retrieval.graph_hops", 0, 1)
        _check(self.graph_relevance >= 0, "memory.retrieval.graph_relevance", "must be >= 0")
        _check_int(self.meaning_candidates, "memory.retrieval.meaning_candidates", 1)
        _check_int(self.meaning_max_tokens, "memory.retrieval.meaning_max_tokens", 3, 512)
        _check_int(self.meaning_cold, "memory.retrieval.meaning_cold", 0, 10_000,
                   note=" (0 = no limit)")
        _check_int(self.meaning_backfill, "memory.retrieval.meaning_backfill", 0, 10_000,
                   note=" (0 = off)")
        _check(0.0 <= self.speaker_factor <= 1.0, "memory.retrieval.speaker_factor",
               "must be between 0 and 1")
        _check_int(self.feedback_depth, "memory.retrieval.feedback_depth", 1)
        _check(0.0 <= self.opener_lift <= 1.0, "memory.retrieval.opener_lift", "must be between 0 and 1")
        _check(0.0 <= self.timeless_factor <= 1.0, "memory.retrieval.timeless_factor",
               "must be between 0 and 1")
        _check(0.0 <= self.continue_lift <= 1.0, "memory.retrieval.continue_lift",
               "must be between 0 and 1")
        _check(0.0 <= self.named_lift <= 4.0, "memory.retrieval.named_lift", "must be between 0 and 4")
        _check(0.0 <= self.doing_lift <= 4.0, "memory.retrieval.doing_lift", "must be between 0 and 4")
        _check(0.0 <= self.reaction_factor <= 1.0, "memory.retrieval.reaction_factor",
               "must be between 0 and 1")
        _check(0.0 <= self.speaker_session_weight <= 1.0, "memory.retrieval.speaker_session_weight",
               "must be between 0 and 1")
        _check(0.0 <= self.assistant_factor <= 1.0, "memory.retrieval.assistant_factor",
               "must be between 0 and 1")
        _check(0.0 <= self.impersonal_factor <= 1.0, "memory.retrieval.impersonal_factor",
               "must be between 0 and 1")
        _check(0.0 <= self.gather_openers <= 1.0, "memory.retrieval.gather_openers",
               "must be between 0 and 1")
        _check_int(self.gather_sessions, "memory.retrieval.gather_sessions", 0, 20)
        _check_int(self.late_turns, "memory.retrieval.late_turns", 0, 20)
        _check_int(self.meaning_window, "memory.retrieval.meaning_window", 0)
        _check_int(self.meaning_list, "memory.retrieval.meaning_list", 0, 1000)
        _check_int(self.meaning_speaker_list, "memory.retrieval.meaning_speaker_list", 0, 1000)
        _check_int(self.meaning_speaker_gate, "memory.retrieval.meaning_speaker_gate", 0, 100)
        _check_int(self.speaker_list, "memory.retrieval.speaker_list", 0, 1000)
        _check_int(self.speaker_list_gate, "memory.retrieval.speaker_list_gate", 0, 100)
        _check_int(self.pool_candidates, "memory.retrieval.pool_candidates", 0, 100)
        _check(-1.0 <= self.min_similarity <= 1.0, "memory.retrieval.min_similarity",
               "must be between -1 and 1")
        for key in ("meaning_speaker_lead", "speaker_list_lead"):
            _check(0.0 <= getattr(self, key) <= 10.0, f"memory.retrieval.{key}",
                   "must be between 0 and 10")
        _check(0.0 <= self.hyde_threshold <= 1.0, "memory.retrieval.hyde_threshold", "must be between 0 and 1")
        if self.hyde:
            _check(bool(self.hyde_service), "memory.retrieval.hyde_service",
                   "is required when memory.retrieval.hyde is on (the NAME of an [llm.services.NAME] "
                   "table)")
        for entry in self.kind_bonuses:
            kind, _, value = entry.partition(":")
            _check(kind.split(".")[0] in KINDS, "memory.retrieval.kind_bonuses",
                   f"unknown kind {kind!r} in {entry!r}; use kind:value with a kind of {KINDS} "
                   "(or turn.user / turn.assistant)")
            try:
                finite = math.isfinite(float(number_text(value)))
            except ValueError:
                finite = False
            if not finite:
                raise ConfigError(f"memory.retrieval.kind_bonuses: {entry!r} is not kind:value "
                                  "with a finite number, e.g. decision:1.0") from None
        from memlane.retrieve.presets import PRESETS  # the names live with the constants

        _check(self.preset == "default" or self.preset in PRESETS, "memory.retrieval.preset",
               f"unknown preset {self.preset!r}; use default or one of {sorted(PRESETS)}")

    def kind_bonus_map(self) -> dict[str, float]:
        """``kind_bonuses`` as a dict."""
        return {k: float(v) for k, _, v in (e.partition(":") for e in self.kind_bonuses)}


@dataclass(frozen=True)
class Config:
    """All of memlane's settings. Build with ``load_config()`` or directly."""

    db: str = "memlane.db"
    ingest: IngestConfig = field(default_factory=IngestConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    indexing: IndexingConfig = field(default_factory=IndexingConfig)
    summary: SummaryConfig = field(default_factory=SummaryConfig)
    confidence: ConfidenceConfig = field(default_factory=ConfidenceConfig)
    facts: FactsConfig = field(default_factory=FactsConfig)
    hygiene: HygieneConfig = field(default_factory=HygieneConfig)
    live: LiveConfig = field(default_factory=LiveConfig)
    erase: EraseConfig = field(default_factory=EraseConfig)
    pack: PackConfig = field(default_factory=PackConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    mcp: McpConfig = field(default_factory=McpConfig)
    serve: ServeConfig = field(default_factory=ServeConfig)
    llm_services: dict[str, LLMServiceConfig] = field(default_factory=dict)

    def llm_service(self, name: str) -> LLMServiceConfig:
        """The ``[llm.services.NAME]`` table, or a ConfigError listing the known names."""
        if name not in self.llm_services:
            known = ", ".join(sorted(self.llm_services)) or "none"
            raise ConfigError(f"llm.services.{name}: not configured (configured: {known})")
        return self.llm_services[name]

    def replace(self, **changes: Any) -> Config:
        """A copy with sections or keys changed: ``cfg.replace(search={"rrf_k": 30})``."""
        out: dict[str, Any] = {}
        for name, value in changes.items():
            current = getattr(self, name)
            if isinstance(value, Mapping) and dataclasses.is_dataclass(current):
                value = _build(type(current), {**_as_dict(current), **value}, f"memory.{name}")
            out[name] = value
        return dataclasses.replace(self, **out)


_SECTIONS = {
    "ingest": IngestConfig,
    "embedding": EmbeddingConfig,
    "search": SearchConfig,
    "indexing": IndexingConfig,
    "summary": SummaryConfig,
    "confidence": ConfidenceConfig,
    "facts": FactsConfig,
    "hygiene": HygieneConfig,
    "live": LiveConfig,
    "erase": EraseConfig,
    "pack": PackConfig,
    "retrieval": RetrievalConfig,
    "mcp": McpConfig,
    "serve": ServeConfig,
}


def _as_dict(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def number_text(value: str) -> str:
    """A number written as text (an environment variable, a quoted TOML value, a CLI
    option), trimmed, for ``int()`` or ``float()``; ``ValueError`` unless it is ASCII.
    Python reads any script's digits ("٣" is 3, "１０" is 10): a value TOML, JSON and every
    other reader of the file refuse was taken (session 25). ``1_000`` and surrounding spaces
    read as TOML reads them."""
    text = value.strip()
    if not text.isascii():
        raise ValueError(value)
    return text


def _coerce(value: Any, tp: Any, key: str) -> Any:
    """Coerce a TOML or environment value to the annotated type, or raise ConfigError."""
    origin = typing.get_origin(tp)
    try:
        if tp is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if tp is int:
            if isinstance(value, bool):
                raise ValueError(value)
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            # its range (64 bits at most) is its class's check, in validate.int_range's words
            return int(number_text(value) if isinstance(value, str) else value)
        if tp is float:
            if isinstance(value, bool):
                raise ValueError(value)
            real = float(number_text(value) if isinstance(value, str) else value)
            if not math.isfinite(real):
                raise ConfigError(f"{key}: must be a finite number, got {_clip(value)}")
            return real
        if tp is str:
            if not isinstance(value, str):
                raise ValueError(value)
            return value
        if origin is tuple:
            if isinstance(value, str):
                value = _string_list(value, key)
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{key}: expected a list of strings (or one comma-separated "
                                  f"string), got {_clip(value)}")
            return tuple(value)
        if origin in (types.UnionType, typing.Union):
            return value
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"{key}: expected {getattr(tp, '__name__', tp)}, got {_clip(value)}") from None
    return value


_INT64 = 2**63

_COMMA_IN_ITEMS = {"memory.ingest.redact_patterns"}
"""List keys whose items may hold a comma themselves (``\\d{3,4}``): a string for one of them
is never cut at its commas."""


def _string_list(value: str, key: str) -> list[str]:
    """A list key given as one string (an environment variable, or a TOML string): a JSON
    list (``["a", "b"]``), or comma-separated items. A comma that may be a regular
    expression's own is refused rather than guessed at: cut there, a pattern such as
    ``ACCT-\\d{3,4}`` became two that compile and never match, and nothing was redacted."""
    if value.lstrip().startswith("["):
        try:
            items = json.loads(value)
        except ValueError as e:
            raise ConfigError(f"{key}: not a JSON list of strings ({e})") from None
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise ConfigError(f"{key}: expected a JSON list of strings, got {_clip(value)}")
        return items
    if key in _COMMA_IN_ITEMS and "," in value:
        variable = "MEMLANE_" + key.removeprefix("memory.").replace(".", "_").upper()
        raise ConfigError(
            f"{key}: {_clip(value)} holds a comma, which may belong to a pattern ({{3,4}}) or "
            f"separate two; write the list as JSON ({variable}='[\"ACCT-\\\\d{{3,4}}\", "
            "\"x\"]', or a TOML list in the config file)")
    return [v.strip() for v in value.split(",") if v.strip()]


def _named_variables(message: str, variables: Mapping[str, str]) -> str:
    """``message`` with the environment variables that set the keys it names: a bad value
    read from ``MEMLANE_SEARCH_RRF_K`` is in no file to look for (and a file may set the
    same key), so the error says where it came from."""
    import re

    named = [v for key, v in sorted(variables.items())
             if re.search(rf"(?<![\w.]){re.escape(key)}(?!\w)", message.replace("memory.", ""))]
    return f"{message} (set by {', '.join(named)})" if named else message


def _clip(value: Any, width: int = 80) -> str:
    """``repr`` of a refused value, cut short: an error names the value, not a whole file."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit for str()
        return "a number too large to print"
    return clip(text, width)


def _unknown(where: str, key: str, names: Iterable[str], spelled: str | None = None) -> ConfigError:
    """A key ``where`` has no: named in full (``memory.retrieval.fusion_vectr``, or as
    ``spelled``, the variable that set it), with the known key nearest to it when one is
    near (session 25: a typo in a table of 70 keys gave the list of all of them, and the
    table's name, not the key's)."""
    import difflib

    names = sorted(names)
    near = difflib.get_close_matches(key, names, n=1, cutoff=0.75)
    said = f"did you mean {near[0]}?" if near else f"known: {', '.join(names)}"
    return ConfigError(f"{spelled or f'{where}.{key}'}: {where} has no key {key!r}; {said}")


def _build(cls: type, values: Mapping[str, Any], section: str) -> Any:
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(values) - names)
    if unknown:
        raise _unknown(section, str(unknown[0]), names)
    kwargs = {k: _coerce(v, hints[k], f"{section}.{k}") for k, v in values.items()}
    return cls(**kwargs)


def load_config(
    path: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Config:
    """Read defaults, then the TOML file, then ``MEMLANE_*`` variables, then ``overrides``.

    ``path`` defaults to ``$MEMLANE_CONFIG`` or ``./memlane.toml`` when it exists.
    ``overrides`` is ``{"db": ..., "search": {"rrf_k": 30}}``.
    """
    env = os.environ if environ is None else environ
    raw: dict[str, Any] = {}
    explicit = path is not None or "MEMLANE_CONFIG" in env
    named = str(path) if path is not None else env.get("MEMLANE_CONFIG", "memlane.toml")
    if not named.strip():  # Path("") is the current folder
        where = "--config" if path is not None else "MEMLANE_CONFIG"
        raise ConfigError(f"{where}: {named!r} names no config file; name one (or unset it)")
    file = Path(named).expanduser()
    if file.exists():
        if not file.is_file():
            raise ConfigError(f"config file {file} is not a file")
        try:
            # utf-8-sig: a byte-order mark some Windows editors write is no TOML error
            data = tomllib.loads(file.read_text(encoding="utf-8-sig"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"{file}: not valid TOML: {e}") from e
        except OSError as e:
            raise ConfigError(f"config file {file} cannot be read ({e.strerror or e})") from None
        # a misspelt table ([memroy.ingest]) or a key outside [memory] would be ignored
        # without a word: refuse it, naming it
        unknown = sorted(set(data) - {"memory", "llm"})
        if unknown:
            import difflib

            near = difflib.get_close_matches(unknown[0], ["memory", "llm"], n=1, cutoff=0.6)
            raise ConfigError(f"{file}: unknown table(s) or key(s) {unknown} at the top level"
                              + (f" (did you mean [{near[0]}]?)" if near else "")
                              + "; memlane reads [memory] (with db and its sections) and "
                              "[llm.services.NAME]")
        mem = data.get("memory", {})
        if not isinstance(mem, dict):
            raise ConfigError(f"{file}: [memory] must be a table")
        raw = {k: dict(v) if isinstance(v, dict) else v for k, v in mem.items()}
        llm = data.get("llm", {})
        if not isinstance(llm, dict) or set(llm) - {"services"}:
            raise ConfigError(f"{file}: [llm] holds only [llm.services.NAME] tables")
        services = llm.get("services", {})
        if not isinstance(services, dict):
            raise ConfigError(f"{file}: [llm.services] must be a table of tables")
        raw["llm_services"] = services
    elif explicit:
        raise ConfigError(f"config file {file} does not exist")

    variables: dict[str, str] = {}  # "section.key" -> the variable that set it
    for section in _SECTIONS:
        prefix = f"MEMLANE_{section.upper()}_"
        for name, value in env.items():
            if name.startswith(prefix):
                table = raw.setdefault(section, {})
                if not isinstance(table, dict):
                    raise ConfigError(f"memory.{section}: must be a table")
                key = name[len(prefix):].lower()
                known = {f.name for f in dataclasses.fields(_SECTIONS[section])}
                if key not in known:  # name the variable: it is in no file to look for
                    raise _unknown(f"memory.{section}", key, known, spelled=name)
                table[key] = value
                variables[f"{section}.{key}"] = name
    if "MEMLANE_DB" in env:
        raw["db"] = env["MEMLANE_DB"]
    for key, value in (overrides or {}).items():
        if isinstance(value, Mapping):
            table = raw.setdefault(key, {})
            if not isinstance(table, dict):
                raise ConfigError(f"memory.{key}: must be a table")
            table.update(value)
        else:
            raw[key] = value

    services_raw = raw.pop("llm_services", {})
    unknown = sorted(set(raw) - set(_SECTIONS) - {"db"})
    if unknown:
        raise _unknown("memory", str(unknown[0]), ["db", *_SECTIONS])
    kwargs: dict[str, Any] = {}
    if "db" in raw:
        kwargs["db"] = _coerce(raw["db"], str, "memory.db")
    for section, cls in _SECTIONS.items():
        values = raw.get(section, {})
        if not isinstance(values, Mapping):
            raise ConfigError(f"memory.{section}: must be a table")
        try:
            kwargs[section] = _build(cls, values, f"memory.{section}")
        except ConfigError as e:
            raise ConfigError(_named_variables(str(e), variables)) from None
    services = {}
    for name, values in services_raw.items():
        if not isinstance(values, Mapping):
            raise ConfigError(f"llm.services.{name}: must be a table")
        missing = [k for k in ("base_url", "model") if k not in values]
        if missing:
            raise ConfigError(f"llm.services.{name}: missing {', '.join(missing)}")
        try:
            services[name] = _build(LLMServiceConfig, values, f"llm.services.{name}")
        except ConfigError as e:  # a bad value names its service: llm.services.NAME.key
            text = str(e)
            if text.startswith("llm.services.") and not text.startswith(f"llm.services.{name}"):
                text = f"llm.services.{name}.{text.removeprefix('llm.services.')}"
            raise ConfigError(text) from None
    kwargs["llm_services"] = services
    config = Config(**kwargs)
    # a service named but not configured is a bad value like any other: refused at load,
    # not at the first index run (a server's worker would fail on every round)
    named = [("memory.indexing.service", config.indexing.service, config.indexing.backend == "llm"),
             ("memory.retrieval.hyde_service", config.retrieval.hyde_service, config.retrieval.hyde)]
    for key, name, used in named:
        if used and name not in services:
            known = ", ".join(sorted(services)) or "none"
            raise ConfigError(_named_variables(
                f"{key}: no [llm.services.{name}] table (configured: {known})", variables))
    return config

