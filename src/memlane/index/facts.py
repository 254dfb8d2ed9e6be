"""Storing a fact keeps memory true: reinforce the same value, supersede a contradicted one.

Called inside the transaction that writes the fact's item, so a fact, its supersession,
its lexical row and its vector row change together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memlane.config import FactsConfig
from memlane.index.normalize import normalize_predicate, normalize_value, subject_key
from memlane.store.contract import Store

__all__ = ["FactOutcome", "FactView", "apply_fact", "end_fact", "fact_confidence", "is_single_valued", "view"]


def is_single_valued(predicate: str, cfg: FactsConfig) -> bool:
    """A city, a job, a key: one value at a time. Likes, visits: many."""
    pred = normalize_predicate(predicate)
    if pred in cfg.single_valued:
        return True
    if pred in cfg.multi_valued:
        return False
    return cfg.default_single_valued


@dataclass(frozen=True, slots=True)
class FactOutcome:
    """What storing one fact did."""

    action: str
    """added | reinforced | superseded (added and replaced older values) | historical |
    ended (an ending stored, ``replaced`` the values it retired; session 22) | forgotten (a
    statement of a session read again whose fact the user had forgotten: nothing stored,
    ``fact_id`` the forgotten fact's; session 26)."""
    fact_id: int
    replaced: tuple[int, ...] = ()


def apply_fact(
    store: Store,
    cfg: FactsConfig,
    *,
    scope: str,
    subject: str,
    predicate: str,
    obj: str,
    source: str,
    at: float,
    session_id: int | None,
    message_id: int | None,
    make_item: Any,
) -> FactOutcome:
    """Store ``subject predicate obj`` against what the scope already knows.

    - the same object (after normalization) reinforces the current fact: no new row;
    - another object of a single-valued predicate supersedes the current fact(s) when
      it is at least as recent as the last time they were stated (added or reinforced);
      an older statement is kept as history, superseded at once;
    - a multi-valued predicate accumulates;
    - a statement of a session whose fact was forgotten by hand (``Memory.forget_fact``),
      read again when the session is (a re-summary), stays forgotten (session 26).

    ``make_item()`` inserts the fact's item (with its vector) and returns its id; it is
    only called when a new fact row is written.
    """
    pred = normalize_predicate(predicate)
    nsub, nobj = subject_key(subject), normalize_value(obj)
    current = store.current_facts(scope, nsub, pred)
    if (gone := _forgotten(store, scope, nsub, pred, at, session_id, message_id)) is not None:
        return FactOutcome("forgotten", gone)
    said: dict[str, Any] = {"session_id": session_id, "message_id": message_id}  # the turn each event is of
    for fact, norm_object in current:
        if norm_object == nobj:
            store.reinforce_fact(fact.id, at)
            store.log_fact_event(fact, "reinforced", at, **said)
            store.bump("facts_reinforced")
            return FactOutcome("reinforced", fact.id)
    item_id = make_item()
    fact_id = store.insert_fact({
        "item_id": item_id, "scope": scope, "subject": subject, "predicate": pred, "object": obj,
        "norm_subject": nsub, "norm_predicate": pred, "norm_object": nobj, "source": source,
        "session_id": session_id, "message_id": message_id, "at": at,
    })
    new = store.get_fact(fact_id)
    store.log_fact_event(new, "added", at, **said)
    if is_single_valued(pred, cfg) and (later := _retired_after(store, scope, nsub, pred, at, fact_id,
                                                                   bool(current))):
        # a value said before another one that an ending has retired since (sessions indexed
        # out of order; session 22), or that was replaced by a value forgotten since (session
        # 26): the later value replaced it, so it is history
        store.supersede_fact(fact_id, later)
        store.log_fact_event(new, "superseded", at, other_id=later, **said)
        return FactOutcome("historical", fact_id)
    if not current or not is_single_valued(pred, cfg):
        return _unless_ended(store, FactOutcome("added", fact_id), scope, nsub, pred, nobj, at, said)
    # when each current value was last stated: a reinforcement states it again, so a value
    # said at 54 and again at 58 is newer than a contradiction said at 56 that is
    # indexed last (out-of-order imports, several workers on one scope)
    stated = {f.id: f.at.timestamp() for f, _ in current}
    for event in store.fact_events(list(stated)):
        if event["kind"] == "reinforced":
            stated[event["fact_id"]] = max(stated[event["fact_id"]], event["at"].timestamp())
    newer = [f for f, _ in current if stated[f.id] > at]
    if newer:  # an older statement arriving late: history, not news
        store.supersede_fact(fact_id, newer[-1].id)
        store.log_fact_event(new, "superseded", at, other_id=newer[-1].id, **said)
        return FactOutcome("historical", fact_id)
    replaced = []
    for old, _ in current:
        store.supersede_fact(old.id, fact_id)
        store.log_fact_event(old, "superseded", at, other_id=fact_id, **said)
        replaced.append(old.id)
    store.bump("facts_superseded", len(replaced))
    return _unless_ended(store, FactOutcome("superseded", fact_id, tuple(replaced)), scope, nsub, pred, nobj,
                         at, said)


def _unless_ended(store: Store, outcome: FactOutcome, scope: str, nsub: str, pred: str, nobj: str,
                  at: float, said: dict[str, Any]) -> FactOutcome:
    """``outcome``, or history when an ending of the new value said after it is already
    stored (sessions indexed out of order): the value is retired by that ending at once, as
    if it had been stored first (session 22)."""
    ender = _ended_after(store, scope, nsub, pred, nobj, at)
    if ender is None:
        return outcome
    store.supersede_fact(outcome.fact_id, ender)
    store.log_fact_event(store.get_fact(outcome.fact_id), "superseded", at, other_id=ender, **said)
    return FactOutcome("historical", outcome.fact_id, outcome.replaced)


def _last_stated(store: Store, facts: list[Any]) -> dict[int, float]:
    """When each fact was last stated: added, or reinforced since."""
    stated = {f.id: f.at.timestamp() for f in facts}
    if stated:
        for event in store.fact_events(list(stated)):
            if event["kind"] == "reinforced" and event["fact_id"] in stated:
                stated[event["fact_id"]] = max(stated[event["fact_id"]], event["at"].timestamp())
    return stated


def _forgotten(store: Store, scope: str, nsub: str, pred: str, at: float,
               session_id: int | None, message_id: int | None) -> int | None:
    """The forgotten fact this statement of a session had stated (added or reinforced, by
    the same turn: the same session and message, or the same time where either has no
    message), if the user forgot it (``Memory.forget_fact`` keeps those events without the
    value): its session read again (a re-summary, a turn erased, a kept session read again
    after an erase) must not bring it back (session 26). Another turn of the same time says
    its own (session 29). A statement told directly (``add_fact``, no session) is the
    user's own and always stored."""
    if session_id is None:
        return None
    for e in store.forgotten_fact_events(scope, nsub, pred):
        if e["kind"] not in ("added", "reinforced") or e["session_id"] != session_id:
            continue
        if e["message_id"] is not None and message_id is not None:
            if e["message_id"] == message_id:
                return int(e["fact_id"])
        elif abs(e["at"].timestamp() - at) < 0.001:
            return int(e["fact_id"])
    return None


def _retired_after(store: Store, scope: str, nsub: str, pred: str, at: float, fact_id: int,
                   has_current: bool) -> int | None:
    """The newest value of a single-valued predicate, no longer current, last stated after
    ``at`` (replaced since, or retired by an ending), if any."""
    if has_current and not store.ended_facts(scope, nsub, _families(pred)):
        # without an ending, a current value is the newest one (``apply_fact``'s own rule);
        # with none, the newest may have been replaced by a value forgotten since (the link
        # cleared), and an older statement arriving late must not become current (session 26)
        return None
    rows = [f for f in store.fact_history(scope, nsub, pred) if f.status == "superseded" and f.id != fact_id]
    if not rows:
        return None
    stated = _last_stated(store, rows)
    later = [(stated[f.id], f.id) for f in rows if stated[f.id] > at]
    return max(later)[1] if later else None


def _families(pred: str) -> tuple[str, ...]:
    from memlane.index.ending import families_of

    return families_of(pred)


def _ended_after(store: Store, scope: str, nsub: str, pred: str, nobj: str, at: float) -> int | None:
    """The newest stored ending said after ``at`` that ends ``nobj``, if any."""
    from memlane.index.ending import ends, families_of

    found = [(f.at.timestamp(), f.id) for f, norm in store.ended_facts(scope, nsub, families_of(pred))
             if f.at.timestamp() > at and ends(norm, nobj)]
    return max(found)[1] if found else None


def end_fact(
    store: Store,
    cfg: FactsConfig,
    *,
    scope: str,
    subject: str,
    predicate: str,
    obj: str,
    source: str = "stated",
    at: float,
    session_id: int | None,
    message_id: int | None,
) -> FactOutcome:
    """Store that ``subject predicate obj`` has ended ("I no longer work at Acme"; ``obj``
    empty: whatever value, "I quit my job") and retire what it ends (session 22).

    The ending is a fact row of its own, status ``ended``, with no item (it is in no search
    and no pack). Every current value of the subject under ``predicate`` and the predicates
    it reaches (:data:`memlane.index.ending.FAMILIES`: "I sold my Corolla" reaches ``has``,
    ``acquired`` and ``owns``) that the ending names (the same value, or every word of the
    ending's in it) and that was last stated before the ending is superseded by it: kept for
    audit with confidence 0, out of current facts and packs. A value stated again after the
    ending is current again; a value stated before it and stored after it is history at once
    (``apply_fact``); erasing the ending's session settles the values again
    (``resettle_facts``)."""
    from memlane.index.ending import ends, family

    pred = normalize_predicate(predicate)
    nsub, nobj = subject_key(subject), normalize_value(obj) if obj else ""
    if (gone := _forgotten(store, scope, nsub, pred, at, session_id, message_id)) is not None:
        return FactOutcome("forgotten", gone)  # an ending forgotten by hand, its session read again
    ending_id = store.insert_ended_fact({
        "scope": scope, "subject": subject, "predicate": pred, "object": obj, "norm_subject": nsub,
        "norm_predicate": pred, "norm_object": nobj, "source": source, "session_id": session_id,
        "message_id": message_id, "at": at,
    })
    ending = store.get_fact(ending_id)
    said: dict[str, Any] = {"session_id": session_id, "message_id": message_id}  # the turn each event is of
    store.log_fact_event(ending, "added", at, **said)  # its status says what it is
    retired: list[int] = []
    for reached in family(pred):
        current = [(f, norm) for f, norm in store.current_facts(scope, nsub, reached) if ends(nobj, norm)]
        stated = _last_stated(store, [f for f, _ in current])
        for old, _ in current:
            if stated[old.id] < at:
                store.supersede_fact(old.id, ending_id)
                store.log_fact_event(old, "superseded", at, other_id=ending_id, **said)
                retired.append(old.id)
    if retired:
        store.bump("facts_superseded", len(retired))
    return FactOutcome("ended", ending_id, tuple(retired))


@dataclass(frozen=True, slots=True)
class FactView:
    """A stored fact with its confidence computed at a given time."""

    id: int
    item_id: int | None
    scope: str
    subject: str
    predicate: str
    object: str
    source: str
    status: str
    confidence: float
    reinforcements: int
    at: datetime
    """When the fact was stated (UTC)."""
    last_accessed: datetime
    """When it was last reinforced or returned by a search: the staleness clock's start."""
    session_id: int | None
    superseded_by: int | None


def fact_confidence(fact: Any, cfg: Any, now: float) -> float:
    """DESIGN.md's confidence of a stored fact as of ``now`` (0 once superseded)."""
    from memlane.index.confidence import confidence

    last = (fact.last_accessed or fact.at).timestamp()
    return confidence(fact.source, fact.reinforcements, last, now, cfg,
                      superseded=fact.status != "current")


def view(fact: Any, cfg: Any, now: float) -> FactView:
    """``fact`` (a StoredFact) with its confidence as of ``now`` (ConfidenceConfig ``cfg``)."""
    return FactView(
        id=fact.id, item_id=fact.item_id, scope=fact.scope, subject=fact.subject,
        predicate=fact.predicate, object=fact.object, source=fact.source, status=fact.status,
        confidence=round(fact_confidence(fact, cfg, now), 6),
        reinforcements=fact.reinforcements, at=fact.at, last_accessed=fact.last_accessed or fact.at,
        session_id=fact.session_id, superseded_by=fact.superseded_by,
    )

