"""An import line whose id its scope holds, in a database that spells the scope as an older
memlane wrote it (``team\\u200b``, "café" in NFD, " team"), is judged as ``add_message``
judges it (session 35, fix35b): the same message is a skipped duplicate, another one is
refused naming ``id``. The importer's check after its batch looked the id up in the scope as
typed, found nothing there, and counted another message a skipped duplicate (exit 0)."""

from __future__ import annotations

import json
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.errors import ConflictError
from memlane.store import open_store
from memlane.testing import memory

# (the spelling an old database holds, the scope a line or a call types)
OLD = [("team\u200b", "team"), ("team\u2060", "team"), (" team", "team"), ("team ", "team"),
       (unicodedata.normalize("NFD", "café"), unicodedata.normalize("NFC", "café"))]
STORED = {"role": "user", "text": "the deploy key rotates monthly", "at": 1_700_000_000.0}


def _old_database(db: Path, stored: str) -> None:
    """One message under id d-1, written as a memlane before session 22 wrote it."""
    store = open_store(str(db))
    try:
        store.add_message(stored, STORED["role"], STORED["text"], STORED["at"], gap=3600.0,
                          speaker=None, ext_id="d-1", agent=None, project=None, redactions=0)
    finally:
        store.close()


@settings(max_examples=25, deadline=None)
@given(spelling=st.sampled_from(OLD), text=st.sampled_from([STORED["text"], "another text"]),
       role=st.sampled_from(["user", "assistant"]), late=st.sampled_from([0.0, 60.0]),
       padded=st.booleans())
def test_an_import_judges_an_id_as_add_message_does(spelling: tuple[str, str], text: str,
                                                      role: str, late: float,
                                                      padded: bool) -> None:
    stored, typed = spelling
    line = {"scope": typed, "role": role, "text": text, "at": STORED["at"] + late,
            "id": " d-1" if padded else "d-1"}
    same = (text, role, late) == (STORED["text"], STORED["role"], 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        dbs = [Path(tmp) / "import.db", Path(tmp) / "add.db"]
        for db in dbs:
            _old_database(db, stored)
        src = Path(tmp) / "in.jsonl"
        src.write_text(json.dumps(line) + "\n", encoding="utf-8")
        with memory(dbs[0]) as mem:
            report = mem.import_file(src)
            assert mem.stats()["messages"] == 1
        with memory(dbs[1]) as mem:
            if same:
                got = mem.add_message(typed, role, text, line["at"], id=line["id"])
                assert got.text == STORED["text"] and mem.last_already_stored == (True,)
            else:
                with pytest.raises(ConflictError) as e:
                    mem.add_message(typed, role, text, line["at"], id=line["id"])
                assert e.value.field == "id"
    if same:
        assert (report.skipped_duplicates, report.errors) == (1, ()), report
    else:
        assert report.skipped_duplicates == 0 and report.error_field == "id", report
        assert "d-1" in report.errors[0][1] and "another message" in report.errors[0][1]
