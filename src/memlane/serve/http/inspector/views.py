"""What each inspector page shows, as plain data read from a ``Memory``.

Every function takes the ``Memory`` and the caller (anything with ``allows(scope)`` and
``check(scope, write=...)``, e.g. ``memlane.serve.http.auth.Principal``) and returns dicts
for a template; nothing here renders HTML, so the pages' content is testable on its own.
A key only sees its scopes: listings are filtered by ``allows`` and single objects are
``check``-ed before they are read; an object addressed by id in a scope the key does not
hold is "not found", as a missing one (``owned``), so a key learns nothing of other tenants.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol

from memlane.errors import NotFoundError, ValidationError
from memlane.ingest.params import MAX_BUDGET, MAX_K
from memlane.ingest.spellings import resolve_scope
from memlane.ingest.validate import int_refused
from memlane.memory import Memory
from memlane.retrieve.explain import explain
from memlane.retrieve.options import flat_by_call
from memlane.retrieve.presets import PRESETS
from memlane.serve.paging import fact_page, session_page as sessions_of
from memlane.serve.render import filters_given, nothing_note
from memlane.types import KINDS, SESSION_STATUSES

__all__ = [
    "Caller", "FACTS_PER_PAGE", "MESSAGES_PER_PAGE", "SIGNAL_LABELS", "fact_history",
    "build_pack", "facts_page", "turn_page", "health", "owned", "pack_page",
    "packs_list", "process_metrics", "scopes", "search_page", "session_page", "sessions_page",
]


class Caller(Protocol):
    def allows(self, scope: str | None) -> bool: ...
    def check(self, scope: str | None, *, write: bool) -> None: ...


SIGNAL_LABELS = {
    "relevance": "relevance (lexical + vector, fused)",
    "session": "session (stage one score)",
    "bm25": "lexical (BM25 / best)",
    "cosine": "vector (cosine)",
    "recency": "recency",
    "confidence": "confidence",
    "graph": "graph (entities named)",
    "overlap": "query-word overlap",
    "summary": "session summary bonus",
    "trust": "trust",
    "pin": "pinned",
    "kind": "kind bonus",
    "time": "time match",
    "coverage": "coverage penalty",
}
"""A reader's name for each reranking signal of ``memlane.retrieve.rerank.SIGNALS``."""

STAGE_LABELS = {"lexical_rank": "lexical (BM25)", "vector_rank": "vector (cosine)",
                "hyde_rank": "HyDE", "candidate_rank": "fused candidates",
                "session_rank": "session (stage one)", "turn_rank": "turn in session (stage two)",
                "rank": "final"}

SUMMARY_LISTS = (("decisions", "Decisions"), ("open_questions", "Open questions"),
                 ("next_steps", "Next steps"), ("action_items", "Action items"),
                 ("references", "References"))


def owned(who: Caller, scope: str | None, what: str, *, write: bool = False) -> None:
    """The check of an object addressed by id: one in a scope ``who`` may not see is
    reported as missing (the JSON API's rule). A 403 naming its scope told a key which
    ids of other tenants existed, and their scopes."""
    if not who.allows(scope):
        raise NotFoundError(f"{what} does not exist")
    who.check(scope, write=write)


SCOPES_LISTED = 500


def _visible(mem: Memory, who: Caller, limit: int = SCOPES_LISTED) -> list[dict[str, Any]]:
    """The scopes ``who`` may see, most recent first (``limit``). A key's own patterns choose
    them in the database: filtered out of the 500 most recent of all, a tenant's scopes
    vanished from the pages once 500 other scopes had been active since."""
    patterns = None if who.allows(None) else getattr(who, "scopes", None)
    if patterns is not None:
        # a scope an old database spells otherwise (NFD, a format character: session 22)
        # matches the key's pattern in its new spelling, not in SQL as stored
        from memlane.ingest.spellings import old_spellings

        patterns = [*patterns, *(old for new, old in old_spellings(mem.store).items()
                                 if who.allows(new))]
    return [s for s in mem.store.list_scopes(limit, patterns=patterns) if who.allows(s["scope"])]


