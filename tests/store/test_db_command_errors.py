"""`memlane migrate` / `copy` (and every command) on bad URLs, read-only and full databases:
one clear line naming the database (its password masked), exit 1, nothing half-written."""

from __future__ import annotations

import os
import shutil
import subprocess
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from memlane.errors import ConfigError, StoreError
from memlane.serve.cli import cli
from memlane.store import open_store, parse_db_url
from memlane.store.urls import public_url, scrub

# 127.0.0.1 port 1: nothing listens, so a connection is refused at once (no network)
CLOSED = "127.0.0.1:1"

COMMANDS = [
    ["migrate"], ["migrate", "--show", "--json"], ["migrate", "--json"],
    ["add", "hi", "--scope", "s"], ["search", "hi"],
]


def _run(args: list[str], env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, args, env=env)


_secret = st.text(alphabet="abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789",
                  min_size=6, max_size=16)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secret=_secret, where=st.sampled_from(["authority", "query"]),
       bad=st.sampled_from(["%zz", "%", "%4", "%g0"]), command=st.sampled_from(COMMANDS))
def test_a_password_libpq_cannot_read_is_never_printed(secret, where, bad, command):
    """libpq quotes the token it cannot decode ("invalid percent-encoded token: "…""), and
    with an unclosed '[' the whole URI: the password was printed in the error."""
    password = secret + bad
    url = (f"postgresql://bob:{password}@{CLOSED}/db" if where == "authority"
           else f"postgresql://bob@{CLOSED}/db?password={password}&sslmode=disable")
    out = _run(["--db", url, *command])
    assert out.exit_code == 1, out.output
    assert secret not in out.output
    assert "postgresql://bob@127.0.0.1:1/db" in out.output
    assert "Traceback" not in out.output


@pytest.mark.parametrize("url", [
    "postgresql://bob:hunter22@[::1/db",
    "postgresql://bob:hunter22@[::1",
    "postgres://bob:hunter22@[/db?sslmode=disable",
])
def test_an_unclosed_ipv6_bracket_is_one_line_not_a_traceback(url):
    """`public_url` called urllib's urlsplit, which raised ValueError('Invalid IPv6 URL'):
    a traceback, for every command."""
    for command in COMMANDS:
        out = _run(["--db", url, *command])
        assert out.exit_code == 1 and "Traceback" not in out.output, out.output
        assert "hunter22" not in out.output and "bob@[" in out.output


@pytest.mark.parametrize("url", [
    "postgresql://bob:p@Qx7kzz@127.0.0.1:1/db",
    "postgresql://b@b:Qx7kzz@127.0.0.1:1/db",
    "postgres://bob:a@Qx7kzz@c@127.0.0.1/db?sslmode=disable",
])
def test_an_unencoded_at_sign_in_the_password_is_refused(url):
    """libpq splits at the first '@': the password's tail became the host, and libpq
    printed it ("failed to resolve host 'Qx7kzz@127.0.0.1'") while the masked URL named
    127.0.0.1."""
    with pytest.raises(ConfigError, match="%40") as e:
        parse_db_url(url)
    assert "Qx7k" not in str(e.value)
    out = _run(["--db", url, "migrate"])
    assert out.exit_code == 1 and "%40" in out.output and "Qx7k" not in out.output


@given(user=st.text(min_size=1, max_size=8), password=st.text(min_size=1, max_size=12),
       host=st.sampled_from(["127.0.0.1", "[::1]", "db.example", "[::1", ""]),
       query=st.sampled_from(["", "?sslmode=disable", "?password={p}", "?a=1&password={p}#x"]))
@settings(max_examples=200, deadline=None)
def test_public_url_never_raises_and_never_shows_the_password(user, password, host, query):
    assume(password.strip("*"))  # a password of the mask's own stars is in any masked text
    p = quote(password, safe="")
    url = f"postgresql://{quote(user, safe='')}:{p}@{host}/db{query.format(p=p)}"
    shown = public_url(url)
    assert f":{p}@" not in shown and "password=" not in shown
    message = f'invalid percent-encoded token: "{p}" / "{password}"'
    assert p not in scrub(message, url) and password not in scrub(message, url)


# -- read-only and full databases -------------------------------------------------------

def _psql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        c.execute(sql)


