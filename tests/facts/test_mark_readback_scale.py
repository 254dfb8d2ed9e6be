"""Session 33 (rev33): migration ``mark_subjects`` keys a scope's names once, not once a mark.

``read_back_marks`` gives an older forgotten fact's marks the subject as written; a mark
whose turns say no name of its key (a forgotten fact of the user, said "I ...": the key
``user`` is no word of the turn) is read back from the subjects and nodes of its scope.
Session 32 keyed every such name again for every such mark (``_fits``): 200 marks of a
scope of 2,000 nodes took 7.4 to 8.2 s CPU inside the migration's transaction, at the
first open of the database (``tools/mark_readback_names.py``), growing as marks x names.
The names are now keyed once a scope (``_names_by_key``), which must find what ``_fits``
finds.
"""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlane.store import rekey
from memlane.store.rekey import _fits, _keys_of, _names_by_key, read_back_marks
from memlane.testing import memory
from tests.facts.test_value_symbols import _with_symbol

_NAME = st.one_of(
    _with_symbol().flatmap(lambda c: st.sampled_from(c)),
    st.sampled_from(["I", "me", "The User.", "user", "José", "Jose", "C++ team", "C team",
                     "C# team", "AT&T", "AT T", "Zoë", "the team", "..."]),
    st.text(st.characters(exclude_characters="\x00"), min_size=1, max_size=10),
)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(_NAME, max_size=8), probe=_NAME)
@example(names=["C++ team", "C team", "C# team", "C++ team"], probe="C team")
@example(names=["I", "user", "me", "Zq"], probe="user")
def test_the_names_by_key_are_what_fits_finds(names: list[str], probe: str) -> None:
    """For the key of any name (today's or the one before session 31), the names a mark of
    that key is read back from are those ``_fits`` takes, each once."""
    index = _names_by_key(names)
    for key in {*index, *_keys_of(probe)}:
        assert sorted(index.get(key, [])) == sorted({n for n in names if _fits(n, key)}), key


def test_many_marks_of_a_scope_of_many_nodes_key_each_name_once(tmp_path: Any,
                                                                 monkeypatch: Any) -> None:
    """200 older marks (no turn to read: their scope's names are read) keyed ``c team`` in
    a scope of 2,000 nodes and the subject "C++ team": each mark is read back as
    "C++ team", and each of the scope's 2,001 names is keyed once, not once a mark (session
    32 keyed 400,000: 7 s CPU, which ``tools/mark_readback_names.py`` measures; no timing is
    asserted here, the count of keyings is)."""
    keyed: list[str] = []

    def counted(name: str) -> set[str]:
        keyed.append(name)
        return _keys_of(name)

    monkeypatch.setattr(rekey, "_keys_of", counted)
    mem = memory(str(tmp_path / "m.db"))
    s = mem.store
    try:
        mem.add_fact("C++ team", "lead", "Ana", scope="u")
        with s.atomic():
            for k in range(2000):
                s._run("INSERT INTO entities (scope, name, norm_name, type, context, mentions,"
                       " first_seen, last_seen) VALUES ('u', %s, %s, 'thing', '', 1, 0, 0)",
                       (f"Project Atlas {k}", f"project atlas {k}"))
            for i in range(200):  # a forgotten fact's mark as a memlane before session 31 left it
                s._run("INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object,"
                       " at) VALUES (%s, 'forgotten', 'u', 'c team', 'size', '', %s)",
                       (10**6 + i, 1.0e9 + i))
        with s.atomic():
            read_back_marks(s.db)
        got = s._run("SELECT subject, written_subject, count(*) FROM fact_events WHERE object = ''"
                     " GROUP BY subject, written_subject").fetchall()
        assert [tuple(r) for r in got] == [("c++ team", "C++ team", 200)]
        assert len(keyed) == len(set(keyed)) == 2001, (len(keyed), len(set(keyed)))
    finally:
        mem.close()