def scopes(mem: Memory, who: Caller) -> list[dict[str, Any]]:
    """The scopes the caller may see, most recently active first."""
    return _visible(mem, who)


def pick_scope(mem: Memory, who: Caller, scope: str | None) -> str | None:
    """``scope`` checked (``check_scope``: the sessions page reads the store directly, so
    a scope typed NFD, or an old database's scope typed in the new spelling, listed no
    session) and spelt as the database holds it, for the caller; or the caller's most
    recent scope."""
    if scope:
        scope = resolve_scope(mem.store, scope)
        who.check(scope, write=False)
        return scope
    visible = _visible(mem, who)
    return visible[0]["scope"] if visible else None


def _summary_of(mem: Memory, session_id: int) -> dict[str, Any] | None:
    # the summary item alone (session_intelligence would also read every message)
    summary = next((i.extra.get("summary") for i in mem.store.session_items(session_id, "summary")
                    if not i.extra.get("on_demand")), None)
    if not summary:
        return None
    lists = [(label, summary.get(key) or []) for key, label in SUMMARY_LISTS]
    return {"topic": summary.get("topic", ""), "tags": summary.get("topic_tags", []),
            "lists": [(label, values) for label, values in lists if values],
            "model": summary.get("model")}


def sessions_page(mem: Memory, who: Caller, scope: str | None, status: str | None,
                  limit: int = 50, page: str | int | None = None,
                  cursor: str | None = None, before: str | None = None) -> dict[str, Any]:
    """A scope's sessions, newest first, each with its status and summary, ``limit`` a
    page (``page`` 1 the newest; ``more`` says whether an older page exists). A scope's
    51st session and older were on no page at all. "Older" links carry the page's
    ``next_cursor`` besides its number, and a page with ``cursor`` lists the sessions after
    it: sessions added or removed meanwhile neither repeat nor skip one (``page`` is only
    the number shown then). "Newer" links carry ``before`` (``prev_cursor``, the page's
    first session) the same way: the page back ends just before it (it went by number,
    so after sessions were added the page back repeated ones the reader had seen)."""
    if status and status not in SESSION_STATUSES:
        raise ValidationError(f"status: must be one of {', '.join(SESSION_STATUSES)}, got "
                              f"{status!r}", field="status")
    number = _int(str(page if page is not None else ""), "page", 1, 1, 1_000_000)
    scope = pick_scope(mem, who, scope)
    rows = []
    more, next_cursor, prev_cursor = False, None, None
    if scope is not None:
        # newest first with the id breaking ties, so pages neither repeat nor skip one
        found = sessions_of(mem, scope, status or None, limit=limit, cursor=cursor,
                            offset=0 if cursor or before else (number - 1) * limit,
                            stored=True, before=before)
        more, next_cursor, prev_cursor = (found.next_cursor is not None, found.next_cursor,
                                          found.prev_cursor)
        number = _numbered(number, found, cursor or before)
        for s in found.rows:
            rows.append({"session": s, "summary": _summary_of(mem, s.id) if s.summarized else None})
    # past the 500 most recent, a scope was on no page and nothing said so (session 25):
    # the list says it is cut and a form opens any scope by name
    listed = _visible(mem, who, SCOPES_LISTED + 1)
    return {"scope": scope, "status": status or "", "scopes": listed[:SCOPES_LISTED],
            "scopes_cut": len(listed) > SCOPES_LISTED, "scopes_listed": SCOPES_LISTED,
            "sessions": rows, "statuses": SESSION_STATUSES, "page_number": number,
            "more": more, "next_cursor": next_cursor, "prev_cursor": prev_cursor,
            "first": (number - 1) * limit + 1}


def _numbered(number: int, found: Any, by_key: str | None) -> int:
    """The number shown for a page read by cursor or ``before``: as the link said, but 1
    for the first page (a page back may reach it early once rows were removed) and at
    least 2 for one after it."""
    if not by_key or not found.rows:
        return number
    return max(number, 2) if found.prev_cursor else 1


MESSAGES_PER_PAGE = 100
FACTS_PER_PAGE = 100


