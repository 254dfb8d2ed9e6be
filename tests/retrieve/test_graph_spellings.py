"""Session 28: the retrieval graph stage finds an entity's items under every spelling.

The entity node keeps the first spelling ("José"); a later session's items list the name as
it wrote it ("Jose"). ``graph_candidates`` asked for the items listing the node's own
spelling only, so the sessions that wrote the other were not reached through the graph,
whichever spelling the question used. It now asks for every spelling of the node's key
(``name_key``), as ``Memory.graph`` does.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.config import load_config
from memlane.index.normalize import name_key
from memlane.memory import Memory
from memlane.retrieve.graph import graph_candidates, named_entities
from memlane.retrieve.text import query_terms
from memlane.testing import HashingEmbedder, add_sessions

NOW = datetime(2024, 6, 1, 12, tzinfo=UTC)

CONVERSATION = [
    (30, [("user", "I had lunch with José at Café Nero."), ("assistant", "Nice.")]),
    (20, [("user", "The boiler broke again this morning."), ("assistant", "Call the plumber.")]),
    (5, [("user", "Jose called me about the trip to Porto."), ("assistant", "Noted.")]),
]


@pytest.mark.parametrize("first", ["José", "Jose"])
def test_the_graph_stage_finds_the_items_of_every_spelling_on_both_stores(db_url: str, first: str) -> None:
    """A session naming "José" and a later one "Jose" (or the other way round): a question
    naming either spelling, or neither's case, reaches both sessions through the graph."""
    other = "Jose" if first == "José" else "José"
    sessions = [(days, [(role, text.replace("José", "\0").replace("Jose", other).replace("\0", first)
                         if days == 30 else text.replace("Jose", other)) for role, text in turns])
                for days, turns in CONVERSATION]
    mem = Memory(db_url, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))
    try:
        add_sessions(mem, sessions, now=NOW, scope="u")
        naming = {it.session_id for it in mem.store.items_of_kind("entity", "u")
                  if name_key(str(it.extra.get("name"))) == "jose"}
        assert len(naming) == 2  # the pipeline read the name in both sessions
        assert [n.name for n in mem.store.find_entities("jose", "u")] == [first]
        for query in ("What did José call me about?", "What did Jose call me about?",
                      "what did JOSÉ say?"):
            zero, _one = graph_candidates(named_entities(mem.store, "u", query_terms(query)))
            assert {it.session_id for it in zero} == naming, query
            assert {e for it in zero for e in it.entities if name_key(e) == "jose"} == {"José", "Jose"}
    finally:
        mem.close()
