"""A pack that found nothing is journaled unless its scope holds nothing at all, whatever
spelling an older memlane stored the scope in (session 35, fix35b): the check asked the
scope's items with the stored spelling stripped, so a database holding " team" with notes
and no session took the pack for one over an empty scope and kept no journal row (and
the CLI said "scope 'team' has no memories" of it)."""

from __future__ import annotations

import sqlite3
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.serve.render import scope_is_empty
from memlane.testing import memory

# (the spelling an old database holds, the one memlane spells it in now)
OLD = [(" team", "team"), ("team ", "team"), ("  team\t", "team"), ("team\u200b", "team"),
       (unicodedata.normalize("NFD", "café"), unicodedata.normalize("NFC", "café")),
       ("team", "team")]


def _database(db: Path, stored: str, canonical: str, holds: str) -> None:
    """A scope holding a note (no session), a closed session, or nothing; respelt
    ``stored`` in every table, as a memlane before session 22 wrote it."""
    with memory(db) as m:
        if holds == "note":
            m.upsert("the deploy key rotates monthly", kind="note", scope=canonical)
        elif holds == "session":
            m.add_message(canonical, "user", "the deploy key rotates monthly", at=1.7e9)
            m.close_session(canonical)
        m.upsert("another scope's note", kind="note", scope="elsewhere")
    con = sqlite3.connect(db)
    with con:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            if "scope" in {r[1] for r in con.execute(f'PRAGMA table_info("{table}")')}:
                con.execute(f'UPDATE "{table}" SET scope = ? WHERE scope = ?', (stored, canonical))
    con.close()


@settings(max_examples=20, deadline=None)
@given(spelling=st.sampled_from(OLD), holds=st.sampled_from(["note", "session", "nothing"]))
def test_an_empty_pack_is_journaled_unless_its_scope_holds_nothing(spelling: tuple[str, str],
                                                                   holds: str) -> None:
    stored, canonical = spelling
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        _database(db, stored, canonical, holds)
        with memory(db) as mem:
            p = mem.pack("zebra giraffe", scope=canonical, include_recent=False)
            assert not p.entries
            held = holds != "nothing"
            assert (p.id is not None) is held, (stored, holds)
            assert len(mem.store.list_packs()) == int(held)
            assert scope_is_empty(mem, canonical) is not held
            assert scope_is_empty(mem, f" {canonical} ") is not held  # as the CLI passes it
