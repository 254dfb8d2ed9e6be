"""One scope, one spelling (session 22): a scope, agent or project is stored in Unicode NFC,
and one holding an invisible format character (zero-width, bidi control, soft hyphen) is
refused naming the field. A database written before keeps its scopes reachable."""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane import Memory
from memlane.errors import ValidationError
from memlane.ingest.validate import FORMAT_CHARACTERS, canonical_scope, check_scope
from memlane.serve.keys import parse_scopes, scope_matches
from memlane.store import open_store
from memlane.testing import memory

NFC_CAFE = unicodedata.normalize("NFC", "café")
NFD_CAFE = unicodedata.normalize("NFD", "café")
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f",
             "\u202e", "\u2066", "\u2069", "\u061c", "\U000e0041"]


def test_the_format_class_is_unicodes_cf() -> None:
    cf = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    ours = {c for c in range(sys.maxunicode + 1) if FORMAT_CHARACTERS.match(chr(c))}
    assert cf <= ours
    # the rest are Cf in a later Unicode than this Python's (Egyptian format controls)
    assert all(unicodedata.category(chr(c)) == "Cn" for c in ours - cf)


labels = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Cf")),
                 min_size=1, max_size=40).filter(lambda s: s.strip())


@given(labels)
def test_every_spelling_of_a_scope_is_one_scope(s: str) -> None:
    forms = {unicodedata.normalize(f, s) for f in ("NFC", "NFD")}
    checked = {check_scope(f) for f in forms if len(f.strip()) <= 256}
    assert len(checked) <= 1
    for c in checked:
        assert unicodedata.is_normalized("NFC", c) and c == canonical_scope(c)
        assert all(scope_matches(f, c) and scope_matches(c, f) for f in forms)


@given(labels, st.sampled_from(INVISIBLE), st.integers(0, 40), st.sampled_from(["scope", "agent", "project"]))
def test_an_invisible_character_in_a_scope_is_refused_naming_it(
        s: str, ch: str, at: int, field: str) -> None:
    at = min(at, len(s))
    with pytest.raises(ValidationError) as e:
        check_scope(s[:at] + ch + s[at:] + "x", field)
    assert e.value.field == field and f"U+{ord(ch):04X}" in str(e.value)


@pytest.mark.parametrize("field", ["scope", "agent", "project"])
def test_memory_refuses_an_invisible_scope_agent_or_project(mem: Memory, field: str) -> None:
    kw: dict[str, Any] = {"scope": "team", field: "team\u200b"}
    with pytest.raises(ValidationError) as e:
        mem.add_message(role="user", text="hello", **kw)
    assert e.value.field == field
    with pytest.raises(ValidationError) as e:
        mem.upsert("a note", kind="note", **kw)
    assert e.value.field == field
    assert mem.stats()["messages"] == 0


def test_nfc_and_nfd_are_one_scope_one_session_one_search(mem: Memory) -> None:
    a = mem.add_message(NFD_CAFE, "user", "the espresso machine is broken", agent=NFD_CAFE)
    b = mem.add_message(NFC_CAFE, "user", "the grinder is fine", agent=NFC_CAFE)
    assert a.session_id == b.session_id and a.scope == b.scope == NFC_CAFE
    mem.close_session(NFD_CAFE)
    mem.index()
    for s in (NFC_CAFE, NFD_CAFE):
        hits = mem.search("espresso", scope=s, agent=s, kinds=["turn"])
        assert hits[0].item.text == "the espresso machine is broken"
        assert len(mem.sessions(scope=s)) == 1
    mem.add_fact("machine", "state", "broken", scope=NFD_CAFE)
    assert [f.scope for f in mem.facts(scope=NFC_CAFE)] == [NFC_CAFE]
    assert mem.forget_scope(NFD_CAFE).erased
    assert mem.stats()["messages"] == 0


def test_import_and_cli_take_one_spelling(tmp_path: Path, cli_run: Any) -> None:
    lines = [{"scope": NFD_CAFE, "role": "user", "text": "first", "at": "2026-01-01T10:00:00Z"},
             {"scope": NFC_CAFE, "role": "user", "text": "second", "at": "2026-01-01T10:01:00Z"}]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    cli_run("import", str(src))
    out = json.loads(cli_run("sessions", "list", "--scope", NFD_CAFE, "--json").output)
    rows = out if isinstance(out, list) else out.get("sessions", out)
    assert len(rows) == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**lines[0], "scope": "team\u202e"}) + "\n", encoding="utf-8")
    r = cli_run("import", str(bad), code=1)
    assert "scope" in r.output and "U+202E" in r.output
    r = cli_run("add", "--scope", "team\u200b", "hello", code=2)
    assert "scope" in r.output and "U+200B" in r.output