def turn_page(seq: int | None) -> int:
    """The page of a session's page that shows turn ``seq``: pages hold turns 1-100,
    101-200, ..., so a link to a turn (``?page=P#turn-SEQ``) never moves."""
    return 1 if not seq or seq < 1 else (int(seq) - 1) // MESSAGES_PER_PAGE + 1


def session_page(mem: Memory, who: Caller, session_id: int,
                 page: str | int | None = None) -> dict[str, Any]:
    """One session: its messages with the observations and facts drawn from each turn,
    ``MESSAGES_PER_PAGE`` turns a page by turn number (``page`` 1 turns 1-100). A session
    of thousands of messages was one page of megabytes."""
    number = _int(str(page if page is not None else ""), "page", 1, 1, 1_000_000_000)
    session = mem.session(session_id)
    owned(who, session.scope, f"session {session_id}")
    intel = mem.session_intelligence(session_id)
    by_seq: dict[int, dict[str, list[Any]]] = {}
    for o in intel["observations"]:
        by_seq.setdefault(o["seq"], {"observations": [], "facts": []})["observations"].append(o)
    for f in intel["facts"]:
        if f["seq"] is not None:
            by_seq.setdefault(f["seq"], {"observations": [], "facts": []})["facts"].append(f)
    low, high = (number - 1) * MESSAGES_PER_PAGE + 1, number * MESSAGES_PER_PAGE
    every = mem.messages(session_id)
    messages = [{"message": m, "marks": by_seq.get(m.seq, {"observations": [], "facts": []})}
                for m in every if low <= m.seq <= high]
    last = max((m.seq for m in every), default=0)
    return {"session": session, "summary": _summary_of(mem, session_id), "intel": intel,
            "messages": messages, "scope": session.scope, "page_number": number,
            "pages": turn_page(last) if last else 1, "first_turn": low, "last_turn": high,
            "more": last > high}


def facts_page(mem: Memory, who: Caller, scope: str | None, subject: str | None,
               include_superseded: bool = False, page: str | int | None = None,
               cursor: str | None = None, before: str | None = None) -> dict[str, Any]:
    """A scope's current facts (and replaced ones on request) with their confidence,
    ``FACTS_PER_PAGE`` a page in the order of ``Memory.facts`` (subject, predicate, time,
    id: pages neither repeat nor skip one). It was one page of every fact, cut at 1,000
    without a word. ``cursor``, ``before``: as ``sessions_page``."""
    number = _int(str(page if page is not None else ""), "page", 1, 1, 1_000_000_000)
    scope = pick_scope(mem, who, scope)
    facts: list[Any] = []
    more, next_cursor, prev_cursor = False, None, None
    if scope is not None:
        found = fact_page(mem, scope, subject or None, include_superseded=include_superseded,
                          limit=FACTS_PER_PAGE, cursor=cursor, before=before,
                          offset=0 if cursor or before else (number - 1) * FACTS_PER_PAGE)
        facts, next_cursor, prev_cursor = found.rows, found.next_cursor, found.prev_cursor
        more = next_cursor is not None
        number = _numbered(number, found, cursor or before)
    return {"scope": scope, "subject": subject or "", "facts": facts,
            "include_superseded": include_superseded, "scopes": _visible(mem, who),
            "page_number": number, "more": more, "next_cursor": next_cursor,
            "prev_cursor": prev_cursor, "first": (number - 1) * FACTS_PER_PAGE + 1}


