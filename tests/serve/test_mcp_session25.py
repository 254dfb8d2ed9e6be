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
