"""The entity graph: nodes are entities merged by normalized name, edges are relations."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memlane.index.normalize import name_key
from memlane.store.contract import Store
from memlane.types import Item

__all__ = ["graph_relevance", "items_naming", "mentioned_entities", "neighbors", "spellings"]


def spellings(store: Store, scope: str | None) -> dict[str, set[str]]:
    """Every spelling of each entity of ``scope`` by key (``name_key``), as its entity items
    wrote it: a node keeps the first ("José"), an item lists the name as its session wrote
    it ("Jose")."""
    out: dict[str, set[str]] = {}
    for it in store.items_of_kind("entity", scope):
        name = str(it.extra.get("name") or "")
        if name:
            out.setdefault(name_key(name), set()).add(name)
    return out


def items_naming(store: Store, names: Iterable[str], scope: str | None, limit: int) -> list[Item]:
    """The active items of ``scope`` that list any of ``names`` (one entity's spellings),
    newest first, at most ``limit``."""
    found = {i.id: i for sp in sorted(set(names)) for i in store.items_with_entity(sp, scope, limit)}
    return sorted(found.values(), key=lambda i: (-i.at.timestamp(), i.id))[:limit]


def neighbors(store: Store, scope: str, entities: Iterable[str]) -> set[str]:
    """Normalized names one relation away from any of ``entities`` (both directions)."""
    out: set[str] = set()
    for name in entities:
        for _scope, src, _rel, dst in store.relations_of(name_key(name), scope):
            out.update((src, dst))
    return out


def mentioned_entities(text: str, known: Sequence[str]) -> list[str]:
    """Known entity names (normalized) that occur in ``text`` as whole words."""
    norm = f" {name_key(text)} "
    return [k for k in known if k and f" {k} " in norm]


def graph_relevance(query_entities: Sequence[str], item_entities: Iterable[str],
                    item_neighbors: Iterable[str] = ()) -> float:
    """Share of the query's entities the item mentions or is one relation away from.

    1.0 when every entity of the query is the item's own or its neighbour, 0.0 when none
    is, and 0.0 when the query names no entity.
    """
    q = {name_key(e) for e in query_entities if e}
    if not q:
        return 0.0
    reach = {name_key(e) for e in item_entities} | set(item_neighbors)
    return len(q & reach) / len(q)
