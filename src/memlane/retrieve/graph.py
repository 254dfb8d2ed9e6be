"""Multi-hop: one hop through the entity graph from the entities the query names.

"What did Ana do after the trip to Lisbon?" names Ana and Lisbon; the evidence may sit in
a session that names neither word the query used but an entity related to them (Ana's
sister, the conference in Lisbon). ``graph_candidates`` takes the scope's entities whose
every word is in the query (hop 0), follows one hop (hop 1: the stored relations, and the
entities a session summary names beside a hop-0 entity), and returns the items that
mention those entities; the search adds them (for a summary or entity item, its session's
best turns by query words) to the candidates so stage one can reach their sessions. An entity mentioned by more than ``max_items`` items (a chat's
own speakers) says nothing about the question and is skipped. An entity's items are those
listing any of its spellings (``name_key``): "José" and "Jose" are one entity (session 28).
``entity_sessions`` gives stage one the sessions holding each entity the query names: a
session holding them scores higher (``retrieval.session_entity_boost``, session 52). Both
take the query's entities and their items from ``named_entities``, read once a search
(session 53).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace

from memlane.index.graph import items_naming, spellings
from memlane.index.normalize import name_key
from memlane.store.contract import Store
from memlane.types import Item

__all__ = ["Named", "entity_sessions", "graph_candidates", "named_entities", "query_entities"]


def query_entities(names: Collection[str], terms: Collection[str], query: str = "") -> list[str]:
    """The normalised entity ``names`` whose every word is among the query ``terms``. With
    the ``query``'s text, its words as a name's key reads them: a word holding a symbol
    counts, and a term that is only a piece of one does not (the terms are split at ASCII
    punctuation, "C++" the term "C", while a name's key keeps its symbols, "c++", "at&t";
    session 31: "C++" named the node "C")."""
    q = {w for t in terms for w in name_key(t).split()}
    if query:
        q = {w for w in name_key(query).split() if w in q or not w.isalnum()}
    out = []
    for n in names:
        words = n.split()
        if words and all(w in q for w in words):
            out.append(n)
    return sorted(out)


def _mentions(store: Store, scope: str, norm: str, written: dict[str, set[str]],
              max_items: int) -> list[Item]:
    """The items mentioning the entity ``norm`` in any of its spellings (``written``: an
    item lists a name as its session wrote it, "Jose" beside a node "José", session 28);
    none when more than ``max_items`` do: too common to mean anything."""
    out: list[Item] = []
    for ent in store.find_entities(norm, scope):
        items = items_naming(store, {ent.name} | written.get(norm, set()), scope, max_items + 1)
        if len(items) > max_items:
            return []
        out.extend(items)
    return out


@dataclass(frozen=True)
class Named:
    """The entities of ``scope`` a query names (:func:`query_entities`), each with the items
    mentioning it (none when more than ``max_items`` do), read once a search (session 53):
    the graph stage and stage one's entity boost both take it. ``names`` (every entity of
    the scope) and ``written`` (their spellings) serve hop 1."""

    store: Store
    scope: str
    mentions: dict[str, list[Item]]
    names: frozenset[str] = frozenset()
    written: dict[str, set[str]] = field(default_factory=dict)
    max_items: int = 40

    def naming(self, terms: Collection[str], query: str = "") -> Named:
        """These entities cut to those whose every word is among ``terms`` (a use whose
        terms are a part of the ones they were looked up with: the same entities as looking
        them up with ``terms``)."""
        kept = query_entities(self.mentions, terms, query)
        return replace(self, mentions={n: self.mentions[n] for n in kept})


def named_entities(store: Store, scope: str, terms: Collection[str], max_items: int = 40,
                   query: str = "") -> Named:
    """The entities of ``scope`` the query names and the items mentioning each; ``query``:
    the question's text, for names holding a symbol (:func:`query_entities`)."""
    names = frozenset(store.entity_names(scope))
    named = query_entities(names, terms, query)
    if not named:
        return Named(store, scope, {}, names, {}, max_items)
    written = spellings(store, scope)
    return Named(store, scope, {n: _mentions(store, scope, n, written, max_items) for n in named},
                 names, written, max_items)


def entity_sessions(named: Named, skip: Collection[str] = ()) -> dict[str, set[int]]:
    """Each of the ``named`` entities with the sessions of the items mentioning it; not the
    entities whose every word is in ``skip`` (a conversation's speakers, named in every
    session), nor those no item or more than ``max_items`` items mention."""
    drop = {w.lower() for w in skip}
    out: dict[str, set[int]] = {}
    for n, items in named.mentions.items():
        if set(n.split()) <= drop:
            continue
        held = {it.session_id for it in items if it.session_id is not None}
        if held:
            out[n] = held
    return out


def graph_candidates(named: Named) -> tuple[list[Item], list[Item]]:
    """Items mentioning the ``named`` entities (hop 0) and their neighbours (hop 1)."""
    if not named.mentions:
        return [], []
    store, scope = named.store, named.scope
    zero = [it for n in sorted(named.mentions) for it in named.mentions[n]]
    # hop 1: the stored relations, and the entities a summary names beside a hop-0 one
    hop1: set[str] = set()
    for n in sorted(named.mentions):
        for _scope, a, _rel, b in store.relations_of(n, scope):
            hop1.update((name_key(a), name_key(b)))
    for it in zero:
        if it.kind == "summary":
            hop1.update(name_key(e) for e in it.entities)
    hop1 -= set(named.mentions)
    hop1 &= named.names
    seen = {it.id for it in zero}
    one = [it for n in sorted(hop1)
           for it in _mentions(store, scope, n, named.written, named.max_items) if it.id not in seen]
    return zero, one