def _old_database(db: str) -> None:
    """Rows as a memlane before session 22 wrote them: scopes spelt as typed."""
    store = open_store(db)
    try:
        store.add_message(NFD_CAFE, "user", "the espresso machine is broken", 1_700_000_000.0,
                          gap=3600.0, speaker=None, ext_id=None, agent=None, project=None,
                          redactions=0)
        store.add_message("team\u200b", "user", "the deploy key rotates monthly", 1_700_000_000.0,
                          gap=3600.0, speaker=None, ext_id=None, agent=None, project=None,
                          redactions=0)
    finally:
        store.close()


@pytest.mark.parametrize("typed", [NFC_CAFE, NFD_CAFE])
def test_an_old_databases_scope_is_reached_in_either_spelling(db_url: str, typed: str) -> None:
    _old_database(db_url)
    m = memory(db_url)
    try:
        old = m.sessions(scope=typed)
        assert [s.scope for s in old] == [NFD_CAFE]
        # a new message joins the open session stored in the old spelling
        new = m.add_message(typed, "user", "the grinder is fine", at=1_700_000_060.0)
        assert new.session_id == old[0].id
        again = m.add_message("team", "user", "and the staging key weekly", at=1_700_000_060.0)
        (team,) = m.sessions(scope="team")  # its open session, spelt as stored
        assert again.session_id == team.id and team.scope == "team\u200b"
        assert m.close_session(typed) is not None and m.close_session("team") is not None
        m.index()
        hits = m.search("espresso", scope=typed, kinds=["turn"])
        assert hits[0].item.text == "the espresso machine is broken"
        assert m.search("deploy", scope="team", kinds=["turn"])[0].item.text == (
            "the deploy key rotates monthly")
        assert m.forget_scope(typed).erased and m.forget_scope("team").erased
        assert m.stats()["messages"] == 0
        assert m.add_message(typed, "user", "again", at=1_700_000_120.0).scope == NFC_CAFE
    finally:
        m.close()



def test_a_key_pattern_with_an_invisible_character_is_refused() -> None:
    with pytest.raises(ValidationError) as e:
        parse_scopes("alice,team\u200b-*")
    assert e.value.field == "scopes" and "U+200B" in str(e.value)
    assert parse_scopes([NFD_CAFE, " bob "]) == [NFC_CAFE, "bob"]


@settings(max_examples=15, deadline=None)
@given(label=labels)
def test_a_scope_written_in_one_form_is_read_in_the_other(tmp_path_factory: Any, label: str) -> None:
    nfd, nfc = (unicodedata.normalize(f, label).strip() for f in ("NFD", "NFC"))
    if not nfd or len(nfd) > 256:
        return
    m = memory(tmp_path_factory.mktemp("s") / "m.db")
    try:
        stored = m.add_message(nfd, "user", "the espresso machine is broken", agent=nfd)
        assert stored.scope == nfc
        (s,) = m.sessions(scope=nfc)
        assert s.id == stored.session_id and s.agent == nfc
        assert m.forget_scope(nfc).erased and m.stats()["messages"] == 0
    finally:
        m.close()


@given(st.text(st.sampled_from("éüñçåàÅÉ"), min_size=129, max_size=256))
def test_a_scope_is_measured_in_its_one_spelling(s: str) -> None:
    """NFD doubles these letters' length: the scope typed decomposed was refused (over 256
    characters) while the same scope typed composed was accepted."""
    nfd = unicodedata.normalize("NFD", s)
    assert len(nfd) > 256
    assert check_scope(nfd) == check_scope(s) == unicodedata.normalize("NFC", s)
    with pytest.raises(ValidationError, match="at most 256"):
        check_scope(s + "x" * (257 - len(s)))


def test_the_inspector_lists_an_old_databases_scope_to_a_key_holding_it(db_url: str) -> None:
    from memlane.serve.http.auth import Principal
    from memlane.serve.http.inspector.views import _visible

    _old_database(db_url)
    m = memory(db_url)
    try:
        for pattern in (NFC_CAFE, "caf*", "team"):
            who = Principal(1, "k", (pattern,), False)
            assert [s["sessions"] for s in _visible(m, who)] == [1], pattern
    finally:
        m.close()


