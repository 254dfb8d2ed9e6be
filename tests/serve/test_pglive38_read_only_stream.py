"""The live state and stream read on a PostgreSQL database this connection may not write
(session 38, pglive38): a role granted SELECT only, and one whose transactions are
read-only (``default_transaction_read_only``, as a standby's are).

The live read numbered the change log before it read (``LOCK TABLE change_sequencer IN
EXCLUSIVE MODE`` and an ``UPDATE``): on such a connection the snapshot, each poll and each
inspector page failed, "permission denied" (the service's 503, which an ``EventSource``
retries for ever) or ``StoreError.read_only`` (a 403 "this request changes memory" on a
read). Now it reads up to the head a writer left; what was committed but not numbered yet
is in the state (``Snapshot.pending``) and is never sent again once a writer numbers it:
polls skip it, and no id is given to resume from until it is passed."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.pg_roles import reading_role

from memlane.memory import Memory
from memlane.serve import live
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")

SCOPE = "s"
T0 = 1_700_000_000


@pytest.fixture(params=["select-only", "read-only-transactions"])
def reader(pg_url: str, request: pytest.FixtureRequest) -> Iterator[tuple[str, str, str]]:
    """``(owner's url, reader's url, a service key of scope s)``: the reader is a role
    granted SELECT only, or one granted every write whose transactions are read-only."""
    with memory(pg_url) as mem:
        key = create_key(mem.store, SCOPE).key
    with reading_role(pg_url, "live",
                      read_only_transactions=request.param != "select-only") as url:
        yield pg_url, url, key


@contextmanager
def _served(owner: str, url: str, **client: Any) -> Iterator[tuple[Memory, httpx.Client]]:
    """The owner's ``Memory`` (the writer), and a client (``client``: its headers or
    cookies) of a service on 127.0.0.1, with no worker, over the reader's ``url``."""
    with memory(owner) as writer, memory(url) as mem, \
            serving(create_app(mem, worker=False)) as served, \
            httpx.Client(base_url=served, timeout=30.0, **client) as http:
        yield writer, http


def _unnumbered(owner: str) -> int:
    with psycopg.connect(owner) as conn:
        return int(conn.execute("SELECT count(*) FROM changes WHERE pos IS NULL").fetchone()[0])


def test_the_library_reads_up_to_the_head_and_never_sends_a_change_twice(
        reader: tuple[str, str, str]) -> None:
    owner, url, _ = reader
    with memory(owner) as writer, memory(url) as mem:
        writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
        numbered = writer.store.last_change_id()  # a writer's live read numbers the log
        late = writer.add_fact("user", "works at", "the port", scope=SCOPE).fact_id
        assert _unnumbered(owner) > 0

        head, state = live.snapshot(mem.store, SCOPE)  # failed before: it numbered first
        assert head == numbered and str(late) in state["facts"]
        assert not mem.store.numbers_changes
        snap = live.read_snapshot(mem.store, SCOPE)
        assert snap.head == numbered and str(late) in snap.state["facts"] and snap.pending
        # nothing numbered since: the poll has nothing, and no position to resume from
        quiet = live.poll(mem.store, SCOPE, snap.head, pending=snap.pending)
        assert quiet.changes == [] and quiet.cursor == numbered
        assert quiet.pending == snap.pending and quiet.resume_from is None

        after = writer.add_fact("user", "drives", "a tram", scope=SCOPE).fact_id
        writer.store.last_change_id()  # the late fact and this one are numbered now
        assert _unnumbered(owner) == 0
        got = live.poll(mem.store, SCOPE, quiet.cursor, pending=quiet.pending)
        # the late fact's changes (its item's and its own) are not sent again
        every = live.poll(writer.store, SCOPE, numbered).changes
        late_ids = set(writer.store.numbered_positions(snap.pending).values())
        assert got.changes == [c for c in every if c.id not in late_ids]
        paths = [p["path"] for c in got.changes for p in c.patch]
        assert f"/facts/{after}" in paths and f"/facts/{late}" not in paths, paths
        assert got.pending == frozenset() and got.resume_from is not None
        assert got.changes[0].id >= got.resume_from > numbered
        assert live.apply(snap.state, got.changes) == live.snapshot(writer.store, SCOPE)[1]
        # a fresh read holds nothing pending: its head is the writer's
        fresh = live.read_snapshot(mem.store, SCOPE)
        assert fresh.pending == frozenset() and fresh.head == got.cursor
        assert fresh.state == live.snapshot(writer.store, SCOPE)[1]


def _events(lines: Iterator[str], count: int) -> list[dict[str, str]]:
    """The next ``count`` events of an SSE body (comments and id-only events skipped)."""
    out: list[dict[str, str]] = []
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if "event" in event:
                out.append(event)
                if len(out) == count:
                    return out
            event = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            event[name] = value.strip()
    raise AssertionError(f"the stream ended after {out}")


