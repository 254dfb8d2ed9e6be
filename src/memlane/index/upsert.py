"""Direct writes of memory items and facts (the ``memory.upsert`` action)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

from memlane.config import Config
from memlane.errors import StoreError, ValidationError
from memlane.index.embed import Embeddings
from memlane.index.facts import FactOutcome, apply_fact
from memlane.index.normalize import normalize_predicate, user_subject
from memlane.index.pipeline import fact_text
from memlane.ingest.redact import scrub, scrub_deep
from memlane.ingest.sessionize import scrub_label
from memlane.ingest.spellings import resolve_scope, writable_scope
from memlane.ingest.validate import MAX_CHARS_KEY, check_text, parse_time
from memlane.store.contract import Store
from memlane.types import DURABILITIES, KINDS, LANES, PRIVACIES, SOURCES

__all__ = ["add_fact", "dedupe_hash", "slugify", "upsert_item"]


def slugify(topic: str) -> str:
    """``"Billing DB / Q3"`` → ``billing-db-q3``."""
    text = unicodedata.normalize("NFKD", topic).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    if not slug:
        raise ValidationError(f"topics: {topic!r} has no letters or digits", field="topics")
    return slug


def topic_slug(cfg: Any, topic: str) -> str:
    """The slug of ``topic`` redacted as text is (``cfg``: ``[memory.ingest]``): a topic is
    stored (the items' ``topic:<slug>`` keyword, the thread's ``extra.topic``), so a secret
    in it is stored as its placeholder; ``thread`` and ``compact`` look a topic up the same
    way, so they still find it. Slugged as it was, ``ghp_…`` was stored lower-cased,
    ``ghp-…`` (session 22)."""
    return slugify(scrub(cfg, topic)[0])


def dedupe_hash(agent: str | None, project: str | None, kind: str, text: str,
                scope: str | None = None, *, scoped: bool = True) -> str:
    """SHA-256 of (scope, agent, project, kind, text): the same memory stored twice in one
    scope is one. Until session 20 the hash left the scope out (``scoped=False`` gives that
    form, which items stored then still carry: the lookup tries both, within the scope) and
    its unique index let one scope's item stand for every scope's. The scoped form starts
    with a NUL, which no stored text or label holds, so it never equals an unscoped one."""
    parts = [agent or "", project or "", kind, text]
    if scoped:
        parts = ["\x00scoped", scope or "", *parts]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _choice(value: str, allowed: tuple[str, ...], field: str) -> str:
    if value not in allowed:
        raise ValidationError(f"{field}: must be one of {', '.join(allowed)}, got {value!r}", field=field)
    return value


def upsert_item(store: Store, embeddings: Embeddings, config: Config, text: str, *, kind: str, scope: str | None, agent: str | None,
                project: str | None, at: Any, lane: str, durability: str, privacy: str,
                trust: float, source: str, ttl_seconds: int | None, topics: Any, pinned: bool,
                dedupe: bool, extra: dict[str, Any] | None) -> int:
    """Validate, redact, embed and store one item; see ``Memory.upsert``."""
    text = check_text(text, config.ingest.max_message_chars, key=MAX_CHARS_KEY)
    text, _ = scrub(config.ingest, text)
    extra = scrub_deep(config.ingest, extra or {})
    _choice(kind, KINDS, "kind")
    _choice(lane, LANES, "lane")
    _choice(durability, DURABILITIES, "durability")
    _choice(privacy, PRIVACIES, "privacy")
    _choice(source, SOURCES, "source")
    if kind == "fact":
        raise ValidationError("kind: store facts with add_fact(subject, predicate, object)", field="kind")
    if not 0.0 <= float(trust) <= 1.0:
        raise ValidationError(f"trust: must be between 0 and 1, got {trust!r}", field="trust")
    if ttl_seconds is not None and (not isinstance(ttl_seconds, int) or ttl_seconds <= 0):
        raise ValidationError(f"ttl_seconds: must be a positive integer, got {ttl_seconds!r}",
                              field="ttl_seconds")
    scope = resolve_scope(store, scope) if scope is not None else None
    agent = scrub_label(config.ingest, agent, "agent")[0]  # stored and shown as a message's
    project = scrub_label(config.ingest, project, "project")[0]
    when = datetime.now(UTC) if at is None else parse_time(at)
    slugs = [topic_slug(config.ingest, t) for t in topics]
    digest = dedupe_hash(agent, project, kind, text, scope) if dedupe else None

    def stored() -> int | None:
        assert digest is not None
        return (store.item_by_dedupe_hash(digest, scope)  # never another scope's
                or store.item_by_dedupe_hash(
                    dedupe_hash(agent, project, kind, text, scoped=False), scope))

    if digest is not None:
        existing = stored()
        if existing is not None:
            with store.atomic():
                store.bump("dedupe_hits")
            return existing
    try:
        return _insert(store, embeddings, text, kind, scope, agent, project, when, lane,
                       durability, privacy, trust, source, ttl_seconds, slugs, digest, pinned,
                       extra)
    except StoreError:
        # two writers of the same memory at once: both looked, neither found it, and the
        # second insert met the first's row in the unique index (the service answered 503
        # "the database failed" to a client retrying an upsert). Its id is the answer.
        existing = stored() if digest is not None else None
        if existing is None:
            raise
        with store.atomic():
            store.bump("dedupe_hits")
        return existing


def _insert(store: Store, embeddings: Embeddings, text: str, kind: str, scope: str | None,
            agent: str | None, project: str | None, when: datetime, lane: str,
            durability: str, privacy: str, trust: float, source: str,
            ttl_seconds: int | None, slugs: list[str], digest: str | None, pinned: bool,
            extra: dict[str, Any]) -> int:
    vec = embeddings.for_index([text])[0]
    with store.atomic():
        if scope is not None:  # an old spelling erased since it was looked up: the one
            scope = writable_scope(store, scope)
        (item_id,) = store.insert_items([{
            "kind": kind, "text": text, "at": when.timestamp(), "scope": scope, "agent": agent,
            "project": project, "lane": lane, "durability": durability, "privacy": privacy,
            "trust": float(trust), "source": source, "ttl_seconds": ttl_seconds,
            "keywords": [f"topic:{s}" for s in slugs], "dedupe_hash": digest, "pinned": pinned,
            "extra": extra or {},
        }])
        store.put_vectors(embeddings.model, [(item_id, vec)])
        for slug in slugs:
            _thread(store, embeddings, slug, scope, item_id, when.timestamp())
        store.bump("items_upserted")
    return item_id


def _thread(store: Store, embeddings: Embeddings, slug: str, scope: str | None, item_id: int, at: float) -> None:
    """Keep one ``story_thread`` item per topic and scope, its children the topic's items.
    The scope's link lock is taken before the thread is looked for: two writers of a new
    topic at once each made a thread (PostgreSQL)."""
    store.lock_links(scope)
    threads = [t for t in store.items_of_kind("note", scope)
               if t.lane == "story_thread" and t.extra.get("topic") == slug]
    if threads:
        store.link_items(threads[0].id, [item_id], supersede=False)
        return
    text = f"Story thread: {slug.replace('-', ' ')}"
    vec = embeddings.for_query(text)
    (tid,) = store.insert_items([{
        "kind": "note", "text": text, "at": at, "scope": scope, "lane": "story_thread",
        "keywords": [f"topic:{slug}"], "extra": {"topic": slug}, "source": "system",
    }])
    store.put_vectors(embeddings.model, [(tid, vec)])
    store.link_items(tid, [item_id], supersede=False)


def add_fact(store: Store, embeddings: Embeddings, config: Config, subject: str, predicate: str, obj: str, *, scope: str, source: str,
             at: Any) -> FactOutcome:
    """Validate and store one fact through the contradiction rules (``apply_fact``)."""
    scope = resolve_scope(store, scope)
    for name, value in (("subject", subject), ("predicate", predicate), ("object", obj)):
        check_text(value, 1000, name)
    _choice(source, SOURCES, "source")
    subject, predicate, obj = (scrub(config.ingest, v)[0] for v in (subject, predicate, obj))
    # "The user", "I", "me": the user, as a model's and the extractors' facts say it (session 26)
    subject = user_subject(" ".join(subject.split()))
    when = (datetime.now(UTC) if at is None else parse_time(at)).timestamp()
    pred = normalize_predicate(predicate)
    text = fact_text(subject, pred, obj)
    vec = embeddings.for_index([text])[0]
    row = {"kind": "fact", "text": text, "at": when, "scope": scope,
           "lane": "profile" if subject.strip().lower() == "user" else "semantic",
           "source": source, "keywords": [pred],
           "extra": {"subject": subject, "predicate": pred, "object": obj}}

    def make_item() -> int:
        (item_id,) = store.insert_items([row])
        store.put_vectors(embeddings.model, [(item_id, vec)])
        return item_id

    with store.atomic():
        row["scope"] = scope = writable_scope(store, scope)  # an old spelling erased since?
        return apply_fact(store, config.facts, scope=scope, subject=subject, predicate=pred,
                          obj=obj, source=source, at=when, session_id=None, message_id=None,
                          make_item=make_item)