def fact_history(mem: Memory, who: Caller, scope: str, subject: str,
                 predicate: str) -> dict[str, Any]:
    """The timeline of a fact key: every value with its events, and forgotten values."""
    who.check(scope, write=False)
    if not subject.strip() or not predicate.strip():
        raise ValidationError("subject and predicate: both are needed for a fact's history",
                              field="subject" if not subject.strip() else "predicate")
    events: list[dict[str, Any]] = []
    values = mem.fact_history(subject, predicate, scope)
    for v in values:
        for e in v["events"]:
            events.append({"kind": e["kind"], "at": e["at"], "session_id": e["session_id"],
                           "object": v["object"], "fact_id": v["id"], "status": v["status"],
                           "other_id": e["other_id"]})
    for f in mem.forgotten_facts(subject, predicate, scope):
        events.append({"kind": f["kind"], "at": f["at"], "session_id": f["session_id"],
                       "object": None, "fact_id": f["fact_id"], "status": "forgotten",
                       "other_id": f["other_id"]})
    events.sort(key=lambda e: (e["at"], e["fact_id"]))
    # an ending (session 22): its statement is the end of a value, and what it replaces ends
    names = {v["id"]: ("its end" if v["status"] == "ended" else v["object"]) for v in values}
    for e in events:
        e["other"] = names.get(e["other_id"]) if e["other_id"] else None
        if e["status"] == "ended" and e["kind"] == "added":
            e["kind"] = "ended"
    return {"scope": scope, "subject": subject, "predicate": predicate, "values": values,
            "events": events}


def _bars(hits: list[dict[str, Any]]) -> None:
    """Scale every signal's contribution to the largest one among all hits (bar widths)."""
    top = max((abs(s["contribution"]) for h in hits for s in h["signals"]), default=0.0) or 1.0
    for h in hits:
        for s in h["signals"]:
            s["width"] = round(100 * abs(s["contribution"]) / top, 1)


def search_page(mem: Memory, who: Caller, params: dict[str, str]) -> dict[str, Any]:
    """Run a search with ``--explain`` data and lay each hit's signals out as bars."""
    query = params.get("q", "").strip()
    scope = params.get("scope", "").strip() or None
    preset = params.get("preset", "").strip() or None
    if preset is not None and preset != "default" and preset not in PRESETS:
        raise ValidationError(f"preset: must be one of default, {', '.join(PRESETS)}; got "
                              f"{preset!r}", field="preset")
    kind = params.get("kind", "").strip() or None
    if kind is not None and kind not in KINDS:
        raise ValidationError(f"kind: must be one of {', '.join(KINDS)}, got {kind!r}",
                              field="kind")
    # the configured default and the range every surface takes (it was 10 and 1 to 100)
    k = _int(params.get("k", ""), "k", mem.config.search.default_k, 1, MAX_K)
    # "preset" (the form's first choice, and no mode at all): the preset's ranking, else
    # retrieval.session_aware; the form sent session-aware beside every preset, which a
    # preset ranking flat refuses since session 34
    mode = params.get("mode", "") or "preset"
    if mode not in ("preset", "session", "flat"):
        raise ValidationError(f"mode: must be preset, session or flat, got {mode!r}",
                              field="mode")
    since = params.get("since", "").strip() or None
    until = params.get("until", "").strip() or None
    if scope is None and not who.allows(None):
        # a key holding some scopes searches its most recent one: "every scope" was the
        # default, and a 403 ("this request spans every scope") for such a key
        scope = pick_scope(mem, who, None)
    form: dict[str, Any] = {"q": query, "scope": scope or "", "preset": preset or "",
                            "kind": kind or "", "k": k, "k_max": MAX_K, "since": since or "",
                            "until": until or "", "mode": mode}
    # a query asked (the form sent) holding nothing: said, where the fresh form came back
    blank = "q" in params and not query
    out: dict[str, Any] = {"form": form, "hits": [], "ran": False, "scopes": _visible(mem, who),
                           "blank": "q: the query is empty; type a question" if blank else None,
                           "presets": ["default", *PRESETS], "kinds": KINDS,
                           "every_scope": who.allows(None),
                           "signal_labels": SIGNAL_LABELS, "stage_labels": STAGE_LABELS}
    if not query:
        return out
    aware = {"session": True, "flat": False}.get(mode)
    if flat_by_call(preset, aware) is not None:  # the form's names, not the library's
        raise ValidationError(f"mode: session-aware ranking was chosen, and preset {preset} "
                              "ranks flat: choose the preset's ranking, flat, or another "
                              "preset", field="mode")
    who.check(scope, write=False)
    # a read-only key's search records no fact's access (``Memory.reading_only``)
    with mem.reading_only(bool(getattr(who, "read_only", False))):
        hits = mem.search(query, scope=scope, k=k, preset=preset, kinds=[kind] if kind else None,
                          since=since, until=until, session_aware=aware, explain=True)
    rows = []
    for h in hits[:k]:
        e = explain(h)
        signals = [{"name": n, "label": SIGNAL_LABELS.get(n, n), **v}
                   for n, v in e["signals"].items() if v["contribution"]]
        signals.sort(key=lambda s: (-abs(s["contribution"]), s["name"]))
        idle = [{"name": n, "label": SIGNAL_LABELS.get(n, n), **v}
                for n, v in e["signals"].items() if not v["contribution"] and v["value"]]
        rows.append({"hit": h, "score": e["score"], "signals": signals, "idle": idle,
                     "ranks": e["ranks"], "notes": e.get("notes", []),
                     "bm25": h.scores.get("lexical"), "cosine": h.scores.get("vector"),
                     "lifted_from": int(h.scores["lifted_from"]) if "lifted_from" in h.scores
                     else None})
    _bars(rows)
    out.update(hits=rows, ran=True, timings=dict(mem.last_timings),
               # why, as the CLI, POST /v1/search and MCP recall say it (session 33: the page
               # said "nothing matched" where they name the filters and the floor)
               notice=None if rows else nothing_note(
                   mem, scope, "nothing matched", search=True,
                   filtered=filters_given(kind=kind or None, since=since, until=until),
               ).removeprefix("nothing matched: "))  # the page says "Nothing matched: " itself
    return out


