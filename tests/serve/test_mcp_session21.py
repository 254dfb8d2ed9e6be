"""The MCP server as a client meets it (session 21): resources outside the caller's scopes,
and facts listings past the store's page."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from memlane.testing import memory
from tests.serve.test_mcp import call, over_http, read, server, talk


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


@pytest.mark.parametrize("via", ["stdio --allow", "http key"])
def test_a_resource_outside_the_callers_scopes_is_invalid_params_naming_the_scope(
        request, tmp_path, via):
    """Over stdio a server limited to ``alice-*`` reads team-backend's resources; over HTTP
    a key of ``team-*`` reads alice-assistant's: each refusal is invalid params naming the
    scope, and a real session and a missing one answer alike."""
    answers: list = []
    if via == "stdio --allow":
        body = _refusals("team-backend", 999, 4)
        talk(server(tmp_path, request.getfixturevalue("db"), "--allow", "alice-*",
                    "--scope", "alice-assistant"), lambda c: body(c, answers))
        _check(answers, "team-backend")
    else:
        url, key, _ = request.getfixturevalue("service")
        body = _refusals("alice-assistant", 999, 1)
        over_http(url, key("team-*"), lambda c: body(c, answers))
        _check(answers, "alice-assistant")
    assert len(answers) == 3


def test_a_malformed_scope_in_a_resource_is_invalid_params(tmp_path, db):
    async def body(c: Client) -> None:
        with pytest.raises(MCPError) as refused:
            await read(c, "memlane://" + "x" * 300 + "/facts")
        assert refused.value.error.code == INVALID_PARAMS
        assert refused.value.error.message.startswith("scope:"), refused.value.error.message

    talk(server(tmp_path, db), body)


def _many_facts(path, n: int) -> list[int]:
    with memory(path) as mem:
        for i in range(n):
            mem.add_fact("user", f"trait {i:04d}", "v", scope="many", at="2024-01-01T00:00:00Z")
        return [f.id for f in mem.store.list_facts("many", limit=100_000)]


async def _follow_offsets(c: Client, tool: str, args: dict, id_pattern: str, seen: list[int],
                          heads: list[str]) -> None:
    """Call ``tool`` from offset 0 on, each time with the offset its last answer named
    (``call TOOL with offset N``), until an answer names none (at most 20 calls): the ids
    each answer shows go to ``seen``, its first line to ``heads``."""
    import re

    offset: int | None = 0
    while offset is not None:
        out = await call(c, tool, {**args, "offset": offset})
        heads.append(out.splitlines()[0])
        seen.extend(int(i) for i in re.findall(id_pattern, out, re.M))
        nxt = re.search(rf"call {tool} with offset (\d+)", out)
        offset = int(nxt.group(1)) if nxt else None
        assert len(heads) < 20


def test_every_fact_of_a_scope_past_1000_is_read_by_following_the_offsets(tmp_path):
    """``facts`` read the store's first 1,000 and said "1000 fact(s)": the rest were on no
    answer. Each answer now names the offset to read on from, and following them reads
    every fact once, in order; the resource says more follow and how to read them."""

    want = _many_facts(tmp_path / "many.db", 1100)
    seen: list[int] = []
    heads: list[str] = []

    async def body(c: Client) -> None:
        await _follow_offsets(c, "facts", {"scope": "many"}, r"^fact (\d+) ·", seen, heads)
        past = await call(c, "facts", {"scope": "many", "offset": 5000})
        assert past.startswith("no facts in scope many from offset 5000")
        resource = await read(c, "memlane://many/facts")
        assert "call the facts tool with offset" in resource

    talk(server(tmp_path, str(tmp_path / "many.db")), body)
    assert seen == want
    assert heads[0].startswith("facts 1-") and heads[0].endswith("more follow:")
    assert heads[-1].endswith(f"-{len(want)} in scope many, the last:")


def test_facts_over_http_say_where_the_next_page_starts(tmp_path):
    """``GET /v1/facts`` and ``facts.list`` answered the first 1,000 facts as if they were
    all; ``limit``/``offset`` page them and ``next_offset`` says where the next starts
    (null after the last). ``memlane.Client.facts`` takes both."""
    import httpx

    from memlane import Client
    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    want = _many_facts(tmp_path / "h.db", 1234)
    mem = memory(tmp_path / "h.db")
    try:
        with serving(create_app(mem, worker=False)) as url:
            first = httpx.get(f"{url}/v1/facts", params={"scope": "many"}, timeout=30).json()
            assert len(first["facts"]) == 1000 and first["next_offset"] == 1000
            rest = httpx.get(f"{url}/v1/facts", params={"scope": "many", "offset": 1000},
                             timeout=30).json()
            assert rest["next_offset"] is None
            assert [f["id"] for f in first["facts"] + rest["facts"]] == want
            exact = httpx.get(f"{url}/v1/facts", params={"scope": "many", "limit": 234,
                                                        "offset": 1000}, timeout=30).json()
            assert len(exact["facts"]) == 234 and exact["next_offset"] is None
            for bad in ({"limit": 0}, {"limit": 100_001}, {"offset": -1}):
                r = httpx.get(f"{url}/v1/facts", params={"scope": "many", **bad}, timeout=30)
                assert r.status_code == 422 and r.json()["error"]["field"] == next(iter(bad))
            got: list[int] = []
            with Client(url) as client:
                for offset in range(0, 1300, 500):
                    got += [f.id for f in client.facts("many", limit=500, offset=offset)]
            assert got == want
    finally:
        mem.close()


def test_the_sessions_tool_names_the_offset_of_older_sessions(tmp_path):
    """``sessions`` showed the newest 100 at most, with no way past them."""

    with memory(tmp_path / "s.db") as mem:
        for i in range(130):
            mem.add_message("busy", "user", f"hello {i}", at=f"2024-01-01T00:{i // 60:02d}:00Z")
            mem.close_session("busy")
        want = [s.id for s in mem.store.list_sessions(scope="busy", limit=1000)]
    seen: list[int] = []

    async def body(c: Client) -> None:
        await _follow_offsets(c, "sessions", {"scope": "busy", "limit": 100},
                              r"^session (\d+)\b", seen, [])
        assert (await call(c, "sessions", {"scope": "busy", "offset": 500})).startswith(
            "no sessions in scope busy from offset 500")

    talk(server(tmp_path, str(tmp_path / "s.db")), body)
    assert seen == want
