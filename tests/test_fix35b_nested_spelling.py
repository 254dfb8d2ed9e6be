"""A caller's own code running inside a memlane call (an embedder's ``embed_batch`` during
a search) that names an old spelling the database holds (``team\\u200b``) is admitted by
``params.validated``'s per-thread depth, where the same call at the top level is refused
(session 35, fix35b judged it, rev35 found it): it reaches exactly what the scope's one
spelling reaches, reading and writing nowhere else. This pins that judgement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memlane.config import load_config
from memlane.errors import ValidationError
from memlane.memory import Memory
from memlane.store import open_store
from memlane.testing import HashingEmbedder


class _Nosy(HashingEmbedder):
    """An embedder that, once, calls back into the memory it serves with ``team\\u200b``."""

    def __init__(self) -> None:
        super().__init__(dim=64)
        self.mem: Memory | None = None
        self.got: dict[str, Any] = {}

    def embed_batch(self, texts: list[str]) -> Any:
        if self.mem is not None and not self.got:
            self.got["busy"] = True
            mem, old = self.mem, "team\u200b"
            self.got["hits"] = [h.item.id for h in mem.search("deploy key", scope=old)]
            self.got["sessions"] = [s.id for s in mem.sessions(scope=old)]
            self.got["note"] = mem.upsert("a note from the embedder", kind="note", scope=old)
        return super().embed_batch(texts)


def test_a_nested_call_with_an_old_spelling_reaches_what_the_one_spelling_reaches(
        tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    store = open_store(str(db))
    store.add_message("team\u200b", "user", "the deploy key rotates monthly", 1.7e9, gap=3600.0,
                      speaker=None, ext_id=None, agent=None, project=None, redactions=0)
    store.close()
    nosy = _Nosy()
    with Memory(config=load_config(environ={}, overrides={"db": str(db)}), embedder=nosy) as mem:
        mem.close_session("team")
        mem.index()
        nosy.mem = mem
        mem.search("deploy", scope="team")
        nosy.mem = None
        assert nosy.got["hits"] == [h.item.id for h in mem.search("deploy key", scope="team")]
        assert nosy.got["hits"]
        assert nosy.got["sessions"] == [s.id for s in mem.sessions(scope="team")]
        plain = mem.upsert("a note at the top level", kind="note", scope="team")
        assert mem.item(nosy.got["note"]).scope == mem.item(plain).scope == "team\u200b"
        assert mem.store.stored_scopes() == ["team\u200b"]  # no other spelling written
        with pytest.raises(ValidationError) as e:  # the caller's own, at the top level
            mem.search("deploy", scope="team\u200b")
        assert e.value.field == "scope"
