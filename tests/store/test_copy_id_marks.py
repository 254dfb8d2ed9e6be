"""``memlane copy`` carries each table's largest id ever given: ids erased in the source
before the copy are never given to new rows of the copy (SQLite's ``id_floor`` and
PostgreSQL's sequences, both directions). Session 20, round 2: a copy into SQLite gave the
next session, message, item, fact or pack the id of one erased before the copy."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve.cli import cli
from memlane.serve.cli_db import register
from memlane.testing import HashingEmbedder


def _memory(db: str) -> Memory:
    return Memory(db, config=load_config(environ={}), embedder=HashingEmbedder(dim=64))


def _cli():  # type: ignore[no-untyped-def]
    group = copy.copy(cli)
    group.commands = dict(cli.commands)
    register(group)
    return group


def _erase_the_newest(mem: Memory) -> dict[str, int]:
    """A kept scope, then a newer one holding the newest row of every table, erased."""
    mem.add_message("kept", "user", "my dog is Rex", at="2024-01-01T10:00:00Z")
    mem.close_session("kept")
    mem.add_fact("user", "owns", "a dog", scope="kept")
    mem.pack("dog", scope="kept")
    msg = mem.add_message("gone", "user", "my cat is Miso", at="2024-01-02T10:00:00Z")
    mem.add_message("gone", "assistant", "Miso is a fine name", at="2024-01-02T10:01:00Z")
    mem.close_session("gone")
    mem.index(now="2024-02-01T00:00:00Z")
    item = mem.upsert("the cat likes tuna", scope="gone")
    fact = mem.add_fact("user", "owns", "a cat", scope="gone").fact_id
    pack = mem.pack("cat", scope="gone").id
    assert pack is not None
    erased = {"session": msg.session_id, "message": msg.id + 1, "item": item, "fact": fact,
              "pack": pack}
    mem.forget_scope("gone")
    return erased


def _new_ids(mem: Memory) -> dict[str, int]:
    msg = mem.add_message("new", "user", "hello", at="2024-03-01T10:00:00Z")
    pack = mem.pack("hello", scope="new").id
    assert pack is not None
    return {"session": msg.session_id, "message": msg.id, "item": mem.upsert("a note", scope="new"),
            "fact": mem.add_fact("user", "likes", "tea", scope="new").fact_id, "pack": pack}


@pytest.mark.parametrize("direction", ["sqlite-sqlite", "sqlite-postgres", "postgres-sqlite"])
def test_copy_never_gives_an_erased_id_again(direction: str, tmp_path: Path,
                                             request: pytest.FixtureRequest) -> None:
    src_kind, dst_kind = direction.split("-")
    if "postgres" in direction:
        pytest.importorskip("psycopg")
    url = {"sqlite": [str(tmp_path / "a.db"), str(tmp_path / "b.db")]}
    src = url["sqlite"][0] if src_kind == "sqlite" else request.getfixturevalue("pg_url")
    dst = url["sqlite"][1] if dst_kind == "sqlite" else request.getfixturevalue("pg_url")
    with _memory(src) as mem:
        erased = _erase_the_newest(mem)
    out = CliRunner().invoke(_cli(), ["copy", "--from", src, "--to", dst])
    assert out.exit_code == 0, out.output
    with _memory(dst) as mem:
        assert {s.scope for s in mem.sessions()} == {"kept"}
        new = _new_ids(mem)
    assert {k: new[k] > erased[k] for k in erased} == dict.fromkeys(erased, True), (new, erased)
