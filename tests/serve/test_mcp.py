"""``memlane mcp`` driven by the MCP SDK's own client: the server runs as a real subprocess
on a real SQLite file and speaks the protocol over its standard input and output."""

from __future__ import annotations

import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

import memlane
from memlane.testing import example_files, memory

TOOLS = {"remember", "recall", "context", "facts", "fact_history", "forget", "sessions",
         "session", "summarize"}
MEMLANE = str(Path(sys.executable).with_name("memlane"))
# the server subprocess runs the memlane these tests import (a worktree's source, not
# whatever the venv's editable install points at)
SOURCE = {"PYTHONPATH": str(Path(memlane.__file__).parents[1])}
LIMIT = 120  # seconds any one conversation with a server may take, start to finish


def server(tmp_path: Path, db: str, *args: str, env: dict[str, str] | None = None
           ) -> StdioServerParameters:
    return StdioServerParameters(
        command=MEMLANE, args=["--db", db, "mcp", "--no-worker", *args], cwd=str(tmp_path),
        env={"MEMLANE_EMBEDDING_BACKEND": "hashing", **SOURCE, **(env or {})})


def talk(params: Any, body: Callable[[Client], Awaitable[None]], mode: str = "auto") -> None:
    """Connect the SDK client to ``params`` and run ``body`` with it, bounded in time.

    ``mode`` "legacy" speaks the initialize handshake of the 2025 protocol versions (what
    most clients in use speak); "auto" lets the SDK negotiate its newest protocol."""
    async def main() -> None:
        with anyio.fail_after(LIMIT):
            async with Client(params, read_timeout_seconds=60, mode=mode) as client:
                await body(client)

    anyio.run(main)


async def call(client: Client, tool: str, args: dict[str, Any] | None = None, *,
               error: bool = False) -> str:
    result = await client.call_tool(tool, args or {})
    out = "\n".join(c.text for c in result.content if c.type == "text")
    assert result.is_error == error, out
    return out


async def read(client: Client, uri: str) -> str:
    result = await client.read_resource(uri)
    return "\n".join(c.text for c in result.contents)


