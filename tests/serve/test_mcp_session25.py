"""Session 25: ``memlane mcp`` driven by the SDK's client as a coding assistant would.

Every refusal named its argument but two classes: an object not found (``forget
{"fact_id": 999}`` answered "fact 999 does not exist", ``session``, ``summarize`` alike) and
``context``'s ``budget``, which stopped at 100,000 where every other surface (a call, the
HTTP service, the CLI, the inspector, ``pack.budget``) takes up to 1,000,000.
"""

from __future__ import annotations

from typing import Any

from mcp import Client

from memlane.ingest.params import MAX_BUDGET
from tests.serve.test_mcp import call, server, talk

MISSING = [("forget", {"fact_id": 999}, "fact_id"), ("forget", {"item_id": 999}, "item_id"),
           ("forget", {"session_id": 999}, "session_id"), ("session", {"session_id": 999}, "session_id"),
           ("summarize", {"scope": "nobody", "last": 3}, "scope"),
           ("summarize", {"scope": "nobody", "last": 3, "store": False}, "scope")]


def test_an_object_not_found_is_named_by_the_argument_that_named_it(tmp_path, db) -> None:
    async def body(c: Client) -> None:
        for tool, args, name in MISSING:
            out = await call(c, tool, args, error=True)
            assert out.startswith(f"Error executing tool {tool}: {name}: "), (tool, args, out)
            assert "does not exist" in out or "no messages" in out, out

    talk(server(tmp_path, db), body)


def test_context_takes_the_budget_every_other_surface_takes(tmp_path, db) -> None:
    async def body(c: Client) -> None:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        budget: Any = tools["context"].input_schema["properties"]["budget"]
        bounds = [m for m in budget.get("anyOf", [budget]) if m.get("type") == "integer"][0]
        assert (bounds["minimum"], bounds["maximum"]) == (16, MAX_BUDGET), budget
        question = {"question": "which race?", "scope": "alice-assistant"}
        out = await call(c, "context", {**question, "budget": MAX_BUDGET})
        assert f"/{MAX_BUDGET} tokens" in out, out
        refused = await call(c, "context", {**question, "budget": MAX_BUDGET + 1}, error=True)
        assert "budget: " in refused, refused

    talk(server(tmp_path, db), body)


HOSTILE = ["\x1b[2J\x1b[31mred", "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07", "bell\x07",
           "\u202eevil\u202c", "\u2066iso\u2069", "c1 \x9b31m", "back\bspace", "cr\roverwrite"]
UNSAFE = set("\x1b\x07\x9b\b\r\u202e\u202c\u2066\u2069")


def test_stored_text_reaches_the_client_with_its_terminal_controls_escaped(tmp_path, db) -> None:
    """A tool's answer is shown in the client's terminal (Claude Code) or window: a stored
    ``ESC[2J`` cleared it, an OSC 8 sequence forged a link, a bidi override reordered what
    the reader saw. The CLI escaped them since session 19; MCP answers and resources carried
    them raw. Newlines and tabs stay."""
    from tests.serve.test_mcp import read

    async def body(c: Client) -> None:
        for i, text in enumerate(HOSTILE):
            words = f"zebra{i} note\twith {text} end"
            await call(c, "remember", {"text": words, "scope": "alice-assistant"})
            await call(c, "remember", {"text": words, "role": "user", "scope": "alice-assistant",
                                       "at": "2024-06-01T10:00:00Z"})
            found = await call(c, "recall", {"query": f"zebra{i}", "scope": "alice-assistant"})
            assert f"zebra{i}" in found, found
            assert not UNSAFE & set(found), repr(found)
        sessions = await call(c, "sessions", {"scope": "alice-assistant", "limit": 1})
        sid = int(sessions.split("session ")[1].split()[0])
        shown = await call(c, "session", {"session_id": sid})
        assert "zebra0" in shown and not UNSAFE & set(shown), repr(shown)
        resource = await read(c, f"memlane://alice-assistant/sessions/{sid}")
        assert "zebra0" in resource and not UNSAFE & set(resource), repr(resource)
        packed = await call(c, "context", {"question": "zebra3 note", "scope": "alice-assistant"})
        assert not UNSAFE & set(packed), repr(packed)

    talk(server(tmp_path, db), body)
