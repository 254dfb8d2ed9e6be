"""Secrets of every shape (tests/fuzz/secret_strategies.py) sent through the write paths
the first property (test_secret_property.py: ``add_message``, ``add_messages``, an import
file, the summariser's model) does not take (session 23): the HTTP service's messages, batch
and upsert routes (text, topics, keywords, entities, extra, agent, project), MCP
``remember`` over streamable HTTP (a message and a note with topics), ``add_fact``'s
subject and object, a journaled pack's query and instructions, and a search with HyDE on
(its question goes to a model), an API key's name. A real service on loopback, a real loopback model server
that repeats what it is told to: no secret reaches the SQLite file (WAL and full-text
vocabulary included), ``memlane export``, or any request sent to the model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mcp import Client

from memlane.serve.cli_export import export_lines
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving
from memlane.testing.llm_server import ChatServer
from memlane.ingest.validate import has_control
from tests.fuzz.secret_strategies import SECRET
from tests.fuzz.test_secret_property import Leaky, _file_leaks, _stored_bytes
from tests.serve.test_mcp import call, over_http

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def model() -> Iterator[tuple[ChatServer, Leaky]]:
    leaky = Leaky()
    with ChatServer(reply=leaky) as srv:
        yield srv, leaky


def _label(text: str) -> str | None:
    """A secret that fits a label (one line, at most 200 characters, no edge spaces)."""
    return text if "\n" not in text and len(text) <= 200 and text == text.strip() else None


def _topic(text: str) -> str:
    """A topic, or a fact's predicate or object, is one line (every surface refuses a
    newline in it, naming the field): a secret written over several lines (a PEM key) is
    sent in one only where it is one line."""
    one = text[:200].strip()
    return one if one and has_control(one) < 0 else "a topic"


@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(found=st.lists(SECRET, min_size=8, max_size=8))
def test_no_secret_reaches_the_store_or_a_model_by_any_path(
        tmp_path_factory: pytest.TempPathFactory, model: Any, found: list[Any]) -> None:
    srv, leaky = model
    texts = [t for t, _ in found]
    secrets = [s for _, parts in found for s in parts]
    leaky.secrets = texts
    srv.requests.clear()
    path = tmp_path_factory.mktemp("paths") / "memlane.db"
    llm = {"local": {"base_url": srv.base_url, "model": "test-model", "timeout_seconds": 10,
                     "max_retries": 0}}
    mem = memory(path, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                 retrieval={"hyde": True, "hyde_service": "local", "hyde_threshold": 1.0},
                 llm_services=llm)
    label = next((lb for lb in map(_label, texts) if lb), None)
    try:
        with serving(create_app(mem, worker=False)) as url:
            key = create_key(mem.store, "*").key
            if label is not None:  # a key's name is a label too (session 25: stored as given)
                create_key(mem.store, "chat", name=label)
            with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                              timeout=60) as http:
                def post(route: str, body: dict[str, Any]) -> Any:
                    r = http.post(route, json=body)
                    assert r.status_code == 200, (route, r.status_code, r.text)
                    return r.json()

                post("/v1/messages", {"scope": "chat", "role": "user", "text": f"note: {texts[0]}",
                                      "at": T0.isoformat(), "speaker": label, "id": label,
                                      "agent_id": label, "project_id": label})
                post("/actions", {"kind": "memory.add", "input": {"messages": [
                    {"scope": "chat", "role": "assistant", "text": texts[1],
                     "at": (T0 + timedelta(minutes=1)).isoformat()},
                    {"scope": "chat", "role": "user", "text": f"and {texts[2]}",
                     "at": (T0 + timedelta(minutes=2)).isoformat()}]}})
                post("/v1/items", {"scope": "chat", "text": f"remember {texts[3]}",
                                   "topics": [_topic(texts[4])], "keywords": [texts[5]],
                                   "entities": [texts[6]], "extra": {"why": texts[7]},
                                   "agent_id": label, "project_id": label})

                async def remember(c: Client) -> None:
                    await call(c, "remember", {"scope": "chat", "role": "user", "text": texts[4],
                                               "at": (T0 + timedelta(minutes=3)).isoformat()})
                    await call(c, "remember", {"scope": "chat", "text": f"a note {texts[5]}",
                                               "topics": [_topic(texts[6])]})

                over_http(url, key, remember)
                mem.add_fact("user", _topic(f"uses {texts[7]}"), _topic(texts[0]), scope="chat")
                post("/v1/pack", {"query": f"what about {texts[1]}", "scope": "chat",
                                  "budget": 800, "instructions": f"never show {texts[2]}"})
                post("/v1/search", {"query": f"where is {texts[3]}", "scope": "chat"})
                post("/v1/sessions/close", {"scope": "chat"})
                mem.index(now=T0 + timedelta(days=1))
                assert srv.chat_requests   # the model was asked (summary and HyDE)
                leaks: list[str] = []
                sent = json.dumps([r.body for r in srv.chat_requests], ensure_ascii=False)
                leaks += [f"sent to the model: {s!r}" for s in secrets if s in sent]
                exported = json.dumps(list(export_lines(mem)), ensure_ascii=False)
                leaks += [f"export: {s!r}" for s in secrets if s in exported]
                for route in ("/v1/facts?scope=chat", "/v1/sessions?scope=chat"):
                    got = http.get(route).text
                    leaks += [f"{route}: {s!r}" for s in secrets if s in got]
            raw = _stored_bytes(path)
    finally:
        mem.close()
    leaks += _file_leaks(path, secrets, raw)
    assert not leaks, leaks


class Garbled:
    """A model that answers no JSON, quoting a secret: its answer is in the error."""

    def __init__(self) -> None:
        self.said = ""

    def __call__(self, body: dict[str, Any]) -> str:
        return f"Sure! Here is what I found: {self.said} (no JSON, sorry)"


@pytest.fixture(scope="module")
def garbled() -> Iterator[tuple[ChatServer, Garbled]]:
    answer = Garbled()
    with ChatServer(reply=answer) as srv:
        yield srv, answer


@settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(found=SECRET)
def test_a_models_bad_answer_is_stored_in_a_failure_redacted(
        tmp_path_factory: pytest.TempPathFactory, garbled: Any, found: Any) -> None:
    """A summary that fails records why in the session (``failed_reason``: HTTP, the
    inspector, the live stream show it), and the error quoted the model's answer as it came:
    a key the model repeated or invented was stored as it was written."""
    srv, answer = garbled
    text, secrets = found
    answer.said = text
    path = tmp_path_factory.mktemp("failed") / "memlane.db"
    mem = memory(path, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0,
                                 "max_attempts": 1},
                 llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                         "timeout_seconds": 10, "max_retries": 0}})
    try:
        for i in range(6):
            mem.add_message("chat", "user" if i % 2 == 0 else "assistant",
                            f"we went over the deploy plan, step {i}", at=T0 + timedelta(minutes=i))
        mem.close_session("chat")
        assert mem.index(now=T0 + timedelta(days=1)).sessions_failed == 1
        [session] = mem.sessions("chat")
        assert session.status == "failed" and "JSON" in (session.failed_reason or "")
        shown = repr(session.failed_reason)
        leaks = [f"failed_reason: {s!r}" for s in secrets if s in shown]
        raw = _stored_bytes(path)
    finally:
        mem.close()
    leaks += _file_leaks(path, secrets, raw)
    assert not leaks, leaks


@settings(max_examples=40, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(found=SECRET)
def test_no_secret_in_a_key_name_reaches_the_database(tmp_path_factory: pytest.TempPathFactory,
                                                      found: Any) -> None:
    """``memlane keys create --name`` stored its label as given (session 25): a token pasted
    there was in the file, and in ``memlane keys list``."""
    from click.testing import CliRunner

    from memlane.serve.cli import cli

    text, secrets = found
    label = _label(text) or " ".join(text.split())[:200]
    db = tmp_path_factory.mktemp("keys") / "memlane.db"
    r = CliRunner().invoke(cli, ["--db", str(db), "keys", "create", "--scopes", "chat",
                                 "--name", f"ci {label}"])
    assert r.exit_code == 0, r.output
    listed = CliRunner().invoke(cli, ["--db", str(db), "keys", "list", "--json"]).stdout
    leaks = [f"keys list: {s!r}" for s in secrets if s in listed]
    assert not leaks, leaks
    raw = _stored_bytes(db)
    assert not [s for s in secrets if s.encode() in raw], "a secret of the key name is stored"