async def exercise_every_tool(c: Client) -> None:
    """Every tool, both resource templates and the prompt, on scope alice-assistant (named in
    every call, so the same conversation runs over stdio and over HTTP)."""
    me = {"scope": "alice-assistant"}
    tools = (await c.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert len(t.description or "") > 60, t.name
        props = t.input_schema.get("properties", {})
        assert all(p.get("description") for p in props.values()), t.name

    facts = await call(c, "facts", me)
    assert "in scope alice-assistant" in facts and "user lives in Lisbon" in facts
    assert "fact 1 ·" in facts and "confidence" in facts
    hits = await call(c, "recall", {"query": "half marathon", "k": 3, **me})
    assert hits.startswith("3 hit(s) for 'half marathon' in scope alice-assistant")
    assert "why:" in hits and "matched: half, marathon" in hits
    explained = await call(c, "recall", {"query": "half marathon", "k": 1, "explain": True, **me})
    assert "ranks:" in explained and "contributes" in explained
    only = await call(c, "recall", {"query": "marathon", "kinds": ["fact"], **me})
    assert "· fact ·" in only and "· turn" not in only
    pack = await call(c, "context", {"question": "which race am I training for?",
                                     "budget": 200, **me})
    assert "marathon" in pack.lower() and "/200 tokens" in pack and "-- pack " in pack

    note = await call(c, "remember", {"text": "Alice prefers aisle seats on long flights",
                                      "kind": "preference", "pin": True,
                                      "ttl_seconds": 86400, "topics": ["travel"], **me})
    assert note.startswith("remembered preference as item ") and "pinned" in note
    note_id = int(note.split("item ")[1].split()[0])
    found = await call(c, "recall", {"query": "aisle seats", **me})
    assert f"item {note_id} · preference" in found
    secret = await call(c, "remember", {"text": "deploy key is sk-live-abcdefghijklmnop1234",
                                        **me})
    assert "secrets redacted" in secret
    msg = await call(c, "remember", {"text": "I am flying to Porto on the 3rd of July",
                                     "role": "user", "at": "2024-06-20T10:00:00Z", **me})
    assert msg.startswith("remembered message ") and "turn 1" in msg

    listed = await call(c, "sessions", {"limit": 5, **me})
    assert "session 6 · scope alice-assistant · open" in listed
    assert "session 1 · scope alice-assistant · summarized" in listed and "topic:" in listed
    whole = await call(c, "session", {"session_id": 1})
    assert "messages:" in whole and "just moved to Lisbon" in whole and "summary:" in whole
    assert "fact 1 · user lives in Lisbon" in whole

    summary = await call(c, "summarize", {"last": 1, **me})
    assert summary.startswith("closed session 6; summary of the last 1 message(s) stored")
    assert "Porto" in summary
    porto = await call(c, "recall", {"query": "flying to Porto", "kinds": ["turn"], **me})
    assert "session 6 turn 1" in porto

    history = await call(c, "fact_history", {"subject": "user", "predicate": "lives_in", **me})
    assert "user · lives_in" in history and "fact 1 · Lisbon · current" in history
    forgot = await call(c, "forget", {"fact_id": 1})
    assert "forgot fact 1 (user lives in Lisbon)" in forgot
    assert "lives_in" not in await call(c, "facts", {"subject": "user", **me})
    gone = await call(c, "forget", {"item_id": note_id})
    assert gone.startswith(f"forgot item {note_id} (preference: Alice prefers aisle")
    assert f"item {note_id} " not in await call(c, "recall", {"query": "aisle seats", **me})

    templates = {t.uri_template for t in (await c.list_resource_templates()).resource_templates}
    assert templates == {"memlane://{scope}/facts", "memlane://{scope}/sessions/{session_id}"}
    assert "user works at Feedzai" in await read(c, "memlane://alice-assistant/facts")
    shown = await read(c, "memlane://alice-assistant/sessions/2")
    assert shown.startswith("session 2 · scope alice-assistant") and "half marathon" in shown
    # another scope's session: over stdio (every scope reachable) it is named as such;
    # to a key holding alice-* only it is a missing one
    with pytest.raises(MCPError, match="session 4 (is not in scope 'alice-assistant'|does "
                                       "not exist)"):
        await read(c, "memlane://alice-assistant/sessions/4")

    assert [p.name for p in (await c.list_prompts()).prompts] == ["use-memory"]
    prompt = await c.get_prompt("use-memory", {"scope": "alice-notes"})  # reachable by alice-*
    words = prompt.messages[0].content.text
    assert "Use scope 'alice-notes'" in words and "`context`" in words and "`remember`" in words


def test_every_tool_resource_and_prompt_over_stdio(tmp_path, db):
    async def body(c: Client) -> None:
        assert "fact(s) in scope alice-assistant:" in await call(c, "facts")  # the default
        listed = [str(r.uri) for r in (await c.list_resources()).resources]
        assert listed == ["memlane://alice-assistant/facts"]
        assert "user's cat is Miso" in await read(c, listed[0])
        await exercise_every_tool(c)
        team = await read(c, "memlane://team-backend/facts")
        assert "in scope team-backend" in team and "Feedzai" not in team
        shown = await read(c, "memlane://team-backend/sessions/4")
        assert shown.startswith("session 4 · scope team-backend") and "messages:" in shown

    talk(server(tmp_path, db, "--scope", "alice-assistant"), body, mode="legacy")


BAD = [
    ("recall", {"query": "x", "k": 0}, "k: must be an integer from 1 to 50, got 0"),
    ("recall", {}, "query: Field required"),
    ("recall", {"query": "x", "since": "yesterday-ish"}, "since: 'yesterday-ish' is not an ISO"),
    ("recall", {"query": "x", "kinds": ["memo"]}, "kinds.0: Input should be 'turn'"),
    ("remember", {"text": "hi"}, "scope: required"),
    ("remember", {"text": "hi", "scope": "s", "role": "robot"}, "role: Input should be 'note'"),
    ("remember", {"text": "", "scope": "s"}, "text: String should have at least 1 character"),
    ("remember", {"text": "hi", "scope": "s", "at": "soon"}, "at: 'soon' is not an ISO-8601"),
    ("remember", {"text": "hi", "scope": "s", "role": "user", "ttl_seconds": 5},
     "ttl_seconds: only notes take it"),
    ("remember", {"text": "hi", "scope": " "}, "scope: must be a non-empty string"),
    ("context", {"question": "x", "budget": 3}, "budget: must be an integer from 16 to 1000000, got 3"),
    ("forget", {}, "fact_id: pass exactly one of fact_id, item_id or session_id"),
    ("forget", {"fact_id": 999}, "fact 999 does not exist"),
    ("forget", {"item_id": 999}, "item 999 does not exist"),
    ("session", {"session_id": "abc"}, "session_id: Input should be a valid integer"),
    ("session", {"session_id": 999}, "session 999 does not exist"),
    # ids past SQLite's int64 reached the store and crashed the call ("Error executing tool")
    ("forget", {"fact_id": 2**64}, "fact_id: must be an integer of at least 1 that 64 bits hold, got 18446744073709551616"),
    ("forget", {"item_id": 2**64}, "item_id: must be an integer of at least 1 that 64 bits hold, got 18446744073709551616"),
    ("session", {"session_id": 2**64}, "session_id: must be an integer of at least 1 that 64 bits hold, got 18446744073709551616"),
    # a JSON true/false for a number was read as 1/0 (a note expiring after one second)
    ("remember", {"text": "hi", "scope": "s", "ttl_seconds": True},
     "ttl_seconds: Input should be a number, not true or false"),
    ("recall", {"query": "x", "k": True}, "k: Input should be a number, not true or false"),
    ("context", {"question": "x", "budget": False}, "budget: Input should be a number"),
    ("sessions", {"limit": True}, "limit: Input should be a number"),
    ("session", {"session_id": True}, "session_id: Input should be a number"),
    ("forget", {"fact_id": True}, "fact_id: Input should be a number"),
    ("summarize", {"scope": "s", "last": True}, "last: Input should be a number"),
    ("summarize", {"scope": "nobody-here"}, "scope 'nobody-here' has no messages"),
    ("sessions", {"status": "sleeping"}, "status: Input should be 'open'"),
    ("fact_history", {"subject": "user"}, "predicate: Field required"),
    ("no_such_tool", {}, "no_such_tool"),
    # an argument a tool does not take was dropped without a word (a typo'd scope stored
    # the note in the default scope); every tool names it now
    ("remember", {"text": "hi", "scpoe": "s"}, "scpoe: not an argument of remember (it takes"),
    ("recall", {"query": "x", "limit": 5}, "limit: not an argument of recall"),
    *((tool, {"bogus_arg": 1}, f"bogus_arg: not an argument of {tool}") for tool in sorted(TOOLS)),
]


def test_bad_arguments_are_tool_errors_naming_the_field(tmp_path, db):
    async def body(c: Client) -> None:
        for tool, args, needle in BAD:
            out = await call(c, tool, args, error=True)
            assert needle in out, (tool, args, out)
        for sid in ("²", "abc", str(2**64)):  # '²'.isdigit(), but int('²') fails
            with pytest.raises(MCPError, match="session_id: must be") as bad:
                await read(c, f"memlane://alice-assistant/sessions/{sid}")
            assert bad.value.code == INVALID_PARAMS  # as a session that does not exist
        with pytest.raises(MCPError, match="session 99 does not exist") as missing:
            await read(c, "memlane://alice-assistant/sessions/99")
        assert missing.value.code == INVALID_PARAMS
        # the server is still up and nothing was half-written
        assert "user lives in Lisbon" in await call(c, "facts", {"scope": "alice-assistant"})
        assert "no sessions in scope s" in await call(c, "sessions", {"scope": "s"})

    talk(server(tmp_path, db), body)


def test_a_server_limited_to_some_scopes_cannot_reach_others(tmp_path, db):
    with memory(db) as mem:
        team_item = mem.upsert("The billing service owns the invoices table", scope="team-backend")

    async def body(c: Client) -> None:
        assert "in scope alice-assistant" in await call(c, "facts")
        for tool, args in [("recall", {"query": "billing", "scope": "team-backend"}),
                           ("facts", {"scope": "team-backend"}),
                           ("context", {"question": "billing", "scope": "team-backend"}),
                           ("sessions", {"scope": "team-backend"}),
                           ("remember", {"text": "x", "scope": "team-backend"}),
                           ("summarize", {"scope": "team-backend"})]:
            assert "scope: forbidden: scope 'team-backend' is outside" in await call(
                c, tool, args, error=True), tool
        # another scope's objects by id are missing ones: nothing says they exist, or where
        # (it was 'session_id: forbidden: scope 'team-backend' is outside ...')
        for tool, args, said in [("session", {"session_id": 4}, "session 4 does not exist"),
                                 ("forget", {"item_id": team_item},
                                  f"item {team_item} does not exist"),
                                 ("forget", {"session_id": 4}, "session 4 does not exist")]:
            out = await call(c, tool, args, error=True)
            assert said in out and "team-backend" not in out, out
        with pytest.raises(MCPError, match="session 4 does not exist"):
            await read(c, "memlane://alice-assistant/sessions/4")
        with pytest.raises(MCPError, match="forbidden"):
            await read(c, "memlane://team-backend/facts")
        with pytest.raises(MCPError, match="forbidden"):
            await read(c, "memlane://team-backend/sessions/4")
        hits = await call(c, "recall", {"query": "billing invoices", "k": 20})
        assert "team-backend" not in hits

    talk(server(tmp_path, db, "--allow", "alice-*", "--scope", "alice-assistant"), body)
    with memory(db) as mem:
        assert mem.item(team_item).text.startswith("The billing service")


def test_read_only_and_default_scope_from_the_environment(tmp_path, db):
    async def body(c: Client) -> None:
        assert "in scope team-backend" in await call(c, "sessions")
        refused = await call(c, "remember", {"text": "x"}, error=True)
        assert "forbidden: this server is read-only" in refused
        assert "read-only" in await call(c, "forget", {"fact_id": 2}, error=True)
        assert "read-only" in await call(c, "summarize", {}, error=True)
        assert "preview only, nothing stored" in await call(c, "summarize", {"store": False})

    talk(server(tmp_path, db, "--read-only", env={"MEMLANE_SCOPE": "team-backend"}), body)
    with memory(db) as mem:
        assert mem.store.get_fact(2).object == "Feedzai"
        assert not any(i.extra.get("on_demand") for i in mem.store.session_items(5))


def test_a_read_only_refusal_names_what_a_read_only_server_still_takes(tmp_path, db):
    """The refusal said "remember, forget and summarize are refused", so an agent told so
    never tried ``summarize`` with ``store`` false, the preview a read-only server runs
    (docs/mcp.md: the writing tools are ``remember``, ``forget``, ``summarize`` with
    ``store``). Every refusal names the way that is still open, and that way is open."""
    async def body(c: Client) -> None:
        for tool, args in (("remember", {"text": "x"}), ("forget", {"fact_id": 2}),
                           ("summarize", {}), ("summarize", {"store": True})):
            refused = await call(c, tool, args, error=True)
            assert refused.endswith("forbidden: this server is read-only (remember, forget and "
                                    "summarize with store true are refused; summarize with "
                                    "store false previews)"), refused
        assert "preview only, nothing stored" in await call(c, "summarize", {"store": False})

    talk(server(tmp_path, db, "--read-only", env={"MEMLANE_SCOPE": "team-backend"}), body)


def test_patterns_without_a_default_scope_need_a_scope(tmp_path, db):
    async def body(c: Client) -> None:
        assert "scope: required: only some scopes may be reached here" in await call(
            c, "recall", {"query": "billing"}, error=True)
        assert "2 session(s) in scope team-backend" in await call(
            c, "sessions", {"scope": "team-backend"})

    talk(server(tmp_path, db, env={"MEMLANE_MCP_ALLOWED_SCOPES": "team-*"}), body)


def test_build_server_takes_a_callable_guard(db):
    """The library entry point, in process: a scope guard as a plain function."""
    from memlane.serve.mcp import ScopePatterns, as_access, build_server

    assert as_access(["team-*"]) == ScopePatterns(("team-*",))
    assert as_access(None) is None and as_access(None, read_only=True).read_only
    assert ScopePatterns(("*",)).allows(None) and not ScopePatterns(("a*",)).allows(None)
    with memory(db) as mem:
        srv = build_server(mem, scopes=lambda scope: scope.startswith("alice"))

        async def body(c: Client) -> None:
            assert "user lives in Lisbon" in await call(c, "facts", {"scope": "alice-assistant"})
            assert "forbidden" in await call(c, "facts", {"scope": "team-backend"}, error=True)
            assert "scope: required" in await call(c, "facts", {}, error=True)

        talk(srv, body)


def test_read_only_holds_whatever_form_the_scopes_take(db):
    """docs/mcp.md: ``scopes`` is patterns, a callable or any object with ``allows`` and
    ``read_only``. ``build_server(mem, scopes=obj, read_only=True)`` with such an object
    (one whose own ``read_only`` is false) served the writing tools: the object was taken
    as it was and ``read_only`` dropped. Every form, with ``read_only``, refuses every
    write, reaches what it reached, and stores nothing."""
    from memlane.serve.http.auth import Principal
    from memlane.serve.mcp import build_server

    class Tenant:
        read_only = False

        def allows(self, scope: str | None) -> bool:
            return scope is not None and scope.startswith("team-")

    forms: list[Any] = [["team-*"], lambda scope: scope.startswith("team-"), Tenant(),
                        Principal(key_id=1, name="ci", scopes=("team-*",), read_only=False)]
    with memory(db) as mem:
        before = mem.stats()["items"]
        for scopes in forms:
            srv = build_server(mem, default_scope="team-backend", scopes=scopes, read_only=True)

            async def body(c: Client) -> None:
                for tool, args in (("remember", {"text": "x"}), ("forget", {"session_id": 4}),
                                   ("summarize", {})):
                    assert "is read-only" in await call(c, tool, args, error=True), scopes
                assert "2 session(s) in scope team-backend" in await call(c, "sessions")
                assert "forbidden" in await call(c, "facts", {"scope": "alice"}, error=True)

            talk(srv, body)
        assert mem.stats()["items"] == before
        assert mem.session(4).scope == "team-backend"


@pytest.mark.parametrize("scopes", [[], (), [""], ["team-*", "  "], ["team-*", None], "", " ",
                                    5, b"team-*"])
def test_an_empty_list_of_scopes_is_refused_not_taken_for_every_scope(db, scopes):
    """``build_server(mem, scopes=[])`` reached every scope (an empty list was read as
    ``*``): an application passing a tenant's grants, computed as none, served that tenant
    everything. An empty list, a blank pattern or a value of no form ``scopes`` takes
    (``5`` raised a bare ``TypeError``) is refused naming ``scopes``; ``None`` is every
    scope, as docs/mcp.md says."""
    from memlane.errors import ValidationError
    from memlane.serve.mcp import build_server

    with memory(db) as mem:
        with pytest.raises(ValidationError, match=r"^scopes(\.\d)?: ") as refused:
            build_server(mem, scopes=scopes)
        assert refused.value.field.startswith("scopes")
        build_server(mem, scopes=None)


def test_bad_options_exit_with_a_clear_line(tmp_path, db):
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    result = CliRunner().invoke(cli, ["--db", db, "mcp", "--allow", "team-*", "--scope", "alice"])
    assert result.exit_code == 1 and "default_scope: 'alice' is outside" in result.output


# -- streamable HTTP: the same server inside `memlane serve`, behind its API keys -------------

def over_http(url: str, key: str | None, body: Callable[[Client], Awaitable[None]],
              mode: str = "auto") -> None:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    async def main() -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        with anyio.fail_after(LIMIT):
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
                transport = streamable_http_client(f"{url}/mcp", http_client=http)
                async with Client(transport, read_timeout_seconds=60, mode=mode) as client:
                    await body(client)

    anyio.run(main)


def test_every_tool_over_streamable_http_with_a_scoped_key(service):
    url, key, _ = service
    over_http(url, key("alice-*"), exercise_every_tool, mode="legacy")


def test_http_needs_a_valid_key(service):
    import httpx

    url, key, _ = service
    key("*")
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    for headers in ({}, {"Authorization": "Bearer not-a-key"}):
        r = httpx.post(f"{url}/mcp", json=hello, headers=headers, timeout=30)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"

    async def never(c: Client) -> None:
        raise AssertionError("connected without a key")

    def leaves(e: BaseException) -> list[BaseException]:
        if isinstance(e, BaseExceptionGroup):
            return [x for sub in e.exceptions for x in leaves(sub)]
        return [e]

    with pytest.raises(BaseExceptionGroup) as failure:  # the SDK's client gives up on the 401
        over_http(url, None, never)
    assert [type(e) for e in leaves(failure.value)] == [MCPError]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_key_bound_to_another_scope_reaches_nothing_else_over_http(service, mode):
    url, key, mem = service
    alice_item = mem.upsert("Alice keeps her passport in the blue drawer", scope="alice-assistant")

    async def body(c: Client) -> None:
        assert "2 session(s) in scope team-backend" in await call(
            c, "sessions", {"scope": "team-backend"})
        for tool, args in [("recall", {"query": "passport", "scope": "alice-assistant"}),
                           ("facts", {"scope": "alice-assistant"}),
                           ("fact_history", {"subject": "user", "predicate": "lives_in",
                                             "scope": "alice-assistant"}),
                           ("context", {"question": "passport", "scope": "alice-assistant"}),
                           ("sessions", {"scope": "alice-assistant"}),
                           ("remember", {"text": "x", "scope": "alice-assistant"}),
                           ("summarize", {"scope": "alice-assistant"})]:
            out = await call(c, tool, args, error=True)
            assert "scope: forbidden: scope 'alice-assistant' is outside the scopes API key " \
                "'key-" in out, tool
        assert "scope: required: only some scopes may be reached here" in await call(
            c, "recall", {"query": "passport"}, error=True)
        for tool, args, said in [("session", {"session_id": 1}, "session 1 does not exist"),
                                 ("forget", {"fact_id": 1}, "fact 1 does not exist"),
                                 ("forget", {"item_id": alice_item},
                                  f"item {alice_item} does not exist")]:
            out = await call(c, tool, args, error=True)
            assert said in out and "alice-assistant" not in out, out
        with pytest.raises(MCPError, match="forbidden"):
            await read(c, "memlane://alice-assistant/facts")
        with pytest.raises(MCPError, match="forbidden"):
            await read(c, "memlane://alice-assistant/sessions/1")

    over_http(url, key("team-*"), body, mode)

    async def reader(c: Client) -> None:
        assert "user lives in Lisbon" in await call(c, "facts", {"scope": "alice-assistant"})
        assert "read-only" in await call(c, "remember", {"text": "x", "scope": "alice-assistant"},
                                         error=True)
        assert "read-only" in await call(c, "forget", {"fact_id": 1}, error=True)

    over_http(url, key("alice-assistant", read_only=True), reader, mode)
    assert mem.item(alice_item).scope == "alice-assistant"
    assert mem.store.get_fact(1).object == "Lisbon"


def test_memlane_serve_process_mounts_mcp(tmp_path, db):
    """The real command: ``memlane serve`` in its own process, MCP at /mcp with a key."""
    import socket
    import subprocess
    import time

    import httpx

    from memlane.serve.keys import create_key

    with memory(db) as mem:
        key = create_key(mem.store, "team-*").key
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"PATH": str(Path(sys.executable).parent), "HOME": str(tmp_path),
           "MEMLANE_EMBEDDING_BACKEND": "hashing"}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([MEMLANE, "--db", db, "serve", "--port", str(port),
                                 "--no-worker"], cwd=tmp_path, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "memlane serve did not start within 60 s"
            time.sleep(0.1)
        assert httpx.post(f"{url}/mcp", json={}, timeout=30).status_code == 401

        async def body(c: Client) -> None:
            assert {t.name for t in (await c.list_tools()).tools} == TOOLS
            out = await call(c, "recall", {"query": "billing database", "scope": "team-backend"})
            assert "in scope team-backend" in out and "item " in out
            assert "forbidden" in await call(c, "facts", {"scope": "alice-assistant"}, error=True)

        over_http(url, key, body)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_the_readme_snippets_start_a_server_whose_tools_a_client_lists(tmp_path, db):
    """What a new user pastes: the Claude Code command and the JSON entry of the README."""
    import json
    import re
    import shlex

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme.split("## MCP server", 1)[1].split("\n## ", 1)[0]
    line = next(x for x in section.splitlines() if x.startswith("claude mcp add memlane -- "))
    claude_code = shlex.split(line.split(" -- ", 1)[1])
    entry = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))
    desktop = [entry["mcpServers"]["memlane"]["command"], *entry["mcpServers"]["memlane"]["args"]]
    for argv in (claude_code, desktop):
        assert argv[0].endswith("/.venv/bin/memlane") and argv[1] == "mcp"
        args = [db if a.endswith("memory.db") else a for a in argv[1:]]
        assert db in args
        params = StdioServerParameters(command=MEMLANE, args=args, cwd=str(tmp_path),
                                       env={"MEMLANE_EMBEDDING_BACKEND": "hashing"})

        async def body(c: Client) -> None:
            assert {t.name for t in (await c.list_tools()).tools} == TOOLS

        talk(params, body, mode="legacy")