def test_the_service_streams_the_state_and_its_changes_once(
        reader: tuple[str, str, str]) -> None:
    owner, url, key = reader
    with _served(owner, url, headers={"Authorization": f"Bearer {key}"}) as (writer, http):
        writer.add_message(SCOPE, "user", "I moved to Lisbon in March",
                           at="2024-03-02T10:00:00Z")
        numbered = writer.store.last_change_id()
        late = writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE).fact_id
        with http.stream("GET", "/state/memory", params={"scope": SCOPE}) as r:
            assert r.status_code == 200, r.read().decode()
            lines = r.iter_lines()
            (first,) = _events(lines, 1)
            assert first["event"] == "snapshot"
            assert str(late) in first["data"]
            # no position: resumed from its head, the late fact would come again (and an
            # empty id clears one a client kept from an earlier connection)
            assert first["id"] == ""
            after = writer.add_fact("user", "drives", "a tram", scope=SCOPE).fact_id
            writer.store.last_change_id()
            item, patch = _events(lines, 2)  # the new fact's item, then the fact
        assert item["event"] == patch["event"] == "patch"
        assert f'"/facts/{after}"' in patch["data"], patch
        assert f'"/facts/{late}"' not in item["data"] + patch["data"]
        assert numbered < int(item["id"]) < int(patch["id"])
        # resumed from that id, nothing is sent again; the owner's head is the reader's
        with http.stream("GET", "/state/memory", params={"scope": SCOPE},
                         headers={"Last-Event-ID": patch["id"]},
                         timeout=httpx.Timeout(30, read=2)) as r:
            assert r.status_code == 200
            with pytest.raises(httpx.ReadTimeout):
                _events(r.iter_lines(), 1)
        # a page of the inspector reads the head too (its data-live-head)
        with httpx.Client(base_url=http.base_url, timeout=30.0,
                          cookies={"memlane_key": key}) as browser:
            page = browser.get("/ui/", params={"scope": SCOPE})
        assert page.status_code == 200, page.text[:400]
        found = re.search(r'data-live-head="(\d+)"', page.text)
        assert found and int(found.group(1)) == writer.store.last_change_id()


def test_a_stream_opened_with_nothing_pending_gives_ids_at_once(
        reader: tuple[str, str, str]) -> None:
    owner, url, key = reader
    with _served(owner, url, headers={"Authorization": f"Bearer {key}"}) as (writer, http):
        writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
        head = writer.store.last_change_id()
        with http.stream("GET", "/state/memory", params={"scope": SCOPE}) as r:
            assert r.status_code == 200, r.read().decode()
            (first,) = _events(r.iter_lines(), 1)
        assert first["event"] == "snapshot" and first["id"] == str(head)
        assert '"Lisbon"' in first["data"]


def test_an_inspector_page_reads_the_head(reader: tuple[str, str, str]) -> None:
    """Every live page reads the change log's head first (``data-live-head``)."""
    owner, url, key = reader
    with _served(owner, url, cookies={"memlane_key": key}) as (writer, browser):
        writer.add_message(SCOPE, "user", "I moved to Lisbon in March",
                           at="2024-03-02T10:00:00Z")
        head = writer.store.last_change_id()
        writer.add_fact("user", "lives in", "Lisbon", scope=SCOPE)  # not numbered yet
        sid = writer.sessions(scope=SCOPE)[0].id
        for path in (f"/ui/?scope={SCOPE}", f"/ui/sessions/{sid}", f"/ui/facts?scope={SCOPE}"):
            page = browser.get(path)
            assert page.status_code == 200, (path, page.text[:400])
            found = re.search(r'data-live-head="(\d+)"', page.text)
            assert found and int(found.group(1)) == head, path


STEPS = st.lists(st.sampled_from(["fact", "message", "other", "number", "poll", "snapshot"]),
                 min_size=1, max_size=12)


@pytest.mark.parametrize("reader", ["select-only"], indirect=True)
def test_any_interleaving_sends_each_change_once_and_resumes_exactly(
        reader: tuple[str, str, str]) -> None:
    """Writes, a writer's numbering, the reader's polls and new snapshots in any order: a
    client that applies every poll to its snapshot holds a fresh snapshot's state in the
    end, no change id comes twice or out of order, and a client that resumes from the last
    id it was allowed to keep (``resume_from``) gets exactly what it missed."""
    owner, url, _ = reader
    examples = iter(range(10_000))
    with memory(owner) as writer, memory(url) as mem:

        @settings(max_examples=12, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(steps=STEPS)
        def run(steps: list[str]) -> None:
            scope = f"h{next(examples)}"
            n = 0
            snap = live.read_snapshot(mem.store, scope)
            state, cursor, pending = snap.state, snap.head, snap.pending
            delivered: list[int] = []
            held = set(pending)  # the snapshot's changes the log had not numbered
            kept: tuple[int, dict[str, Any]] | None = (
                None if pending else (snap.head, copy.deepcopy(state)))
            for step in [*steps, "number", "poll"]:
                n += 1
                if step == "fact":
                    writer.add_fact("user", "likes", f"thing {n}", scope=scope)
                elif step == "message":
                    writer.add_message(scope, "user", f"message {n}", at=T0 + n)
                elif step == "other":  # another scope's change, numbered among these
                    writer.add_fact("user", "likes", f"thing {n}", scope=f"{scope}-b")
                elif step == "number":
                    writer.store.last_change_id()
                elif step == "snapshot":
                    snap = live.read_snapshot(mem.store, scope)
                    state, cursor, pending = snap.state, snap.head, snap.pending
                    delivered, held = [], set(pending)
                    kept = None if pending else (snap.head, copy.deepcopy(state))
                else:
                    got = live.poll(mem.store, scope, cursor, pending=pending)
                    state = live.apply(state, got.changes)
                    delivered += [c.id for c in got.changes]
                    cursor, pending = got.cursor, got.pending
                    if got.resume_from is not None and got.changes \
                            and got.changes[-1].id >= got.resume_from:
                        kept = (got.changes[-1].id, copy.deepcopy(state))
            assert not pending
            assert delivered == sorted(set(delivered)), delivered
            sent_again = set(delivered) & set(mem.store.numbered_positions(held).values())
            assert not sent_again, (delivered, sent_again)
            fresh = live.snapshot(writer.store, scope)[1]
            assert state == fresh
            if kept is not None:  # a reconnect from the last id the stream gave
                again = live.poll(mem.store, scope, kept[0])
                assert live.apply(kept[1], again.changes) == fresh

        run()
