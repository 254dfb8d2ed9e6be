"""An erase leaves no conversation text in the process's caches (session 22): the
offline summariser's sentence caches, the readers' caches, the query LRUs and the embedders'
vector caches are emptied by ``forget_scope`` and ``forget_session``
(``memlane.textcaches``)."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import memlane
from memlane.backends.embed import CachedEmbedder
from memlane.testing import HashingEmbedder, memory
from memlane.textcaches import NO_TEXT, TEXT_CACHES

MARKER = "Zorblatt"


def _caches() -> dict[str, object]:
    out = {}
    for name, functions in TEXT_CACHES.items():
        module = importlib.import_module(name)
        for f in functions:
            out[f"{name}.{f}"] = getattr(module, f)
    return out


def _fill(mem: memlane.Memory, scope: str) -> int:
    at = "2024-05-20T10:00:00Z"
    m = mem.add_message(scope, "user", f"OK, I think {MARKER} is the new codename. Thanks!", at=at)
    mem.add_message(scope, "assistant", f"Agreed. We decided to ship {MARKER} last week.",
                    at="2024-05-20T10:01:00Z")
    mem.close_session(scope)
    mem.index()
    assert mem.search(f"when did we ship {MARKER}?", scope=scope)
    return m.session_id


@pytest.mark.parametrize("how", ["scope", "session"])
def test_an_erase_empties_every_cache_of_conversation_text(tmp_path: Path, how: str) -> None:
    mem = memory(tmp_path / "m.db")
    try:
        session_id = _fill(mem, "alice")
        filled = {k for k, f in _caches().items() if f.cache_info().currsize}  # type: ignore[attr-defined]
        assert {"memlane.index.cues.clean", "memlane.index.cues.is_courtesy"} <= filled
        assert any(MARKER in q for q in mem.embeddings._lru)
        if how == "scope":
            mem.forget_scope("alice")
        else:
            mem.forget_session(session_id)
        left = {k: f.cache_info().currsize for k, f in _caches().items()}  # type: ignore[attr-defined]
        assert not any(left.values()), left
        assert not mem.embeddings._lru
    finally:
        mem.close()


def test_clear_caches_empties_a_live_cached_embedder() -> None:
    emb = CachedEmbedder(HashingEmbedder(dim=64))
    emb.embed_batch([f"{MARKER} said the vault code"])
    assert len(emb._cache) == 1
    memlane.textcaches.forget_cached_text()
    assert len(emb._cache) == 0
    emb.embed_batch([f"{MARKER} said the vault code"])
    assert emb.misses == 2  # computed again, not served from a cache kept alive


def test_every_functools_cache_in_memlane_is_accounted_for() -> None:
    known = {**TEXT_CACHES, **NO_TEXT}
    unlisted = []
    for info in pkgutil.walk_packages(memlane.__path__, "memlane."):
        if info.name.startswith(("memlane.bench", "memlane.examples")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency this environment lacks
            continue
        for attr, value in vars(module).items():
            if getattr(value, "__module__", None) != info.name or not hasattr(value, "cache_clear"):
                continue
            listed = known.get(info.name, ())
            if attr not in listed and "*" not in listed:
                unlisted.append(f"{info.name}.{attr}")
    assert not unlisted, ("a functools cache neither in textcaches.TEXT_CACHES (cleared on "
                          f"erase) nor in NO_TEXT: {unlisted}")


@pytest.mark.parametrize("how", ["item", "fact"])
def test_forgetting_one_item_or_fact_empties_the_caches_of_its_text(
        tmp_path: Path, how: str) -> None:
    """``forget_item`` and ``forget_fact`` (the MCP ``forget`` tool, ``DELETE /v1/facts``,
    the inspector's forget) deleted the rows but left the erased words in the query LRU and
    the sentence caches: only ``forget_scope`` and ``forget_session`` emptied them."""
    mem = memory(tmp_path / "m.db")
    try:
        mem.add_message("alice", "user", f"I live in {MARKER} now. Thanks!",
                        at="2024-05-20T10:00:00Z")
        mem.close_session("alice")
        mem.index()
        hits = mem.search(f"where do I live, {MARKER}?", scope="alice")
        facts = mem.store.facts_for_items([h.item.id for h in hits])
        (fact,) = [f for f in facts.values() if f.object == MARKER]
        assert any(MARKER in q for q in mem.embeddings._lru)
        assert _caches()["memlane.index.cues.clean"].cache_info().currsize  # type: ignore[attr-defined]
        if how == "item":
            (turn,) = [h.item for h in hits if h.item.kind == "turn"]
            mem.forget_item(turn.id)
        else:
            mem.forget_fact(fact.id)
        assert not any(MARKER in q for q in mem.embeddings._lru), list(mem.embeddings._lru)
        left = {k: f.cache_info().currsize for k, f in _caches().items()}  # type: ignore[attr-defined]
        assert not any(left.values()), left
    finally:
        mem.close()


def test_delete_of_a_fact_over_http_empties_the_services_caches(tmp_path: Path) -> None:
    """``DELETE /v1/facts/{id}`` (``Client.forget_fact``) goes through ``Memory.forget_fact``:
    the service process keeps no query of the erased words."""
    from memlane.client import Client
    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing.http import serving

    mem = memory(tmp_path / "m.db")
    try:
        with serving(create_app(mem, worker=False)) as url, \
                Client(url, create_key(mem.store, ["*"]).key) as remote:
            remote.add_message("alice", "user", f"I live in {MARKER} now.",
                               at="2024-05-20T10:00:00Z")
            remote.close_session("alice")
            remote.index()
            assert remote.search(f"where do I live, {MARKER}?", scope="alice")
            assert any(MARKER in q for q in mem.embeddings._lru)
            (fact,) = [f for f in mem.facts("alice") if f.object == MARKER]
            remote.forget_fact(fact.id)
        assert not any(MARKER in q for q in mem.embeddings._lru), list(mem.embeddings._lru)
        assert not _caches()["memlane.index.cues.clean"].cache_info().currsize  # type: ignore[attr-defined]
    finally:
        mem.close()


@pytest.mark.parametrize("how", ["item", "fact"])
def test_forgetting_one_item_or_fact_deletes_the_embedding_cache_row_of_its_text(
        tmp_path: Path, how: str) -> None:
    """``forget_scope`` and ``forget_session`` delete the database's embedding cache rows
    (``embed_cache``: a vector by the text's hash) of the texts they erase; ``forget_item``
    and ``forget_fact`` left the erased text's vector in the file."""
    import sqlite3

    from memlane.index.embed import text_hash

    path = tmp_path / "m.db"
    mem = memory(path)
    try:
        mem.add_message("alice", "user", f"I live in {MARKER} now.", at="2024-05-20T10:00:00Z")
        mem.close_session("alice")
        mem.index()
        (fact,) = [f for f in mem.facts("alice") if f.object == MARKER]
        assert fact.item_id is not None
        text = mem.item(fact.item_id).text

        def rows() -> int:
            with sqlite3.connect(path) as db:
                return int(db.execute("SELECT count(*) FROM embed_cache WHERE hash = ?",
                                      (text_hash(text),)).fetchone()[0])

        assert rows() == 1
        if how == "item":
            mem.forget_item(fact.item_id)
        else:
            mem.forget_fact(fact.id)
        assert rows() == 0
        assert mem.stats()["messages"] == 1  # the conversation itself stays
    finally:
        mem.close()