def test_an_old_databases_export_is_imported_in_the_one_spelling(db_url: str, tmp_path: Path) -> None:
    """``memlane export`` wrote an old scope as stored (``team\\u200b``), which ``import``
    refuses: the export of an old database could be imported nowhere."""
    from memlane.serve.cli_export import export_lines

    _old_database(db_url)
    store = open_store(db_url)
    try:
        store.add_message("team\u200b", "user", "who has the key", 1_700_000_030.0, gap=3600.0,
                          speaker=None, ext_id=None, agent="ops\u200b", project="p\u00ad",
                          redactions=0)
    finally:
        store.close()
    m = memory(db_url)
    try:
        rows = list(export_lines(m))
    finally:
        m.close()
    assert sorted(r["scope"] for r in rows) == sorted([NFC_CAFE, "team", "team"])
    assert [(r.get("agent"), r.get("project")) for r in rows if "agent" in r] == [("ops", "p")]
    src = tmp_path / "export.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    other = memory(tmp_path / "other.db")
    try:
        report = other.import_file(src)
        assert report.errors == () and report.imported == 3
        assert [s.scope for s in other.sessions(scope="team")] == ["team"]
        assert [s.scope for s in other.sessions(scope=NFD_CAFE)] == [NFC_CAFE]
    finally:
        other.close()


def test_an_imported_session_label_starts_a_session_of_an_old_spelling(
        db_url: str, tmp_path: Path) -> None:
    """A line whose session label is new closes its scope's open session first; the open
    session was looked for in the new spelling, so the old ``team\\u200b`` one stayed open
    and the line joined it."""
    _old_database(db_url)
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"scope": "team", "role": "user", "text": "a new session",
                               "at": "2023-11-14T22:14:00Z", "session": "s2"}) + "\n",
                   encoding="utf-8")
    m = memory(db_url)
    try:
        assert m.import_file(src).imported == 1
        sessions = m.sessions(scope="team")
        assert sorted(s.status for s in sessions) == ["closed", "open"]
        assert {s.scope for s in sessions} == {"team\u200b"}
    finally:
        m.close()


def test_forget_session_of_an_old_spelling_leaves_new_messages_in_the_one_spelling(
        db_url: str) -> None:
    """``forget_session`` of an old spelling's last session kept the process's table of old
    spellings: the scope's next message was written as ``team\\u200b`` again."""
    _old_database(db_url)
    m = memory(db_url)
    try:
        (old,) = m.sessions(scope="team")
        assert old.scope == "team\u200b"
        assert m.forget_session(old.id).erased
        assert m.add_message("team", "user", "a fresh start", at=1_700_000_100.0).scope == "team"
        assert [s.scope for s in m.sessions(scope="team")] == ["team"]
    finally:
        m.close()


def test_the_inspectors_sessions_page_takes_a_scope_in_either_spelling(db_url: str) -> None:
    """The sessions page read the store with the scope as typed: ``café`` typed NFD over a
    new database, or NFC over an old one, listed no session; ``team\\u200b`` was not refused."""
    from memlane.serve.http.auth import Principal
    from memlane.serve.http.inspector.views import sessions_page

    _old_database(db_url)
    m = memory(db_url)
    try:
        m.add_message("caf\u00e9s", "user", "a new scope", at=1_700_000_060.0)
        who = Principal(1, "k", ("*",), False)
        for typed in (NFC_CAFE, unicodedata.normalize("NFD", "caf\u00e9s"), "team"):
            assert len(sessions_page(m, who, typed, None)["sessions"]) == 1, typed
        with pytest.raises(ValidationError) as e:
            sessions_page(m, who, "bob\u200b", None)
        assert e.value.field == "scope"
    finally:
        m.close()


def test_an_erase_erases_every_spelling_of_the_scope(db_url: str) -> None:
    """A database holding a scope in both spellings (written on a Mac and on Linux before
    session 22, or ``team`` and ``team\\u200b``): ``forget_scope`` erased the new spelling
    only, and no call could name the other, so half of the scope could not be erased."""
    _old_database(db_url)
    store = open_store(db_url)
    try:
        for scope in (NFC_CAFE, "team"):
            store.add_message(scope, "user", "written in the new spelling", 1_700_000_010.0,
                              gap=3600.0, speaker=None, ext_id=None, agent=None, project=None,
                              redactions=0)
    finally:
        store.close()
    m = memory(db_url)
    try:
        m.add_message("bob", "user", "another tenant", at=1_700_000_000.0)
        for typed, sessions in ((NFD_CAFE, 2), ("team", 2)):
            report = m.forget_scope(typed)
            assert report.counts["sessions"] == sessions and report.counts["messages"] == 2
        assert m.stats()["messages"] == 1
        assert m.add_message("team", "user", "again", at=1_700_000_120.0).scope == "team"
    finally:
        m.close()