def test_a_read_only_postgres_database_at_head_opens(pg_url, tmp_path):
    """Every open ran `CREATE TABLE IF NOT EXISTS schema_migrations` in a transaction even
    with nothing pending: a database with default_transaction_read_only (a replica, a role
    of SELECT only) could not be opened at all, `copy --from` it failed and `migrate` said
    "migration '0001_init' failed" of a database that had every migration."""
    pytest.importorskip("psycopg")
    src = tmp_path / "src.db"
    assert _run(["--db", str(src), "add", "I moved to Lisbon", "--scope", "alice"]).exit_code == 0
    assert _run(["copy", "--from", str(src), "--to", pg_url]).exit_code == 0
    name = pg_url.rsplit("/", 1)[1]
    _psql(pg_url, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    out = _run(["--db", pg_url, "migrate"])
    assert out.exit_code == 0 and "nothing (up to date)" in out.output, out.output
    back = tmp_path / "back.db"
    out = _run(["copy", "--from", pg_url, "--to", str(back)])
    assert out.exit_code == 0, out.output
    store = open_store(back)
    try:
        assert store.stats()["messages"] == 1
    finally:
        store.close()
    # a write says so, naming the database
    out = _run(["--db", pg_url, "add", "more", "--scope", "alice"])
    assert out.exit_code == 1 and "read-only" in out.output


def test_a_read_only_empty_postgres_database_names_itself(pg_url):
    name = pg_url.rsplit("/", 1)[1]
    _psql(pg_url, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    out = _run(["--db", pg_url, "migrate"])
    assert out.exit_code == 1
    assert f"migration '0001_init' of {public_url(pg_url)} failed" in out.output
    assert "read-only" in out.output


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1.5 MB tmpfs (root only; skipped elsewhere)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a tiny tmpfs needs root")
    where = tmp_path / "tiny"
    where.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1500k", "tmpfs", str(where)],
                          capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    yield where
    subprocess.run(["umount", str(where)], check=False)


def test_a_full_disk_names_the_file_and_writes_nothing(tmp_path, tiny_disk):
    """`memlane copy` into a full disk said "commit: database or disk is full", naming
    neither database; `add` the same."""
    import random

    from memlane.testing import memory

    src = tmp_path / "src.db"
    rnd = random.Random(7)
    m = memory(src)
    m.add_messages([{"scope": "s", "role": "user", "at": 1_700_000_000 + i,
                     "text": " ".join(f"w{rnd.randrange(10**6)}" for _ in range(80))}
                    for i in range(3000)])
    m.close()
    target = tiny_disk / "t.db"
    out = _run(["copy", "--from", str(src), "--to", str(target)])
    assert out.exit_code == 1, out.output
    assert str(target) in out.output and "disk is full" in out.output
    # nothing half-written: the target opens, empty
    store = open_store(target)
    try:
        assert store.stats()["messages"] == 0
    finally:
        store.close()
    # fill what is left and write: the error names the file
    try:
        with open(tiny_disk / "fill", "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    except OSError:
        pass  # full
    m = memory(target)
    try:
        with pytest.raises(StoreError) as e:  # the WAL's free pages fill first
            for i in range(400):
                m.add_message("s", "user", f"{i} " + "y" * 8000, 1_700_000_000 + i)
        assert str(target) in str(e.value) and "disk is full" in str(e.value)
    finally:
        m.close()


def test_a_role_that_may_not_create_pgvector_is_told_what_to_do(pg_url, tmp_path):
    """A database without pgvector, opened by a role that may not create it: the error said
    "migration '0001_init' failed: … permission denied to create extension "vector"",
    naming neither the database nor what to do."""
    name = pg_url.rsplit("/", 1)[1]
    role = f"plain_{os.getpid()}"
    _psql(pg_url, f"CREATE ROLE {role} LOGIN PASSWORD 'Zq8secretpw'")
    try:
        _psql(pg_url, f"GRANT CREATE ON SCHEMA public TO {role}")
        _psql(pg_url, f'GRANT CREATE ON DATABASE "{name}" TO {role}')
        server = pg_url.split("://", 1)[1].split("@", 1)[1].rsplit("/", 1)[0]
        url = f"postgresql://{role}:Zq8secretpw@{server}/{name}"
        src = tmp_path / "src.db"
        assert _run(["--db", str(src), "add", "hello", "--scope", "s"]).exit_code == 0
        for args in (["--db", url, "migrate"], ["copy", "--from", str(src), "--to", url]):
            out = _run(args)
            assert out.exit_code == 1, out.output
            assert f"postgresql://{role}@{server}/{name}" in out.output
            assert "CREATE EXTENSION vector" in out.output and "Zq8secretpw" not in out.output
    finally:
        _psql(pg_url, f'REVOKE ALL ON DATABASE "{name}" FROM {role}')
        _psql(pg_url, f"REVOKE ALL ON SCHEMA public FROM {role}")
        _psql(pg_url, f"DROP ROLE {role}")
