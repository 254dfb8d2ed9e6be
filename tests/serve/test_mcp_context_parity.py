"""Session 26: MCP's ``context`` takes the pack's parameters every other surface takes.

``memlane pack`` (``--instructions``, ``--now``), ``POST /v1/pack`` and the
``memory.pack`` action take ``instructions`` (a hard slot first in the pack) and ``now``
(the time the pack is built as of); MCP's ``context`` took neither, and turned
``model: ""`` into "no model" where the others refuse it naming ``model``. Each call here
goes to the HTTP service and to ``memlane mcp`` over stdio with the same arguments: both
refuse it naming the same parameter, or both build the same pack.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from mcp import Client

from memlane.config import load_config
from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from tests.serve.test_mcp import server, talk

Q = {"question": "which race is the user training for?", "scope": "alice-assistant"}
CASES: list[dict[str, Any]] = [
    {"model": ""}, {"model": "m" * 1001}, {"model": "gpt-4"},
    {"instructions": ""}, {"instructions": " \t\n"}, {"instructions": "a" * 100_001},
    {"instructions": "Answer in French.\nBe brief."},
    {"instructions": "my key is sk-abcdefghijklmnopqrstuvwx1234"},
    {"now": ""}, {"now": "yesterday"}, {"now": "10000-01-01T00:00:00Z"},
    {"now": "2024-06-01T12:00:00Z"}, {"now": "2024-06-01"},
    {"now": "2024-06-01T12:00:00Z", "instructions": "Be brief.", "model": "gpt-4"},
]


def test_context_takes_instructions_now_and_model_as_the_http_pack_does(tmp_path, db) -> None:
    # both as `memlane mcp` is configured here (the hashing embedder), and no call's touch
    # changing what the next one sees
    env = {"MEMLANE_EMBEDDING_BACKEND": "hashing", "MEMLANE_CONFIDENCE_TOUCH_ON_ACCESS": "false"}
    with Memory(config=load_config(environ=env, overrides={"db": db})) as mem:
        key = create_key(mem.store, "*").key
        http = TestClient(create_app(mem), headers={"Authorization": f"Bearer {key}"})
        answers = []
        for extra in CASES:
            r = http.post("/v1/pack", json={"query": Q["question"], "scope": Q["scope"], **extra})
            answers.append((r.status_code, r.json()))
    seen: list[tuple[dict[str, Any], int, str]] = []

    async def body(c: Client) -> None:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        props: Any = tools["context"].input_schema["properties"]
        said = {name: [m for m in props[name].get("anyOf", [props[name]]) if m.get("type") == "string"][0]
                for name in ("model", "instructions", "now")}
        assert said["model"]["minLength"] == 1 and said["instructions"]["maxLength"] == 100_000
        assert said["now"]["format"] == "date-time", said
        for extra, (status, _) in zip(CASES, answers, strict=True):
            result = await c.call_tool("context", {**Q, **extra})
            text = "\n".join(x.text for x in result.content if x.type == "text")
            seen.append((extra, 400 if result.is_error else 200, text))

    talk(server(tmp_path, db, env=env), body)
    for (extra, status, text), (want, got) in zip(seen, answers, strict=True):
        assert status == (200 if want == 200 else 400), (extra, want, got, text)
        if want != 200:
            field = got["error"]["field"]
            assert text.startswith(f"Error executing tool context: {field}: "), (extra, got, text)
            continue
        if "now" in extra:  # as of the same time, the same pack
            assert got["text"] and got["text"] in text, (extra, got["text"], text)
        if "instructions" in extra:
            assert "Instructions:" in text and "sk-abcdefghijklmnop" not in text, text
        assert f"/{got['budget']} tokens ({got['token_counter']})" in text, (extra, got, text)
