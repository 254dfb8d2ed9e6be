"""MCP's writing tools on a database this process may not write (session 36, fix36b):
fix36 made every write to such a database a ``StoreError.read_only``; MCP had no test of
it. ``remember``, ``forget`` (a fact, an item, a session) and ``summarize`` with ``store``
over the SDK's client, on a ``chmod 444`` file (for root, ``chattr +i``): a tool error
naming the database as read-only and saying nothing was written, the folder as it was; the
reading tools still answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client

from memlane.serve.mcp import build_server
from memlane.testing import memory
from tests.read_only_kit import digest, locked_copy
from tests.serve.test_mcp import talk

SCOPE = "alice-assistant"
WRITES = {
    "remember": {"text": "the build runs on Fridays", "scope": SCOPE},
    "forget fact": {"fact_id": 1},
    "forget item": {"item_id": 1},
    "forget session": {"session_id": 1},
    "summarize": {"scope": SCOPE, "store": True},
}


@pytest.fixture
def read_only(db: str, tmp_path: Path) -> Iterator[Path]:
    with locked_copy(Path(db), tmp_path / "ro" / "m.db") as path:
        yield path


def test_a_writing_tool_on_a_read_only_database_names_it(read_only: Path) -> None:
    before = digest(read_only.parent)
    said: dict[str, tuple[bool, str]] = {}

    async def body(c: Client) -> None:
        for name, args in WRITES.items():
            result = await c.call_tool(name.split()[0], args)
            said[name] = (result.is_error,
                          "\n".join(x.text for x in result.content if x.type == "text"))
        found = await c.call_tool("recall", {"query": "Lisbon", "scope": SCOPE})
        said["recall"] = (found.is_error, "")

    with memory(read_only) as mem:
        talk(build_server(mem), body)
    for name in WRITES:
        error, text = said[name]
        assert error, (name, text)
        assert f"db: {read_only} is read-only for this process" in text, (name, text)
        assert "nothing was" in text and "readonly database" not in text, (name, text)
    assert said["recall"] == (False, "")
    assert digest(read_only.parent) == before


def test_a_writing_tool_on_a_read_only_postgres_database_names_it(pg_url: str) -> None:
    """A standby or ``default_transaction_read_only`` (here): the same tool error."""
    psycopg = pytest.importorskip("psycopg")
    with memory(pg_url) as mem:
        mem.add_message(SCOPE, "user", "I moved to Lisbon in March", at="2024-03-02T10:00:00Z")
        mem.index("2024-06-01T00:00:00Z")
    name = pg_url.rsplit("/", 1)[1].split("?", 1)[0]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    said: dict[str, tuple[bool, str]] = {}

    async def body(c: Client) -> None:
        for tool, args in (("remember", WRITES["remember"]), ("forget", {"session_id": 1})):
            result = await c.call_tool(tool, args)
            said[tool] = (result.is_error,
                          "\n".join(x.text for x in result.content if x.type == "text"))

    with memory(pg_url) as mem:
        talk(build_server(mem), body)
        assert mem.stats()["messages"] == 1
    for tool, (error, text) in said.items():
        assert error and "db: the PostgreSQL database is read-only" in text, (tool, text)
        assert "nothing was" in text, (tool, text)
