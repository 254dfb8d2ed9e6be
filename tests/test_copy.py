"""``memlane copy``: SQLite -> PostgreSQL -> SQLite loses nothing and searches the same."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("psycopg")

from memlane.config import load_config
from memlane.errors import StoreError
from memlane.memory import Memory
from memlane.serve.cli import cli
from memlane.serve.cli_db import register
from memlane.store import open_store
from memlane.store.copy import copy_store
from memlane.testing import HashingEmbedder, example_files, memory

QUERIES = [
    "what database did we choose for billing",
    "half marathon training plan",
    "my sister's name",
    "cat food",
    "vegetarian dinner",
]


def _cli():
    group = copy.copy(cli)
    group.commands = dict(cli.commands)
    register(group)
    return group


def _build_source(path) -> None:
    m = memory(path)
    for f in example_files():
        m.import_file(f)
    m.index(now=datetime(2024, 6, 1, tzinfo=UTC))
    # schema 3: a journaled pack, pins, a fact superseded by hand (with its events)
    m.pack("what database did we choose for billing", 300)
    m.add_fact("Zoe", "lives in", "Porto", scope="still-open", at="2024-05-01T00:00:00Z")
    m.add_fact("Zoe", "lives in", "Faro", scope="still-open", at="2024-05-02T00:00:00Z")
    m.upsert("keep this forever", scope="still-open", pinned=True, topics=["billing"])
    m.add_message("still-open", "user", "this session stays open", "2024-06-02T10:00:00Z",
                  speaker="Zoe", id="open-1")
    s = m.store
    with s.atomic():
        # a failed session with its reason, an item with every field and links
        s.restore_sessions([{
            "id": 1000, "scope": "failing", "agent": "a", "project": "p", "status": "failed",
            "started_at": 5.5, "ended_at": 6.5, "message_count": 0, "participants": [],
            "closed_reason": "idle", "failed_reason": "summarizer timed out",
            "summary_version": 2, "indexed_at": None, "created_at": 5.0, "attempts": 3,
            "next_attempt_at": 99.5, "lease_until": None, "summarized_at": None,
            "summary_model": None,
        }])
        turns = [it.id for it in s.session_items(1, "turn")]
        s.set_pinned(turns[0], True)
        (fact,) = s.insert_items([{
            "kind": "fact", "text": "Ana is vegetarian", "keys": "diet food", "at": 7.0,
            "scope": "alice-assistant", "agent": "a", "project": "p", "session_id": 1,
            "message_id": 1, "seq": 1, "role": "user", "keywords": ["diet"],
            "entities": ["Ana"], "source": "stated", "durability": "short", "lane": "profile",
            "trust": 0.9, "privacy": "project", "ttl_seconds": 3600, "parents": turns[:2],
            "dedupe_hash": "abc", "extra": {"why": ["stated"], "n": 1.5},
        }])
        s.put_vectors("other-model", [(fact, np.arange(8, dtype=np.float32) / 10)])
        s.bump("custom_counter", 42)
    m.close()


def _everything(store) -> dict:
    return {
        "sessions": list(store.iter_sessions()),
        "messages": list(store.iter_messages()),
        "items": list(store.iter_items()),
        "vectors": [(i, m, v.tolist()) for i, m, v in store.iter_vectors()],
        "cache": [(m, h, v.tolist()) for m, h, v in store.iter_cache()],
        "counters": store.counters(),
        "entities": list(store.iter_entities()),
        "facts": list(store.iter_facts()),
        "relations": list(store.iter_relations()),
        "fact_events": list(store.iter_fact_events()),
        "packs": list(store.iter_packs()),
        "pinned": list(store.iter_pinned()),
    }


def _rankings(mem: Memory) -> list[list[tuple[int, float]]]:
    return [[(h.item.id, h.score) for h in mem.search(q, k=5)] for q in QUERIES]


def _pg_memory(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides={}),
                  embedder=HashingEmbedder(dim=256, char_trigrams=True))


def test_sqlite_to_postgres_to_sqlite_loses_nothing(tmp_path, pg_url):
    first, back = tmp_path / "first.db", tmp_path / "back.db"
    _build_source(first)
    src = open_store(first)
    want = _everything(src)
    src.close()
    assert want["entities"] and want["facts"] and want["relations"]  # intelligence ran
    assert want["packs"] and len(want["pinned"]) == 2
    assert {"added", "superseded"} <= {e["kind"] for e in want["fact_events"]}

    out = CliRunner().invoke(_cli(), ["copy", "--from", str(first), "--to", pg_url])
    assert out.exit_code == 0, out.output
    assert (f"copied {len(want['sessions'])} session(s), {len(want['messages'])} message(s), "
            f"{len(want['items'])} item(s), {len(want['entities'])} entities, "
            f"{len(want['facts'])} fact(s), {len(want['relations'])} relation(s), "
            f"{len(want['vectors'])} vector(s)") in out.output
    pg, dst = open_store(pg_url), open_store(back)
    report = copy_store(pg, dst)
    pg.close()
    dst.close()
    assert (report.items, report.facts) == (len(want["items"]), len(want["facts"]))
    assert (report.fact_events, report.packs, report.pinned) == (
        len(want["fact_events"]), len(want["packs"]), 2)

    stores = [open_store(first), open_store(pg_url), open_store(back)]
    a, p, b = (_everything(s) for s in stores)
    for kind in a:
        assert want[kind] == a[kind] == p[kind] == b[kind], kind
    failed = stores[1].get_session(1000)
    assert (failed.status, failed.failed_reason, failed.summary_version) == (
        "failed", "summarizer timed out", 2)
    open_ = stores[1].list_sessions(scope="still-open")[0]
    assert open_.status == "open" and open_.participants == ("Zoe",)
    for s in stores:
        s.close()

    mems = [memory(first), _pg_memory(pg_url), memory(back)]
    try:
        ra, rp, rb = (_rankings(m) for m in mems)
        assert ra == rb  # SQLite and its round trip: identical
        # PostgreSQL's BM25 runs over its own tokens and stems (english snowball, not
        # porter): the same hits, in the same order up to near-ties (scores within 5%: the
        # expansion keys, which carry the previous turn's words, make ties common; a
        # near-tie at the cut-off may swap the last hit)
        for qa, qp in zip(ra, rp, strict=True):
            assert len(qa) == len(qp) and len({i for i, _ in qa} ^ {i for i, _ in qp}) <= 2, (qa, qp)
            for (ia, sa), (ip, sp) in zip(qa, qp, strict=True):
                assert ia == ip or sa == pytest.approx(sp, rel=0.05), (qa, qp)
        # the copy keeps working: a new message lands in the open session, new ids follow
        msg = mems[1].add_message("still-open", "assistant", "noted", "2024-06-02T10:01:00Z")
        assert msg.seq == 2 and msg.id > max(r["id"] for r in a["messages"])
        # ...and so do the new tables: history, pins and the pack journal came along
        for m in mems:
            history = m.fact_history("Zoe", "lives in", scope="still-open")
            assert [(h["object"], h["status"]) for h in history] == [
                ("Porto", "superseded"), ("Faro", "current")]
            assert [e["kind"] for e in history[0]["events"]] == ["added", "superseded"]
            assert [i.text for i in m.store.pinned_items("still-open")][-1] == "keep this forever"
            assert m.replay_pack(a["packs"][0]["id"])["text"] == a["packs"][0]["text"]
        pack = mems[1].pack("half marathon training plan", 200)
        assert pack.id > a["packs"][-1]["id"]
    finally:
        for m in mems:
            m.close()


def test_copy_refuses_a_non_empty_target_and_a_missing_source(tmp_path, pg_url):
    src = tmp_path / "src.db"
    _build_source(src)
    target = _pg_memory(pg_url)
    target.add_message("x", "user", "already here")
    before = target.stats()
    target.close()
    out = CliRunner().invoke(_cli(), ["copy", "--from", str(src), "--to", pg_url])
    assert out.exit_code == 1 and "is not empty" in out.output and "Traceback" not in out.output
    after = open_store(pg_url)
    assert after.stats()["messages"] == before["messages"] == 1
    source = open_store(src)
    with pytest.raises(StoreError, match="not empty"):
        copy_store(source, after)
    source.close()
    after.close()
    missing = CliRunner().invoke(_cli(), ["copy", "--from", str(tmp_path / "nope.db"),
                                          "--to", str(tmp_path / "new.db")])
    assert missing.exit_code == 1 and "does not exist" in missing.output
    assert not (tmp_path / "nope.db").exists()


def test_copy_carries_the_api_keys_so_every_client_key_still_works(tmp_path, pg_url):
    """Session 26: ``memlane copy`` left the API keys behind: after moving a memory to
    PostgreSQL every client's key got 401 and ``keys list`` said "no API keys (the service is
    open to loopback clients)". Keys travel with their ids, hashes, scopes, read-only flag,
    revocation and last use; a target holding a key is not empty."""
    from memlane.serve.keys import create_key, hash_key

    first, back = tmp_path / "first.db", tmp_path / "back.db"
    _build_source(first)
    src = open_store(first)
    writer = create_key(src, "alice,team-*", name="ops")
    reader = create_key(src, ["chat-*"], read_only=True)
    gone = create_key(src, "x")
    with src.atomic():
        src.revoke_api_key(gone.id, 1_700_000_000.5)
        src.touch_api_key(writer.id, 1_700_000_100.25)
    want = src.api_keys()
    src.close()

    out = CliRunner().invoke(_cli(), ["copy", "--from", str(first), "--to", pg_url])
    assert out.exit_code == 0, out.output
    assert "3 API key(s)" in out.output
    pg = open_store(pg_url)
    dst = open_store(back)
    assert copy_store(pg, dst).api_keys == 3
    for s in (pg, dst):
        assert s.api_keys() == want
        assert s.api_key_by_hash(hash_key(writer.key))["id"] == writer.id
        assert s.api_key_by_hash(hash_key(reader.key))["read_only"] is True
        assert s.api_key_by_hash(hash_key(gone.key)) is None  # still revoked
        with s.atomic():  # a key made on the copy takes a new id
            assert create_key(s, "y").id == gone.id + 1
    dst.close()
    # a database holding only a key is not empty: its key would collide with the copy's
    keys_only = tmp_path / "keys-only.db"
    k = open_store(keys_only)
    create_key(k, "z")
    k.close()
    out = CliRunner().invoke(_cli(), ["copy", "--from", pg_url, "--to", str(keys_only)])
    assert out.exit_code == 1 and "is not empty" in out.output and "1 API key" in out.output
    pg.close()


def _build_large_source(path, sessions: int = 60, turns: int = 40) -> None:
    """Enough rows that a copy into PostgreSQL takes seconds (its items most of them)."""
    from memlane.store.contract import NewMessage

    m = memory(path)
    t0 = datetime(2024, 1, 1, tzinfo=UTC).timestamp()
    rows = [NewMessage(f"scope-{s % 6}", "user" if i % 2 == 0 else "assistant",
                       f"turn {i} of session {s}: planning the trip to city {s * 7 % 13}",
                       t0 + s * 86_400 + i * 60, None, None, None, None, 0)
            for s in range(sessions) for i in range(turns)]
    m.store.add_messages(rows, gap=3_600)
    m.index(now=datetime(2025, 1, 1, tzinfo=UTC))
    m.close()


def test_ctrl_c_during_a_copy_into_postgres_leaves_it_empty_and_says_so(tmp_path, pg_url):
    """Session 26: Ctrl-C in the middle of ``memlane copy`` said only "Aborted!": nothing told
    the user whether the target was half-written. The copy is one transaction on the target:
    it says the target is as it was, and the same command then copies everything."""
    import os
    import signal
    import subprocess
    import sys
    import time

    import psycopg

    src = tmp_path / "src.db"
    _build_large_source(src)
    env = {**os.environ, "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    cmd = [sys.executable, "-m", "memlane.serve.cli", "copy", "--from", str(src), "--to", pg_url]
    proc = subprocess.Popen([*cmd, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env)
    try:
        with psycopg.connect(pg_url, autocommit=True) as watch:
            for _ in range(6000):  # until the copy's transaction has written (bounded: 5 min)
                if watch.execute("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                                 " current_database() AND backend_xid IS NOT NULL"
                                 " AND pid <> pg_backend_pid()").fetchone()[0]:
                    break
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.05)
            else:
                raise AssertionError("the copy wrote nothing in 5 minutes")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 1, err
    assert b"Traceback" not in err
    message = err.decode()
    assert "copy interrupted: nothing was written to postgresql://" in message, message
    assert json.loads(out)["error"]["code"] == "interrupted"
    target = open_store(pg_url)
    try:
        stats = target.stats()
        assert stats["messages"] == 0 and not stats["items"] and not stats["counters"]
    finally:
        target.close()
    again = subprocess.run(cmd, env=env, capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert b"copied 60 session(s), 2400 message(s)" in again.stdout


def test_stats_of_a_copy_read_as_the_sources_line_for_line(tmp_path, pg_url):
    """Session 26: `memlane stats` listed sessions by status and items by kind in the order
    PostgreSQL's GROUP BY happened to give ("open=1, closed=1" against SQLite's "closed=1,
    open=1"), so the two stores' stats of one memory differed line by line after a copy."""
    src = tmp_path / "src.db"
    _build_source(src)
    assert CliRunner().invoke(_cli(), ["copy", "--from", str(src), "--to", pg_url]).exit_code == 0
    a, p = open_store(src), open_store(pg_url)
    try:
        sa, sp = a.stats(), p.stats()
    finally:
        a.close()
        p.close()
    for key in ("sessions", "items", "vectors", "counters"):
        assert list(sa[key].items()) == list(sp[key].items()) == sorted(sa[key].items()), key


