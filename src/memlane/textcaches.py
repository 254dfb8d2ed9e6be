"""The process's caches that hold conversation text, and clearing them on erase.

An erase (``Memory.forget_scope``, ``forget_session``, ``forget_item``, ``forget_fact``, and
the CLI, HTTP and MCP erasures, which call them) deletes every row of what it erases; these
caches are outside the database but hold the same words: sentences the offline summariser read (``cues.clean``, ``cues.is_courtesy``),
texts the search's readers judged (``timeparse.says_when``, ``answerform``), phrases the
name finder read (``offline._name_of``), queries and their vectors (the query LRUs of
``index.embed.Embeddings`` and of the meaning tier), HyDE expansions, and the embedders'
vectors by text hash (``backends.embed``). ``forget_cached_text`` empties them all (session
22); they fill again as memlane works. ``TEXT_CACHES`` lists the module-level ones, and a
test checks that every ``functools`` cache in memlane is either listed or holds no
conversation text (``NO_TEXT``).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["NO_TEXT", "TEXT_CACHES", "forget_cached_text"]

# module -> functions cached by functools whose arguments or results are conversation text
TEXT_CACHES: dict[str, tuple[str, ...]] = {
    "memlane.index.cues": ("clean", "is_courtesy", "words_of"),
    "memlane.index.offline": ("_name_of",),
    "memlane.retrieve.timeparse": ("says_when",),
    "memlane.retrieve.answerform": ("_names", "tells_doing"),
}
# functools caches of other things: scope patterns, SQL, configuration, models
NO_TEXT: dict[str, tuple[str, ...]] = {
    "memlane.serve.keys": ("_pattern",),
    "memlane.store.sql.placeholders": ("*",),
    "memlane.ingest.redact": ("*",),
    "memlane.pack.tokens": ("*",),
    "memlane.serve.http.models": ("*",),
    "memlane.index.llm_intel": ("*",),
    "memlane.store.sqlite.db": ("_references_alone",),  # a count of the Python's references
}


def forget_cached_text(*holders: Any) -> None:
    """Empty every module-level cache of conversation text in this process, the embedders'
    vector caches, and the query caches of ``holders`` (objects with a ``_lru`` or a
    ``_cache``: an ``Embeddings``, a meaning tier, a HyDE expander). Modules not imported
    hold nothing and are left unimported; nor does a function another thread's import of
    its module has not defined yet (the module is in ``sys.modules`` from the start of its
    import: an erase while the worker first loaded the summariser failed with
    ``AttributeError: partially initialized module``, session 25)."""
    for name, functions in TEXT_CACHES.items():
        module = sys.modules.get(name)
        for f in functions:
            cached = getattr(module, f, None)
            if cached is not None:
                cached.cache_clear()
    embed = sys.modules.get("memlane.backends.embed")
    clear = getattr(embed, "clear_caches", None)
    if clear is not None:
        clear()
    meaning = sys.modules.get("memlane.retrieve.meaning")
    tiers = list(getattr(meaning, "_SHARED", {}).values()) if meaning is not None else []
    for holder in (*holders, *tiers):
        lock = getattr(holder, "_lock", None)
        for attr in ("_lru", "_cache"):
            cache = getattr(holder, attr, None)
            if isinstance(cache, dict):
                if lock is not None:
                    with lock:
                        cache.clear()
                else:
                    cache.clear()
