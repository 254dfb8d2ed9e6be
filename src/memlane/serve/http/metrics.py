"""``GET /metrics`` in Prometheus text format, from the app's own ``CollectorRegistry``.

Labels are low-cardinality only: a route template (``/v1/sessions/{id}``, never an id), a
method, a status code, a search stage, a counter name, a session status, an item kind.
Never a scope, a key or a query.

    memlane_http_requests_total{route,method,status}      requests answered
    memlane_http_request_seconds{route,method}            latency histogram
    memlane_search_stage_seconds{stage}                   each search stage (lexical, vector…)
    memlane_messages_ingested_total                       messages this process stored
    memlane_events_total{event}                           the database's event counters:
        sessions_indexed, sessions_summarized, sessions_failed, facts_superseded,
        items_expired, items_evicted, … (shared by every process of one database)
    memlane_summary_queue{state}                          queue depth: pending, leased, failed
    memlane_sessions{status} / memlane_items{kind} / memlane_messages   stored now

Reading ``/metrics`` needs a key holding every scope (``*``), read-only is enough.

With ``memlane serve --workers N`` each process counts in files of a shared folder
(prometheus-client's multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``, which ``serve`` sets
to a folder of its own) and a scrape of any process adds every process's counts up, so the
HTTP counters and histograms are the service's, whichever process answers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane.serve.http.auth import Principal, caller
from memlane.serve.http.errors import KnownQuery

__all__ = ["Metrics", "mount"]

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _StoreCollector(Collector):
    """Reads the database's counts and event counters at scrape time."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def collect(self) -> Iterator[Any]:
        try:
            stats = self.app.state.memory.stats()
        except Exception:  # a scrape must not fail because the database is down
            up = GaugeMetricFamily("memlane_store_up", "Whether the database answered the scrape")
            up.add_metric([], 0)
            yield up
            return
        up = GaugeMetricFamily("memlane_store_up", "Whether the database answered the scrape")
        up.add_metric([], 1)
        yield up
        events = CounterMetricFamily("memlane_events", "Event counters kept in the database",
                                     labels=["event"])
        for name, value in sorted(stats.get("counters", {}).items()):
            events.add_metric([name], float(value))
        yield events
        queue = GaugeMetricFamily("memlane_summary_queue",
                                  "Sessions waiting for session intelligence, by state",
                                  labels=["state"])
        for state, value in stats.get("summary_queue", {}).items():
            queue.add_metric([state], float(value))
        unindexed = GaugeMetricFamily("memlane_sessions_unindexed",
                                      "Closed sessions whose turns are not indexed yet")
        unindexed.add_metric([], float(stats.get("sessions_unindexed", 0)))
        yield unindexed
        yield queue
        sessions = GaugeMetricFamily("memlane_sessions", "Sessions stored, by status",
                                     labels=["status"])
        for status, value in stats.get("sessions", {}).items():
            sessions.add_metric([status], float(value))
        yield sessions
        items = GaugeMetricFamily("memlane_items", "Memory items stored, by kind", labels=["kind"])
        for kind, value in stats.get("items", {}).items():
            items.add_metric([kind], float(value))
        yield items
        messages = GaugeMetricFamily("memlane_messages", "Messages stored")
        messages.add_metric([], float(stats.get("messages", 0)))
        yield messages


def _multiprocess_dir() -> str | None:
    """The folder of prometheus-client's multiprocess mode, when this process counts in it
    (the variable must have been set before prometheus-client was first imported)."""
    from prometheus_client import values

    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder and os.path.isdir(folder) and values.ValueClass is not values.MutexValue:
        return folder
    return None


class Metrics:
    """The app's registry and the instruments the service updates."""

    def __init__(self, app: FastAPI) -> None:
        self.registry = CollectorRegistry()
        """What ``/metrics`` answers."""
        shared = _multiprocess_dir()
        # in multiprocess mode the instruments write to the shared folder; the scrape reads
        # every process's files there (the instruments' own registry is not scraped)
        own = CollectorRegistry() if shared else self.registry
        self.requests = Counter("memlane_http_requests", "HTTP requests answered",
                                ["route", "method", "status"], registry=own)
        self.latency = Histogram("memlane_http_request_seconds", "HTTP request latency",
                                 ["route", "method"], buckets=_BUCKETS, registry=own)
        self.stages = Histogram("memlane_search_stage_seconds", "Search latency per stage",
                                ["stage"], buckets=_BUCKETS, registry=own)
        self.ingested = Counter("memlane_messages_ingested", "Messages stored by the service",
                                registry=own)
        if shared:
            MultiProcessCollector(self.registry, path=shared)
        self.registry.register(_StoreCollector(app))
        # labelled children by label values: ``labels()`` takes a lock and builds a key
        # each call, a dozen times a search (dict reads and writes are atomic in Python)
        self._stage: dict[str, Any] = {}
        self._answered: dict[tuple[str, str, int], Any] = {}
        self._timed: dict[tuple[str, str], Any] = {}

    def observe_timings(self, timings: dict[str, float]) -> None:
        stage = self._stage
        for name, ms in timings.items():
            if name.endswith("_ms") and name != "request_ms":
                child = stage.get(name)
                if child is None:
                    child = stage[name] = self.stages.labels(name.removesuffix("_ms"))
                child.observe(ms / 1000.0)

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and observe its latency."""
        counter = self._answered.get((route, method, status))
        if counter is None:
            counter = self._answered[(route, method, status)] = self.requests.labels(
                route, method, str(status))
        counter.inc()
        timer = self._timed.get((route, method))
        if timer is None:
            timer = self._timed[(route, method)] = self.latency.labels(route, method)
        timer.observe(seconds)


METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The ``method`` label's values besides ``other``: a server on h11 hands the app any token
a client sends as its method (``BREW``, ``X3F9A``), and each was a series of its own in
``memlane_http_requests_total`` and the latency histogram (14 buckets), so a client could
grow ``/metrics`` and the process without bound."""


class RequestMetrics:
    """ASGI middleware: count and time every request by route template and status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]

        async def tracking_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        finally:
            template = _template(scope)
            method = scope.get("method", "GET")
            if method not in METHODS:  # any token is a method to h11: one series each
                method = "other"
            self.metrics.answered(template, method, status[0], time.perf_counter() - started)


def _template(scope: Any) -> str:
    """The route template of a request: FastAPI's routes name themselves in the scope;
    plain Starlette routes (``/mcp``, ``/docs``, ``/openapi.json``) only leave their
    endpoint there, and were counted as ``unmatched`` together with the 404s."""
    path = getattr(scope.get("route"), "path", None)
    if path:
        return str(path)
    endpoint = scope.get("endpoint")
    router = getattr(scope.get("app"), "router", None)
    if endpoint is not None and router is not None:
        for r in router.routes:
            if getattr(r, "endpoint", None) is endpoint and isinstance(getattr(r, "path", None), str):
                return str(r.path)
    return "unmatched"


def mount(app: FastAPI) -> None:
    metrics = Metrics(app)
    app.state.metrics = metrics
    app.add_middleware(RequestMetrics, metrics=metrics)

    @app.get("/metrics", tags=["health"], summary="Prometheus metrics (needs a key holding '*')",
             response_class=Response, dependencies=[KnownQuery])
    def scrape(who: Annotated[Principal, Depends(caller)]) -> Response:
        who.check(None, write=False, what="/metrics")
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)
