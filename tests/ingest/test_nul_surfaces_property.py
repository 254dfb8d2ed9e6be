"""A NUL character on every write path (session 24: decided, kept as it was).

Free text (a message's or a note's) drops its NUL characters and keeps everything else;
a text left with nothing visible is refused naming ``text``; a one-line field (speaker,
scope, a fact's parts) holding one is refused naming that field. PostgreSQL's text cannot
hold a NUL, and in a conversation's words it carries nothing, so dropping it costs nothing
and refusing the message would lose the rest of it. The property sends the same text by
every surface, ``add_message``, ``add_messages``, an import file, ``upsert``, the HTTP
service's message, batch and item routes and MCP's ``remember`` (a message and a note), and
finds each stored the same way, or each refused naming the field.
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from memlane.errors import ValidationError
from memlane.memory import Memory
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.test_mcp import over_http

T0 = datetime(2024, 5, 1, tzinfo=UTC)
texts = st.text(alphabet=st.sampled_from(list("ab Z9.,!\x00\u00e9\u2003")), min_size=1,
                max_size=12)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, str, str]]:
    mem = memory(tmp_path_factory.mktemp("nul") / "memlane.db")
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield mem, url, create_key(mem.store, "*").key
    finally:
        mem.close()


def _visible(text: str) -> bool:
    return any(not ch.isspace() for ch in text.replace("\x00", ""))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=texts)
def test_every_surface_drops_a_nul_from_text_or_refuses_the_same_text(
        service: tuple[Memory, str, str], text: str) -> None:
    mem, url, key = service
    n = next(_examples)
    at = (T0 + timedelta(minutes=n)).isoformat()
    want = text.replace("\x00", "")
    ok = _visible(text)
    stored: dict[str, str | None] = {}  # surface: the stored text, None if refused
    refusals: dict[str, str] = {}

    def message_of(scope: str) -> str | None:
        ms = [m for s in mem.sessions(scope) for m in mem.messages(s.id)]
        return ms[0].text if ms else None

    def note_of(scope: str) -> str | None:
        row = mem.store._run(  # type: ignore[attr-defined]
            "SELECT text FROM items WHERE scope = %s", (scope,)).fetchone()
        return None if row is None else str(row[0])

    def direct(surface: str, write: Any, read: Any) -> None:
        scope = f"{surface}-{n}"
        try:
            write(scope)
        except ValidationError as e:
            refusals[surface] = str(e.field)
        stored[surface] = read(scope)

    direct("add_message", lambda s: mem.add_message(s, "user", text, at), message_of)
    direct("add_messages", lambda s: mem.add_messages(
        [{"scope": s, "role": "user", "text": text, "at": at}]), message_of)

    def imported(scope: str) -> None:
        line = json.dumps({"scope": scope, "role": "user", "text": text, "at": at})
        report = mem.import_file(io.StringIO(line + "\n"))
        if report.errors:
            raise ValidationError(report.errors[0][1], field="text" if "text:" in
                                  report.errors[0][1] else "?")

    direct("import", imported, message_of)
    direct("upsert", lambda s: mem.upsert(text, scope=s), note_of)

    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as http:
        def post(surface: str, route: str, body: dict[str, Any], read: Any) -> None:
            r = http.post(route, json=body)
            if r.status_code != 200:
                assert 400 <= r.status_code < 500, (surface, r.status_code, r.text)
                refusals[surface] = "text" if "text" in r.text else r.text
            stored[surface] = read(body["scope"] if "scope" in body else
                                   body["input"]["messages"][0]["scope"])

        post("http message", "/v1/messages", {"scope": f"hm-{n}", "role": "user",
                                              "text": text, "at": at}, message_of)
        post("http batch", "/actions", {"kind": "memory.add", "input": {"messages": [
            {"scope": f"hb-{n}", "role": "user", "text": text, "at": at}]}}, message_of)
        post("http item", "/v1/items", {"scope": f"hi-{n}", "text": text}, note_of)

    async def remember(c: Client) -> None:
        for surface, scope, args in (
                ("mcp message", f"mm-{n}", {"role": "user", "at": at}),
                ("mcp note", f"mn-{n}", {})):
            result = await c.call_tool("remember", {"scope": scope, "text": text, **args})
            if result.is_error:
                said = "\n".join(x.text for x in result.content if x.type == "text")
                refusals[surface] = "text" if "text" in said else said
            stored[surface] = (message_of if surface == "mcp message" else note_of)(scope)

    over_http(url, key, remember)
    if ok:
        assert not refusals, refusals
        assert stored == dict.fromkeys(stored, want), stored
    else:
        # a batch names the message's place in it (``messages.0.text``)
        assert refusals == {s: "messages.0.text" if s == "add_messages" else "text"
                            for s in stored}, refusals
        assert stored == dict.fromkeys(stored), stored


_examples = itertools.count()


@pytest.mark.parametrize("field", ["speaker", "scope", "agent", "project"])
def test_a_nul_in_a_one_line_field_is_refused_naming_it(db_url: str, field: str) -> None:
    """On both stores: nothing stored, the field named."""
    with memory(db_url) as mem:
        args: dict[str, Any] = {"scope": "s", "role": "user", "text": "hello"}
        args[field] = "a\x00b"
        with pytest.raises(ValidationError) as e:
            mem.add_message(**args)
        assert e.value.field == field
        with pytest.raises(ValidationError) as e:
            mem.add_messages([args])
        assert e.value.field == f"messages.0.{field}"
        assert mem.sessions(limit=10) == []
        assert mem.add_message("s", "user", "a\x00b").text == "ab"
        assert [m.text for s in mem.sessions("s") for m in mem.messages(s.id)] == ["ab"]