def _int(text: str, field: str, default: int, low: int, high: int) -> int:
    if not str(text).strip():
        return default
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValidationError(f"{field}: must be a whole number, got {text!r}",
                              field=field) from None
    refused = int_refused(value, low, high)
    if refused is not None:  # in every surface's words (``must be an integer from 1 to 1000``)
        raise ValidationError(f"{field}: {refused}", field=field)
    return value


def packs_list(mem: Memory, who: Caller) -> dict[str, Any]:
    """Journaled packs the caller may see, newest first (50).

    A key that does not hold every scope reads its scopes' packs: filtered out of the
    newest 200 of all, a tenant's packs vanished from the page once other tenants had
    journaled 200 newer ones."""
    visible = _visible(mem, who)
    if who.allows(None):
        packs = mem.store.list_packs(limit=50)
    else:
        packs = sorted((p for s in visible for p in mem.store.list_packs(s["scope"], limit=50)),
                       key=lambda p: -p["id"])[:50]
    return {"packs": packs, "scopes": visible, "budget": mem.config.pack.budget,
            "max_budget": MAX_BUDGET, "every_scope": who.allows(None),
            "read_only": bool(getattr(who, "read_only", False))}


def build_pack(mem: Memory, who: Caller, form: dict[str, str]) -> int | dict[str, Any]:
    """Build a pack from the form: the journal id of a journaled one (its page is the
    journal's row), or the page's data of one that is not journaled (``pack_page``'s, its
    ``id`` None and ``not_journaled`` saying why). A read-only key's pack is built as its
    other reads are, writing nothing (``Memory.reading_only``; until session 32 the form
    journaled it, its page read back from the row). A pack of a read-only database, one with
    ``pack.journal`` off and an empty one of a scope holding nothing are not journaled
    either: shown the same way (the form answered a 400 page saying the journal was off)."""
    query = form.get("q", "").strip()
    if not query:
        raise ValidationError("q: give a question to build a pack for", field="q")
    scope = form.get("scope", "").strip() or None
    if scope is None and not who.allows(None):
        scope = pick_scope(mem, who, None)  # as search_page: a key's own most recent scope
    who.check(scope, write=False)
    budget = _int(form.get("budget", ""), "budget", mem.config.pack.budget, 16, MAX_BUDGET)
    read_only = bool(getattr(who, "read_only", False))
    with mem.reading_only(read_only):
        pack = mem.pack(query, budget, scope=scope)
    if pack.id is not None:
        return pack.id
    if read_only:
        why = "this key is read-only, so the pack is shown here and not journaled: nothing was written"
    elif getattr(mem.store, "read_only", False):
        why = "the database is read-only: the pack is shown here, not journaled"
    elif not mem.config.pack.journal:
        why = "memory.pack.journal is off in the configuration: the pack is shown here, not journaled"
    else:
        why = f"scope {scope!r} holds nothing: its empty pack is not journaled"
    built = {"id": None, "query": pack.query, "scope": scope, "budget": pack.budget,
             "used": pack.used, "token_counter": pack.token_counter, "text": pack.text,
             "notice": pack.notice, "created_at": datetime.now(UTC),
             "entries": [e.as_dict() for e in pack.entries]}
    return {**_pack_view(mem, built, pack.shares), "not_journaled": why}