def test_a_live_stream_position_from_the_source_goes_on_or_resets_on_the_copy(tmp_path, pg_url):
    """Session 26: the change log (the live stream's ids) was not carried: the copy's own
    writes made a new log numbered from 1, so a client's ``Last-Event-ID`` from the source
    named another change on the copy. A client that had read the source's last change now
    goes on from there (the copy's own records come next, and leave its state the copy's);
    any other position of the source is refused with a reset (take a snapshot), never read
    as another change."""
    from memlane.serve import live

    src = tmp_path / "src.db"
    _build_source(src)

    def position(url):  # a client that had read everything: its id and state
        s = open_store(url)
        try:
            return s.last_change_id(), live.snapshot(s, "still-open")[1]
        finally:
            s.close()

    def goes_on_or_resets(url, head, seen):
        m = _pg_memory(str(url))
        try:
            polled = live.poll(m.store, "still-open", head)
            assert all(c.id > head for c in polled.changes)
            assert live.apply(seen, polled.changes) == live.snapshot(m.store, "still-open")[1]
            for stale in (0, 1, head - 1):
                with pytest.raises(live.ResetRequired):
                    live.poll(m.store, "still-open", stale)
            m.add_message("still-open", "user", "after the move", "2024-06-02T11:00:00Z")
            new = live.poll(m.store, "still-open", polled.cursor).changes
            assert new and all(c.id > polled.cursor for c in new), new
        finally:
            m.close()

    head, seen = position(src)
    assert head > 10
    assert CliRunner().invoke(_cli(), ["copy", "--from", str(src), "--to", pg_url]).exit_code == 0
    goes_on_or_resets(pg_url, head, seen)
    head, seen = position(pg_url)  # and on to SQLite
    pg, back = open_store(pg_url), open_store(tmp_path / "back.db")
    copy_store(pg, back)
    pg.close()
    back.close()
    goes_on_or_resets(tmp_path / "back.db", head, seen)

def test_a_postgres_source_written_during_the_copy_is_copied_as_of_its_start(tmp_path, pg_url):
    """Session 26: a copy of a PostgreSQL database others write to read each table as it
    was when it got there: messages of sessions it had not read, which the target refused
    ("FOREIGN KEY constraint failed"; every copy in a 40 s stress). It is read in one
    snapshot now: the copy is the source as of its start, and it succeeds."""
    import psycopg

    src = _pg_memory(pg_url)
    src.add_message("a", "user", "I moved to Lisbon in March", at="2024-05-01T10:00:00Z")
    src.close_session("a")
    src.index(now="2024-06-01T00:00:00Z")
    writer = _pg_memory(pg_url)
    wrote = []

    def write_meanwhile(kind: str, n: int) -> None:
        if kind == "sessions" and not wrote:  # after the sessions, before their messages
            wrote.append(writer.add_message("b", "user", "a message written during the copy"))

    target = open_store(tmp_path / "copy.db")
    report = copy_store(open_store(pg_url), target, progress=write_meanwhile)
    assert wrote and report.messages == 1 and report.sessions == 1
    assert [m["text"] for m in target.iter_messages()] == ["I moved to Lisbon in March"]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 2
    src.close()
    writer.close()