def test_an_erase_during_a_build_of_the_old_spellings_is_not_overwritten(db_url: str) -> None:
    """A thread that read the store's scopes before an erase installed its table of old
    spellings after the erase's ``forget_spellings``: the stale table (``team`` ->
    ``team\\u200b``) outlived the erase, so the scope's next message was written in the old
    spelling again. Driven in that order with events: the read, then the erase, then the
    install."""
    import threading

    from memlane.ingest import spellings

    _old_database(db_url)
    m = memory(db_url)
    try:
        (old,) = m.sessions(scope="team")
        spellings.forget_spellings(m.store)  # the next call reads the store again
        read, go = threading.Event(), threading.Event()
        real = m.store.stored_scopes
        builder: list[threading.Thread] = []

        def pausing() -> list[str]:
            scopes = real()
            if threading.current_thread() in builder and not read.is_set():
                read.set()
                assert go.wait(30)
            return scopes

        m.store.stored_scopes = pausing  # type: ignore[method-assign]
        seen: list[str] = []
        builder.append(threading.Thread(target=lambda: seen.append(
            spellings.stored_scope(m.store, "team"))))
        builder[0].start()
        assert read.wait(30)  # the builder read the scopes, team\u200b among them
        assert m.forget_session(old.id).erased
        go.set()
        builder[0].join(30)
        assert seen == ["team"]  # read again after the erase
        assert m.add_message("team", "user", "a fresh start", at=1_700_000_100.0).scope == "team"
        assert [s.scope for s in m.sessions(scope="team")] == ["team"]
    finally:
        m.close()


@pytest.mark.parametrize("write", ["message", "batch", "upsert", "fact"])
def test_a_write_racing_an_erase_of_an_old_spelling_writes_the_one_spelling(
        db_url: str, write: str) -> None:
    """A writer looked ``team`` up as the old database spells it (``team\\u200b``), then
    waited on the scope while ``forget_scope`` erased it, and wrote after the erase: a new
    session (or item, or fact) of ``team\\u200b``, the old spelling back. Real threads on
    their own connections; the erase is held inside its transaction (after its locks)
    until the writer has reached its write."""
    import threading

    from memlane.config import load_config
    from memlane.testing import HashingEmbedder

    _old_database(db_url)
    held, go, writing = threading.Event(), threading.Event(), threading.Event()

    def hold_the_erase(kind: str, sql: Any = None, params: Any = None) -> None:
        if kind == "sql" and "DELETE FROM sessions" in str(sql) \
                and threading.current_thread().name == "eraser":
            held.set()
            assert go.wait(30)

    def writer_at_sql(kind: str, sql: Any = None, params: Any = None) -> None:
        if kind == "sql" and threading.current_thread().name == "writer":
            writing.set()

    cfg = load_config(environ={})
    eraser = Memory(db_url, config=cfg, tracer=hold_the_erase, embedder=HashingEmbedder(dim=64))
    writer = Memory(db_url, config=cfg, tracer=writer_at_sql, embedder=HashingEmbedder(dim=64))
    writes = {
        "message": lambda: writer.add_message("team", "user", "after the erase",
                                              at=1_700_000_060.0),
        "batch": lambda: writer.add_messages([{"scope": "team", "role": "user",
                                               "text": "after the erase",
                                               "at": 1_700_000_060.0}]),
        "upsert": lambda: writer.upsert("after the erase", scope="team", kind="note"),
        "fact": lambda: writer.add_fact("user", "likes", "tea after the erase", scope="team"),
    }
    try:
        assert [s.scope for s in writer.sessions(scope="team")] == ["team\u200b"]  # looked up
        done: list[Any] = []
        erase = threading.Thread(target=lambda: done.append(eraser.forget_scope("team")),
                                 name="eraser")
        erase.start()
        assert held.wait(30)   # the erase holds the scope's locks, its deletes not yet done
        writing_thread = threading.Thread(target=lambda: done.append(writes[write]()),
                                          name="writer")
        writing_thread.start()
        assert writing.wait(30)
        go.set()
        erase.join(30)
        writing_thread.join(30)
        assert not erase.is_alive() and not writing_thread.is_alive() and len(done) == 2, done
        assert "team\u200b" not in eraser.store.stored_scopes()
        assert "team" in eraser.store.stored_scopes()
        assert [s.scope for s in writer.sessions(scope="team")] in ([], ["team"])
    finally:
        go.set()
        eraser.close()
        writer.close()
