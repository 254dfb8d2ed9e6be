"""Session 26: PostgreSQL run as an application role that is not the owner of memlane's
tables (the database's owner migrates once; the service and workers run as a role granted
reading and writing), and roles missing a right. Before: a copy into such a database failed
after loading everything ("query failed: must be owner of table vectors": pgvector's graph is
built by CREATE INDEX, which only the owner may run) and so did every index run past 5,000
vectors; a role that may not read memlane's tables, or create them, got the driver's words
with neither the role, the database nor what to do."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime

import pytest

psycopg = pytest.importorskip("psycopg")

from click.testing import CliRunner  # noqa: E402

from memlane.errors import StoreError  # noqa: E402
from memlane.serve.cli import cli  # noqa: E402
from memlane.store import open_store  # noqa: E402
from memlane.store.postgres import search as pg_search  # noqa: E402
from memlane.testing import example_files, memory  # noqa: E402

SECRET = "Ap9secretpw"


def _psql(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as c:
        for sql in statements:
            c.execute(sql)


@pytest.fixture
def role(pg_url):
    """A login role of no rights; its URL (with a password) on the test database."""
    name = f"app_{os.getpid()}"
    _psql(pg_url, f"CREATE ROLE {name} LOGIN PASSWORD '{SECRET}'")
    server = pg_url.split("://", 1)[1].split("@", 1)[1]
    yield name, f"postgresql://{name}:{SECRET}@{server}"
    _psql(pg_url, f"DROP OWNED BY {name}", f"DROP ROLE {name}")


def _grant_read_write(pg_url: str, name: str) -> None:
    open_store(pg_url).close()  # the owner migrates
    _psql(pg_url, f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {name}",
          f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {name}")


def _source(path) -> None:
    m = memory(path)
    for f in example_files():
        m.import_file(f)
    m.index(now=datetime(2024, 6, 1, tzinfo=UTC))
    m.close()


def test_a_copy_and_an_index_run_as_a_role_that_does_not_own_vectors(
        pg_url, role, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(pg_search, "HNSW_ABOVE", 10)  # the graph is due at once
    name, url = role
    _grant_read_write(pg_url, name)
    src = tmp_path / "src.db"
    _source(src)
    with caplog.at_level(logging.WARNING, logger="memlane"):
        out = CliRunner().invoke(cli, ["copy", "--from", str(src), "--to", url])
    assert out.exit_code == 0, out.output
    want = open_store(src)
    got = open_store(url)
    try:
        assert got.stats()["messages"] == want.stats()["messages"] > 0
        assert got.stats()["vectors"] == want.stats()["vectors"]
    finally:
        want.close()
        got.close()
    said = caplog.text
    assert "vectors" in said and f"ALTER TABLE vectors OWNER TO {name}" in said, said
    assert SECRET not in said and SECRET not in out.output
    # searches scan exactly meanwhile, and an index run as that role completes
    m = memory(url)
    try:
        assert m.search("half marathon", k=3)
        m.add_message("alice-assistant", "user", "I ran the half marathon in 1:52",
                      "2024-07-01T10:00:00Z")
        m.index(now=datetime(2024, 8, 1, tzinfo=UTC))
        assert m.stats()["sessions_unindexed"] == 0
    finally:
        m.close()
    # the owner builds the graph (the warning's other way): the next run as the owner
    owner = memory(pg_url)
    try:
        assert owner.store.ensure_vector_index(owner.embeddings.model,
                                               owner.embeddings.embedder.dim)
    finally:
        owner.close()


def test_a_role_that_may_not_read_memlanes_tables_is_told_what_to_grant(pg_url, role):
    name, url = role
    open_store(pg_url).close()  # migrated by the owner; the role was granted nothing
    for args in (["stats"], ["migrate"], ["migrate", "--show"], ["migrate", "--json"]):
        out = CliRunner().invoke(cli, ["--db", url, *args])
        assert out.exit_code == 1
        assert f"role {name} may not read" in out.output, (args, out.output)
        assert (f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {name}"
                in out.output)
        assert url.replace(f":{SECRET}", "") in out.output and SECRET not in out.output
    with pytest.raises(StoreError, match=f"role {name} may not read"):
        open_store(url)


def test_a_role_that_may_not_create_memlanes_tables_is_told_what_to_grant(pg_url, role):
    name, url = role
    _psql(pg_url, "CREATE EXTENSION IF NOT EXISTS vector")  # pgvector is there: CREATE is not
    for args in (["--db", url, "migrate"], ["--db", url, "migrate", "--json"]):
        out = CliRunner().invoke(cli, args)
        assert out.exit_code == 1
        assert f"role {name} may not create memlane's tables in schema public" in out.output
        assert f"GRANT CREATE ON SCHEMA public TO {name}" in out.output, out.output
        assert "migration '0001_init' of postgresql://" in out.output
        assert out.output.count("0001_init") == 1 if "--json" not in args else True
        assert SECRET not in out.output
