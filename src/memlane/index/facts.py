"""Storing a fact keeps memory true: reinforce the same value, supersede a contradicted one.

Called inside the transaction that writes the fact's item, so a fact, its supersession,
its lexical row and its vector row change together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memlane.config import FactsConfig
from memlane.index.normalize import normalize_name, normalize_predicate, normalize_value
from memlane.store.contract import Store

__all__ = ["FactOutcome", "FactView", "apply_fact", "fact_confidence", "is_single_valued", "view"]


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
    """added | reinforced | superseded (added and replaced older values) | historical."""
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
    - a multi-valued predicate accumulates.

    ``make_item()`` inserts the fact's item (with its vector) and returns its id; it is
    only called when a new fact row is written.
    """
    pred = normalize_predicate(predicate)
    nsub, nobj = normalize_name(subject), normalize_value(obj)
    current = store.current_facts(scope, nsub, pred)
    for fact, norm_object in current:
        if norm_object == nobj:
            store.reinforce_fact(fact.id, at)
            store.log_fact_event(fact, "reinforced", at, session_id=session_id)
            store.bump("facts_reinforced")
            return FactOutcome("reinforced", fact.id)
    item_id = make_item()
    fact_id = store.insert_fact({
        "item_id": item_id, "scope": scope, "subject": subject, "predicate": pred, "object": obj,
        "norm_subject": nsub, "norm_predicate": pred, "norm_object": nobj, "source": source,
        "session_id": session_id, "message_id": message_id, "at": at,
    })
    new = store.get_fact(fact_id)
    store.log_fact_event(new, "added", at, session_id=session_id)
    if not current or not is_single_valued(pred, cfg):
        return FactOutcome("added", fact_id)
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
        store.log_fact_event(new, "superseded", at, other_id=newer[-1].id, session_id=session_id)
        return FactOutcome("historical", fact_id)
    replaced = []
    for old, _ in current:
        store.supersede_fact(old.id, fact_id)
        store.log_fact_event(old, "superseded", at, other_id=fact_id, session_id=session_id)
        replaced.append(old.id)
    store.bump("facts_superseded", len(replaced))
    return FactOutcome("superseded", fact_id, tuple(replaced))


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

