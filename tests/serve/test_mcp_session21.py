"""The MCP server as a client meets it (session 21): resources outside the caller's scopes,
and facts listings past the store's page."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from memlane.testing import example_files, memory
from tests.serve.test_mcp import over_http, read, server, talk


@pytest.fixture
def db(tmp_path):
    """The two example conversations, indexed: sessions 1-3 in alice-assistant, 4-5 in
    team-backend (as tests/serve/test_mcp.py seeds them)."""
    path = tmp_path / "mcp.db"
    with memory(path) as mem:
        for f in example_files():
            mem.import_file(f)
        mem.index("2024-06-01T00:00:00Z")
    return str(path)


@pytest.fixture
def service(db):
    """``memlane serve``'s app on a real uvicorn on a free loopback port, over ``db``."""
    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing.http import serving

    mem = memory(db)
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield url, lambda scopes, **kw: create_key(mem.store, scopes, **kw).key, mem
    finally:
        mem.close()


def _refusals(scope: str, missing_session: int, real_session: int):
    """What reading the other scope's resources answers: (code, message, data) of each."""
    async def body(c: Client, out: list) -> None:
        for uri in (f"memlane://{scope}/facts", f"memlane://{scope}/sessions/{real_session}",
                    f"memlane://{scope}/sessions/{missing_session}"):
            with pytest.raises(MCPError) as refused:
                await read(c, uri)
            out.append((uri, refused.value.error.code, refused.value.error.message,
                        refused.value.error.data))
    return body


def _check(answers: list, scope: str) -> None:
    for uri, code, message, data in answers:
        # invalid params naming the scope (it was -32603, an internal error)
        assert code == INVALID_PARAMS, (uri, code, message)
        assert message.startswith(f"scope: forbidden: scope {scope!r} is outside the scopes"), message
        assert data == {"uri": uri, "scope": scope}
    # a session that exists there and one that exists nowhere answer alike: no leak
    assert answers[1][2] == answers[2][2]


def test_a_resource_outside_the_servers_scopes_is_invalid_params_naming_the_scope(tmp_path, db):
    answers: list = []
    body = _refusals("team-backend", 999, 4)
    talk(server(tmp_path, db, "--allow", "alice-*", "--scope", "alice-assistant"),
         lambda c: body(c, answers))
    _check(answers, "team-backend")


def test_a_resource_outside_the_keys_scopes_is_invalid_params_naming_the_scope(service):
    url, key, _ = service
    answers: list = []
    body = _refusals("alice-assistant", 999, 1)
    over_http(url, key("team-*"), lambda c: body(c, answers))
    _check(answers, "alice-assistant")


def test_a_malformed_scope_in_a_resource_is_invalid_params(tmp_path, db):
    async def body(c: Client) -> None:
        with pytest.raises(MCPError) as refused:
            await read(c, "memlane://" + "x" * 300 + "/facts")
        assert refused.value.error.code == INVALID_PARAMS
        assert refused.value.error.message.startswith("scope:"), refused.value.error.message

    talk(server(tmp_path, db), body)