def test_every_tool_on_postgresql(pg_url):
    """The same conversation in process on PostgreSQL: the tools ask nothing of the backend."""
    from memlane.serve.mcp import build_server

    with memory(pg_url) as mem:
        for f in example_files():
            mem.import_file(f)
        mem.index("2024-06-01T00:00:00Z")
        talk(build_server(mem), exercise_every_tool)


def test_summarize_reports_only_its_own_scope_to_a_scoped_key(service):
    """summarize runs the indexer, which indexes every scope's closed sessions; its answer
    gave that run's totals, so a key bound to team-* learnt how many sessions and turns
    other tenants had waiting. The answer now counts the summarized scope's sessions."""
    url, key, mem = service
    for i in range(3):  # another tenant's closed session, waiting to be indexed
        mem.add_message("alice-assistant", "user", f"secret plan step {i}",
                        at=f"2024-06-20T10:0{i}:00Z")
    mem.close_session("alice-assistant")
    mem.add_message("team-new", "user", "We ship the billing fix on Friday",
                    at="2024-06-21T10:00:00Z")

    async def body(c: Client) -> None:
        out = await call(c, "summarize", {"scope": "team-new", "last": 5})
        assert "indexed 1 turn(s) of 1 closed session(s) of scope team-new" in out, out

    over_http(url, key("team-*"), body)
    others = [s for s in mem.sessions(scope="alice-assistant") if s.message_count == 3]
    assert others and not others[0].indexed  # another tenant's: left for its own indexing


