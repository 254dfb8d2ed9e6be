"""An empty text or list given to an MCP tool (session 35, fix35): ``scope: ""`` was read as
no scope, so ``remember`` stored in the server's default scope and every reading tool read
the default scope (or every scope the caller may), and ``recall`` with ``kinds: []`` searched
every kind. Every tool's every text and list parameter, read from the tools' own schemas
(``tools/list``), given ``""``, blanks or ``[]``: a tool error naming that parameter, nothing
stored, or (``topics: []``, no topics) the same as leaving it out, which widens nothing."""

from __future__ import annotations

from typing import Any

from mcp import Client

from memlane.serve.mcp import build_server
from memlane.testing import memory
from tests.serve.test_mcp import talk

SCOPE = "alice-assistant"
CALLS: dict[str, dict[str, Any]] = {  # each tool's smallest call that succeeds
    "remember": {"text": "the build runs on Fridays", "scope": SCOPE},
    "recall": {"query": "Lisbon", "scope": SCOPE},
    "context": {"question": "where does the user live", "scope": SCOPE},
    "facts": {"scope": SCOPE},
    "fact_history": {"subject": "user", "predicate": "lives_in", "scope": SCOPE},
    "forget": {"fact_id": 999_999},
    "sessions": {"scope": SCOPE},
    "session": {"session_id": 1},
    "summarize": {"scope": SCOPE, "store": False},
}
EMPTY_MEANS_NONE = {("remember", "topics")}
"""An empty value that is the same as none given: no topics (the HTTP API's too)."""


def _types(schema: dict[str, Any]) -> set[str]:
    if "anyOf" in schema:
        return {t for member in schema["anyOf"] for t in _types(member)}
    return {schema.get("type", "any")}


def _every_item() -> Any:
    from memlane.store.filters import Filters

    return Filters.build(privacy=("private", "project", "shared"))


def test_every_text_and_list_parameter_refuses_empty_naming_it(db: str) -> None:
    seen: list[tuple[str, str, Any, bool, str]] = []

    async def body(c: Client) -> None:
        tools = (await c.list_tools()).tools
        assert {t.name for t in tools} == set(CALLS)
        for tool in tools:
            for name, schema in tool.input_schema["properties"].items():
                kinds = _types(schema)
                empties: list[Any] = (["", " \t"] if "string" in kinds else []) + (
                    [[]] if "array" in kinds else [])
                for empty in empties:
                    result = await c.call_tool(tool.name, {**CALLS[tool.name], name: empty})
                    text = "\n".join(x.text for x in result.content if x.type == "text")
                    seen.append((tool.name, name, empty, result.is_error, text))

    with memory(db) as mem:
        before = len(mem.store.filter_ids(_every_item()))
        talk(build_server(mem, default_scope="team-backend"), body)
        after = len(mem.store.filter_ids(_every_item()))
    assert {(t, n) for t, n, *_ in seen} >= {(t, "scope") for t in CALLS if "scope" in CALLS[t]}
    assert ("recall", "kinds") in {(t, n) for t, n, *_ in seen}
    stored = 0
    for tool, name, empty, is_error, text in seen:
        if (tool, name) in EMPTY_MEANS_NONE:
            assert not is_error and empty == [], (tool, name, text)
            stored += 1
            continue
        assert is_error, (tool, name, empty, text)
        assert f"{tool}: {name}: " in text, (tool, name, empty, text)
    assert after == before + stored  # only the topics: [] note; no refused call stored


def test_an_empty_scope_reaches_neither_the_default_scope_nor_every_scope(db: str) -> None:
    """What the refusal guards: ``""`` read the default scope's facts, or with no default
    scope every scope's sessions; a scope named in full is still read."""
    async def body(c: Client) -> None:
        for tool in ("facts", "sessions", "recall", "context"):
            args = {**CALLS[tool], "scope": ""}
            result = await c.call_tool(tool, args)
            text = "\n".join(x.text for x in result.content if x.type == "text")
            assert result.is_error and text.startswith(f"Error executing tool {tool}: scope: "), text
        result = await c.call_tool("recall", {"query": "Lisbon", "kinds": []})
        assert result.is_error and "recall: kinds: " in result.content[0].text
        ok = await c.call_tool("facts", {"scope": SCOPE})
        assert not ok.is_error and "user lives in Lisbon" in ok.content[0].text

    with memory(db) as mem:
        talk(build_server(mem), body)  # no default scope: "" reached every scope
        talk(build_server(mem, default_scope=SCOPE), body)


def test_a_resource_address_with_an_empty_scope_is_refused_naming_scope(db: str) -> None:
    """``memlane:///facts`` read the default scope's facts, or without one every scope's;
    the prompt, text that reaches nothing, still reads a blank scope as none."""
    from mcp.shared.exceptions import MCPError

    async def body(c: Client) -> None:
        for uri in ("memlane:///facts", "memlane:///sessions/1"):
            try:
                await c.read_resource(uri)
            except MCPError as e:
                assert str(e).startswith("scope: must not be empty"), (uri, e)
                assert e.error.data == {"uri": uri, "scope": ""}
            else:
                raise AssertionError(f"{uri} was read")
        got = await c.read_resource(f"memlane://{SCOPE}/facts")
        assert "user lives in Lisbon" in got.contents[0].text
        prompt = await c.get_prompt("use-memory", {"scope": ""})
        assert prompt.messages

    with memory(db) as mem:
        talk(build_server(mem), body)
        talk(build_server(mem, default_scope=SCOPE), body)
