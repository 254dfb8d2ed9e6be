"""HyDE query expansion through a real chat server on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.retrieve.hyde import HYDE_PROMPT, HydeExpander
from memlane.testing import memory
from memlane.testing.llm_server import ChatServer

NOW = datetime(2024, 6, 20, tzinfo=UTC)


@pytest.fixture
def srv() -> Iterator[ChatServer]:
    with ChatServer() as s:
        yield s


def _mem(path: Path, srv: ChatServer) -> object:
    m = memory(path, retrieval={"hyde": True, "hyde_service": "local", "hyde_threshold": 0.5},
               llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                       "max_retries": 0, "timeout_seconds": 5}})
    turns = ["Rex has a vet appointment for his vaccinations on Friday",
             "I baked sourdough bread with a new starter",
             "The crust came out dark and dense"]
    for i, t in enumerate(turns):
        m.add_message("c", "user", t, at=NOW - timedelta(days=3, minutes=-i))
    m.close_session("c")
    m.index(now=NOW)
    return m


def test_low_confidence_query_is_expanded_and_searched(tmp_path: Path, srv: ChatServer) -> None:
    m = _mem(tmp_path / "h.db", srv)
    srv.script("My dog Rex has a vet appointment for vaccinations.")
    n0 = len(srv.chat_requests)
    hits = m.search("zzqx canine checkup", scope="c", k=5, now=NOW)  # no word in the memory
    m.close()
    sent = srv.chat_requests[n0:]
    assert len(sent) == 1
    assert sent[0].messages[0] == {"role": "system", "content": HYDE_PROMPT}
    assert sent[0].messages[1]["content"] == "zzqx canine checkup"
    assert hits and any("hyde_rank" in h.scores for h in hits)
    vet = next(h for h in hits if "vet appointment" in h.item.text)
    assert vet.scores["hyde_rank"] <= 2


def test_failing_llm_falls_back_to_the_query(tmp_path: Path, srv: ChatServer) -> None:
    m = _mem(tmp_path / "f.db", srv)
    srv.fail(500, times=5)
    hits = m.search("zzqx sourdough crust", scope="c", k=5, now=NOW)
    m.close()
    assert hits and all("hyde_rank" not in h.scores for h in hits)


def test_expander_caches_successes_only() -> None:
    class Flaky:
        calls = 0

        def complete(self, messages, **kw):  # the LLM seam's one method
            Flaky.calls += 1
            if Flaky.calls == 1:
                raise ValueError("boom")
            return "an answer"

    e = HydeExpander(Flaky())
    assert e("q") is None and e.failures == 1
    assert e("q") == "q\nan answer"
    assert e("q") == "q\nan answer" and Flaky.calls == 2


def test_a_reasoning_models_think_block_is_not_the_expansion(srv: ChatServer) -> None:
    # qwen3 or deepseek-r1 through Ollama: the reasoning comes first in the content, and at
    # the expansion's 120 tokens the answer is often cut while still reasoning
    from memlane.backends.llm import OpenAIChat

    with OpenAIChat(srv.base_url, "qwen3", max_retries=0) as llm:
        hyde = HydeExpander(llm)
        srv.script("<think>The user asks about a dog's checkup.</think>\nRex saw the vet.",
                   "<think>Okay, the user wants sentences about their sourdough, let me")
        assert hyde("canine checkup") == "canine checkup\nRex saw the vet."
        assert hyde("sourdough crust") is None  # searched as it is