def test_summarize_indexes_only_its_own_scope(db_url):
    """summarize ran ``Memory.index()`` over every scope: on a key's call it closed other
    tenants' idle sessions, indexed their turns and summarized them (with an LLM backend,
    model calls paid for someone else's sessions). Now it touches its scope only: the other
    scope's closed session stays unindexed and queued, its idle session open."""
    from memlane.serve.mcp import build_server

    with memory(db_url) as mem:
        for i in range(4):  # another tenant's closed session, waiting
            mem.add_message("alice-assistant", "user", f"my plan step {i} for the move",
                            at=f"2024-06-20T10:0{i}:00Z")
        waiting = mem.close_session("alice-assistant")
        idle = mem.add_message("alice-private", "user", "an idle talk, long ago",
                               at="2024-01-01T10:00:00Z").session_id
        for i in range(4):
            mem.add_message("team-new", "user", f"We ship the billing fix on Friday, step {i}",
                            at=f"2024-06-21T10:0{i}:00Z")

        async def body(c: Client) -> None:
            out = await call(c, "summarize", {"last": 5})
            assert "indexed 4 turn(s) of 1 closed session(s) of scope team-new" in out, out

        talk(build_server(mem, default_scope="team-new", scopes=["team-*"]), body)
        other = mem.session(waiting.id)
        assert (other.status, other.indexed, other.summarized) == ("closed", False, False)
        assert mem.session(idle).status == "open"
        mine = mem.sessions(scope="team-new")
        assert mine and all(s.indexed and s.summarized for s in mine)
        assert mem.stats()["summary_queue"]["pending"] == 1  # alice's, untouched


