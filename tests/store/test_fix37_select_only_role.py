"""A PostgreSQL role granted SELECT only (session 37, fix37): its writes failed with
psycopg's ``InsufficientPrivilege``, which the store passed on as ``query failed:
permission denied for table …`` naming no database (the library, MCP's tools) and the
service answered 503 ``unavailable`` with a ``Retry-After`` (retrying changes nothing).
Now a denied write is ``StoreError.read_only`` saying what a read-only transaction says
(``store.postgres.db.READ_ONLY_TEXT``): the service answers 403 ``forbidden``, MCP's tool
says it, the CLI exits 1 naming the database; nothing is stored. A denied read stays the
driver's words (it is not a write refused)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from mcp import Client
from tests.pg_roles import reading_role
from tests.serve.test_mcp import talk

from memlane.errors import StoreError
from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.serve.mcp import build_server
from memlane.store.postgres.db import READ_ONLY_TEXT
from memlane.testing import memory
from memlane.testing.http import serving

psycopg = pytest.importorskip("psycopg")

SCOPE = "s"


@pytest.fixture
def reader(pg_url: str) -> Iterator[tuple[str, str, str]]:
    """``(owner's url, reader's url, a service key)``: a database holding one indexed
    session and a fact of scope ``s``, and a role granted SELECT on its tables, no more."""
    with memory(pg_url) as mem:
        mem.add_message(SCOPE, "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.close_session(SCOPE)
        mem.index("2024-06-01T00:00:00Z")
        mem.add_fact("user", "lives in", "Lisbon", scope=SCOPE)
        key = create_key(mem.store, SCOPE).key
    with reading_role(pg_url, "reader") as url:
        yield pg_url, url, key


def _held(url: str) -> dict[str, Any]:
    with memory(url) as mem:
        stats = mem.stats()
        return {"messages": stats["messages"], "facts": [f.object for f in mem.facts(scope=SCOPE)],
                "sessions": len(mem.sessions(scope=SCOPE))}


def test_the_library_says_read_only_and_stores_nothing(
        reader: tuple[str, str, str]) -> None:
    owner, url, _ = reader
    before = _held(owner)
    with memory(url) as mem:
        assert mem.store.read_only
        writes = {
            "add_message": lambda: mem.add_message(SCOPE, "user", "the tram was late"),
            "add_fact": lambda: mem.add_fact("user", "works at", "the port", scope=SCOPE),
            "forget_scope": lambda: mem.forget_scope(SCOPE),
            "forget_fact": lambda: mem.forget_fact(1),
            "forget_session": lambda: mem.forget_session(1),
            "upsert": lambda: mem.upsert("the build runs on Fridays", scope=SCOPE),
        }
        for name, write in writes.items():
            with pytest.raises(StoreError) as refused:
                write()
            assert refused.value.read_only and str(refused.value) == READ_ONLY_TEXT, (
                name, str(refused.value))
        assert mem.search("Lisbon", scope=SCOPE)  # reads still answer
    assert _held(owner) == before


def test_a_denied_read_is_not_called_read_only(reader: tuple[str, str, str]) -> None:
    owner, url, _ = reader
    role = url.partition("://")[2].split("@", 1)[0]
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(f'REVOKE SELECT ON facts FROM "{role}"')
    with memory(url) as mem, pytest.raises(StoreError) as refused:
        mem.facts(scope=SCOPE)
    assert not refused.value.read_only and "permission denied" in str(refused.value), (
        str(refused.value))


def test_the_service_answers_403(reader: tuple[str, str, str]) -> None:
    owner, url, key = reader
    before = _held(owner)
    message = {"scope": SCOPE, "role": "user", "text": "the tram was late"}
    with memory(url) as mem, serving(create_app(mem, worker=False)) as served, \
            httpx.Client(base_url=served, timeout=30.0,
                         headers={"Authorization": f"Bearer {key}"}) as http:
        for route, body in (("/v1/messages", message),
                            ("/actions", {"kind": "memory.add", "input": message})):
            res = http.post(route, json=body)
            assert res.status_code == 403, res.text
            error = res.json()["error"]
            assert error["code"] == "forbidden" and READ_ONLY_TEXT in error["message"], error
            assert "Retry-After" not in res.headers
        assert http.post("/v1/search", json={"query": "Lisbon", "scope": SCOPE}).json()["hits"]
    assert _held(owner) == before


def test_mcps_writing_tools_say_it(reader: tuple[str, str, str]) -> None:
    owner, url, _ = reader
    before = _held(owner)
    said: dict[str, tuple[bool, str]] = {}

    async def body(c: Client) -> None:
        for tool, args in (("remember", {"text": "the build runs on Fridays", "scope": SCOPE}),
                           ("forget", {"session_id": 1}), ("forget", {"fact_id": 1})):
            result = await c.call_tool(tool, args)
            said[f"{tool} {sorted(args)}"] = (
                result.is_error, "\n".join(x.text for x in result.content if x.type == "text"))

    with memory(url) as mem:
        talk(build_server(mem), body)
    for name, (error, text) in said.items():
        assert error and READ_ONLY_TEXT in text, (name, text)
    assert _held(owner) == before


def test_the_cli_refuses_naming_the_database(reader: tuple[str, str, str]) -> None:
    owner, url, _ = reader
    before = _held(owner)
    for args in (["add", "one more", "--scope", SCOPE], ["index"], ["facts", "forget", "1"]):
        got = CliRunner().invoke(cli, ["--db", url, "--json", *args])
        error = json.loads(got.stdout)["error"]
        assert got.exit_code == 1 and error["code"] == "forbidden", got.output
        assert error["message"].startswith("db: the PostgreSQL database is read-only for this "
                                           "connection"), error
        assert error["field"] == "--db", error
    assert _held(owner) == before
