"""API keys a process remembers (``serve.key_cache_seconds``): a revocation made by
another process is honoured once the cache time has passed, at once without a cache, and
never served from memory to a process that did not look the key up; on both stores."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

import httpx


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "keys.db")


def _revoke_elsewhere(db: str, key_id: int) -> None:
    """``memlane keys revoke`` in a process of its own."""
    done = subprocess.run([sys.executable, "-m", "memlane.serve.cli", "--db", db, "keys",
                           "revoke", str(key_id)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def _status(url: str, key: str) -> int:
    return httpx.get(url + "/v1/stats", headers={"Authorization": f"Bearer {key}"},
                     timeout=30.0).status_code


def test_a_revocation_elsewhere_takes_effect_once_the_cache_time_passed(db: str) -> None:
    mem = memory(db, serve={"key_cache_seconds": 0.5})
    try:
        made = create_key(mem.store, "*", name="ci")
        with serving(create_app(mem, worker=False)) as url:
            assert _status(url, made.key) == 200  # looked up, now remembered
            _revoke_elsewhere(db, made.id)
            deadline = time.monotonic() + 30
            while _status(url, made.key) == 200:
                assert time.monotonic() < deadline, "the revoked key is still accepted"
                time.sleep(0.05)
            assert _status(url, made.key) == 401
    finally:
        mem.close()


def test_without_a_cache_a_revocation_elsewhere_takes_effect_at_once(db: str) -> None:
    mem = memory(db, serve={"key_cache_seconds": 0})
    try:
        made = create_key(mem.store, "*", name="ci")
        with serving(create_app(mem, worker=False)) as url:
            assert _status(url, made.key) == 200
            _revoke_elsewhere(db, made.id)
            assert _status(url, made.key) == 401
    finally:
        mem.close()


def test_a_remembered_key_is_served_from_memory_and_only_where_it_was_looked_up(db: str) -> None:
    """Within the cache time the process that looked the key up accepts it without asking
    the database (revoked meanwhile); a process that never saw it refuses it; an unknown
    key is never remembered (a key created after a refusal works at once)."""
    mem = memory(db, serve={"key_cache_seconds": 3600})
    other = memory(db, serve={"key_cache_seconds": 3600})
    try:
        made = create_key(mem.store, "*", name="ci")
        with serving(create_app(mem, worker=False)) as url, \
                serving(create_app(other, worker=False)) as fresh:
            assert _status(url, made.key) == 200
            _revoke_elsewhere(db, made.id)
            assert _status(url, made.key) == 200  # remembered for up to key_cache_seconds
            assert _status(fresh, made.key) == 401
            assert _status(url, "ml_not_a_key") == 401
            newer = create_key(other.store, "*", name="later")
            assert _status(url, newer.key) == 200
    finally:
        other.close()
        mem.close()