def test_forget_erases_a_session_and_only_where_allowed(tmp_path, db):
    """``forget`` with ``session_id`` erases a whole conversation (docs/erasure.md); another
    scope's session is forbidden, a read-only server refuses, an unknown id is an error."""
    async def refused(c: Client) -> None:
        assert "session 4 does not exist" in await call(c, "forget", {"session_id": 4},
                                                       error=True)
        assert "session 99 does not exist" in await call(c, "forget", {"session_id": 99},
                                                        error=True)
        assert "pass exactly one" in await call(c, "forget", {"session_id": 1, "fact_id": 2},
                                                error=True)

    talk(server(tmp_path, db, "--allow", "alice-*", "--scope", "alice-assistant"), refused)

    async def read_only(c: Client) -> None:
        assert "read-only" in await call(c, "forget", {"session_id": 1}, error=True)

    talk(server(tmp_path, db, "--read-only"), read_only)
    with memory(db) as mem:
        assert {s.id for s in mem.sessions(limit=10)} == {1, 2, 3, 4, 5}
        messages = len(mem.messages(1))

    async def erase(c: Client) -> None:
        out = await call(c, "forget", {"session_id": 1})
        assert out.startswith(f"erased session 1 of scope 'alice-assistant': sessions 1,"
                              f" messages {messages},")
        assert "session 1 does not exist" in await call(c, "session", {"session_id": 1},
                                                        error=True)

    talk(server(tmp_path, db, "--allow", "alice-*", "--scope", "alice-assistant"), erase)
    with memory(db) as mem:
        assert {s.id for s in mem.sessions(limit=10)} == {2, 3, 4, 5}


