"""An index run's claim beside an erase that settles facts again (PostgreSQL; session 25,
second round: the deadlock seen once in three 20-second stresses of live messages, index
runs and ``forget_item``).

A late message leaves a summarized session unindexed (``indexed_at`` NULL) with its facts.
Two such sessions, R (Porto) before S (Lisbon, whose fact superseded R's). ``forget_item``
of a turn of S locks S's row, deletes S's facts (R's fact is set free: ``superseded_by``
NULL, an update of its row) and settles R's fact again (``resettle_facts``: a second
update of that row in the transaction, which makes PostgreSQL check its foreign keys: a
key-share lock on R's row). The index run's claim locked R's row, then waited for S's; its
``FOR UPDATE`` is stronger than a key share, so the erase waited for the claim, which
waited for the erase: "deadlock detected". The claim now locks its rows ``FOR NO KEY
UPDATE`` (what its update of ``indexed_at`` takes anyway): a foreign-key check passes it.

The test's own transaction holds S's new fact so that the erase waits with S locked, the
index run claims R and waits for S, then the transaction commits.
"""

from __future__ import annotations

import threading
import time

import pytest

from tests.pg_race import memlane_waiting, pg_memory

psycopg = pytest.importorskip("psycopg")


def _wait_for(url: str, n: int, threads: list[threading.Thread], errors: list[BaseException]) -> None:
    deadline = time.monotonic() + 60
    while memlane_waiting(url) < n:
        assert time.monotonic() < deadline, f"never {n} waiting"
        assert all(t.is_alive() for t in threads), errors
        time.sleep(0.05)


def test_an_index_claim_and_an_erase_settling_facts_both_finish(pg_url: str) -> None:
    with pg_memory(pg_url) as seed:
        for day, city in ((1, "Porto"), (2, "Lisbon")):
            seed.add_message("u", "user", f"I live in {city}", at=f"2024-05-0{day}T10:00:00Z")
            seed.add_message("u", "assistant", "ok", at=f"2024-05-0{day}T10:01:00Z")
            seed.close_session("u")
        seed.index(now="2024-06-01T00:00:00Z")
        for day in (1, 2):  # a late message into each: unindexed again, facts kept
            seed.add_message("u", "user", "nice", at=f"2024-05-0{day}T10:00:30Z")
        r, s = sorted(x.id for x in seed.sessions(scope="u"))
        turn = next(i for i in seed.store.session_items(s, "turn") if i.text == "ok")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM sessions WHERE scope = 'u'"
                            " AND indexed_at IS NULL").fetchone()[0] == 2
        porto, lisbon = (conn.execute(
            "SELECT id FROM facts WHERE session_id = %s", (sid,)).fetchone()[0] for sid in (r, s))
        assert conn.execute("SELECT superseded_by FROM facts WHERE id = %s",
                            (porto,)).fetchone()[0] == lisbon
    errors: list[BaseException] = []

    def run(job: object) -> None:
        try:
            job()  # type: ignore[operator]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    with pg_memory(pg_url) as eraser, pg_memory(pg_url) as indexer, psycopg.connect(pg_url) as gate:
        gate.execute("SELECT 1 FROM facts WHERE id = %s FOR UPDATE", (lisbon,))
        erase = threading.Thread(target=run, args=(lambda: eraser.forget_item(turn.id),),
                                 daemon=True)
        erase.start()
        _wait_for(pg_url, 1, [erase], errors)  # S locked, at S's fact
        index = threading.Thread(
            target=run, args=(lambda: indexer.index(now="2024-06-01T00:00:00Z"),), daemon=True)
        index.start()
        _wait_for(pg_url, 2, [erase, index], errors)  # R claimed, waiting for S
        gate.commit()
        for t in (erase, index):
            t.join(60)
            assert not t.is_alive()
    assert not errors, errors
    with pg_memory(pg_url) as mem:
        assert "ok" not in [m.text for m in mem.store.session_messages(s)]
        with psycopg.connect(pg_url, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM facts WHERE id = %s",
                                (lisbon,)).fetchone()[0] == 0