def pack_page(mem: Memory, who: Caller, pack_id: int) -> dict[str, Any]:
    """A journaled pack as the model sees it, with its shares and every decision."""
    pack = mem.replay_pack(pack_id)
    owned(who, pack["scope"], f"pack {pack_id}")
    return {**_pack_view(mem, pack, pack["config"].get("shares", {})), "not_journaled": None}


def _pack_view(mem: Memory, pack: dict[str, Any], shares: dict[str, float]) -> dict[str, Any]:
    """A pack's page: ``pack`` (``replay_pack``'s fields) with each entry's text."""
    entries = pack["entries"]
    items = mem.store.get_items([e["item_id"] for e in entries if e.get("item_id")])
    for e in entries:
        item = items.get(e["item_id"]) if e.get("item_id") else None
        e["text"] = item.text if item is not None else _message_text(mem, e.get("message_id"))
    return {"pack": pack, "shares": sorted(shares.items(), key=lambda kv: (-kv[1], kv[0])),
            "entries": entries, "kept": sum(1 for e in entries if e["kept"])}


def _message_text(mem: Memory, message_id: int | None) -> str:
    """A recent message's text (its pack entry has no item): the Text column was empty
    for every recent_turns candidate. "" once the message has been erased."""
    if not message_id:
        return ""
    try:
        return mem.store.get_message(message_id).text
    except NotFoundError:
        return ""


def process_metrics(metrics: Any) -> dict[str, Any]:
    """This process's numbers from the service's ``/metrics`` registry: requests answered
    and the mean time of each search stage (``metrics`` is ``app.state.metrics``)."""
    if metrics is None:
        return {"requests": 0, "errors": 0, "stages": []}
    requests = errors = 0.0
    for family in metrics.requests.collect():
        for sample in family.samples:
            if sample.name.endswith("_total"):
                requests += sample.value
                if sample.labels.get("status", "").startswith("5"):
                    errors += sample.value
    sums: dict[str, float] = {}
    counts: dict[str, float] = {}
    for family in metrics.stages.collect():
        for sample in family.samples:
            stage = sample.labels.get("stage", "")
            if sample.name.endswith("_sum"):
                sums[stage] = sample.value
            elif sample.name.endswith("_count"):
                counts[stage] = sample.value
    stages = [{"stage": st, "count": int(n), "mean_ms": round(1000 * sums.get(st, 0.0) / n, 2)}
              for st, n in sorted(counts.items()) if n]
    return {"requests": int(requests), "errors": int(errors), "stages": stages}


def health(mem: Memory, who: Caller, metrics: Any = None) -> dict[str, Any]:
    """Counts, counters, the summary queue and indexing progress (``Memory.stats``, which
    ``/metrics`` reads too), and this process's request and search-stage numbers."""
    who.check(None, write=False, what="the Health page")
    stats = mem.stats()
    sessions = stats.get("sessions", {})
    done = sum(sessions.get(s, 0) for s in ("closed", "summarized", "failed"))
    unindexed = stats.get("sessions_unindexed", 0)
    progress = round(100 * (done - unindexed) / done, 1) if done else 100.0
    return {"stats": stats, "progress": progress, "indexed": done - unindexed, "closed": done,
            "now": datetime.now(UTC), "process": process_metrics(metrics)}