def test_remember_says_secrets_redacted_only_when_a_secret_was(tmp_path):
    """A note whose text memlane cleaned (a NUL byte dropped) was answered "(secrets
    redacted)": the answer compared the stored text with the sent one."""
    from memlane.serve.mcp import build_server

    with memory(tmp_path / "m.db") as mem:
        async def body(c: Client) -> None:
            clean = await call(c, "remember", {"text": "tabs over\x00 spaces", "scope": "s"})
            assert clean.startswith("remembered note as item ") and "redacted" not in clean
            secret = await call(c, "remember", {"text": "key sk-live-abcdefghijklmnop1234",
                                                "scope": "s"})
            assert "(secrets redacted)" in secret

        talk(build_server(mem), body)


def test_the_summary_summarize_stores_is_still_there_after_it_indexes(db_url):
    """summarize stored its summary on the session it closed, then indexed: the session's
    first intelligence run cleared every summary of the session, the one just stored
    included, and the answer named an item that no longer existed."""
    from memlane.serve.mcp import build_server

    with memory(db_url) as mem:
        for i in range(6):
            mem.add_message("s", "user", f"we decided to ship the billing fix on Friday, {i}",
                            at=f"2024-06-21T10:0{i}:00Z")

        async def body(c: Client) -> None:
            out = await call(c, "summarize", {"scope": "s", "last": 6})
            item_id = int(out.split("stored as item ")[1].split(";")[0])
            stored = mem.item(item_id)
            assert stored.kind == "summary" and stored.extra.get("on_demand"), stored
            (s,) = mem.sessions(scope="s")
            assert s.summarized  # the pipeline's own summary beside it
            kinds = [(i.kind, bool(i.extra.get("on_demand")))
                     for i in mem.store.session_items(s.id) if i.kind == "summary"]
            assert sorted(kinds) == [("summary", False), ("summary", True)]
            again = mem.index(now="2024-07-01T00:00:00Z", resummarize=True)
            assert again.sessions_failed == 0 and mem.item(item_id).extra.get("on_demand")

        talk(build_server(mem), body)


def test_every_tool_parameter_is_named_in_the_readmes_tool_table(tmp_path: Path) -> None:
    """The ``sessions`` tool took ``status`` (open, closed, summarized, failed), and the
    README's table of tools, which an agent's author reads to write a call, named every
    parameter of it but that one. Each tool's row names each parameter its schema has (the
    scope apart: every tool takes it, as the text above the table says)."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    rows = {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)` \| (.*) \|$", readme, re.M)}
    found: dict[str, list[str]] = {}

    async def body(c: Client) -> None:
        for tool in (await c.list_tools()).tools:
            found[tool.name] = sorted(tool.input_schema.get("properties", {}))

    talk(server(tmp_path, str(tmp_path / "m.db")), body)
    assert set(found) == TOOLS
    missing = {name: [p for p in params if p != "scope"
                      and not re.search(rf"\b{p}\b", rows.get(name, ""))]
               for name, params in found.items()}
    assert not any(missing.values()), f"README's tool rows lack {missing}"
