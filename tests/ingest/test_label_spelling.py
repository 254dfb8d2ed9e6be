"""``agent`` and ``project`` labels an old database spells otherwise (session 22
follow-up): since session 22 they are stored in NFC, as scopes are; a database written
before may hold them decomposed (NFD, as a Mac types "Zoé"). A search filtering by the
label in either spelling finds those rows, on SQLite and PostgreSQL."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.store import open_store
from memlane.testing import memory

AGENT = "Zoé"
PROJECT = "café-app"


def _nfd(s: str) -> str:
    return unicodedata.normalize("NFD", s)


def _old_database(db: str, agent: str, project: str, text: str) -> None:
    """A message as a memlane before session 22 wrote it: labels spelt as typed."""
    store = open_store(db)
    try:
        store.add_message("labels", "user", text, 1_700_000_000.0, gap=3600.0, speaker=None,
                          ext_id=None, agent=agent, project=project, redactions=0)
    finally:
        store.close()


@pytest.mark.parametrize("typed", ["NFC", "NFD"])
def test_an_old_databases_decomposed_labels_are_found_by_either_spelling(db_url: str,
                                                                         typed: str) -> None:
    _old_database(db_url, _nfd(AGENT), _nfd(PROJECT), "the espresso machine is broken")
    m = memory(db_url)
    try:
        assert m.close_session("labels") is not None
        m.index()
        agent, project = (unicodedata.normalize(typed, x) for x in (AGENT, PROJECT))
        everything = m.search("espresso", scope="labels", kinds=["turn"])
        assert [h.item.agent for h in everything] == [_nfd(AGENT)]  # stored as it was
        for kw in ({"agent": agent}, {"project": project}, {"agent": agent, "project": project}):
            hits = m.search("espresso", scope="labels", kinds=["turn"], **kw)
            assert [h.item.text for h in hits] == ["the espresso machine is broken"], kw
        # another label still filters the row out
        assert m.search("espresso", scope="labels", kinds=["turn"], agent="Zoe") == []
    finally:
        m.close()


@settings(max_examples=15, deadline=None)
@given(label=st.text(st.characters(categories=("L", "M", "N"), exclude_characters="\x00"),
                     min_size=1, max_size=12))
def test_any_label_stored_decomposed_is_found_by_its_composed_spelling(tmp_path_factory,
                                                                       label: str) -> None:
    nfc = unicodedata.normalize("NFC", label)
    if not nfc.strip() or nfc != nfc.strip():
        return
    db = str(tmp_path_factory.mktemp("l") / "m.db")
    _old_database(db, _nfd(nfc), _nfd(nfc), "the kettle whistles loudly")
    m = memory(db)
    try:
        m.close_session("labels")
        m.index()
        hits = m.search("kettle", scope="labels", kinds=["turn"], agent=nfc, project=nfc)
        assert [h.item.text for h in hits] == ["the kettle whistles loudly"], repr(nfc)
    finally:
        m.close()
