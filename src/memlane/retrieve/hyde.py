"""HyDE: expand a low-confidence query with a hypothetical answer written by an LLM.

Gao et al. (2022): embed what an answer might look like rather than the question. The
search asks for an expansion only when its lexical and vector lists disagree (see
``SearchOptions.hyde_threshold``); the passage's vector search becomes a third RRF list.
A failing LLM never fails a search: the query is then searched as it is.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from memlane.backends.llm.base import strip_reasoning
from memlane.errors import MemlaneError

__all__ = ["HYDE_PROMPT", "HydeExpander", "expander_for"]

log = logging.getLogger("memlane.retrieve")

HYDE_PROMPT = (
    "You help search a person's long-term conversation memory. Write two or three short "
    "sentences that the person or their assistant might have said in an earlier "
    "conversation and that would answer the question. Use plain statements in the first "
    "person, no preamble, no hedging."
)


class HydeExpander:
    """Callable: question -> hypothetical passage (or None on failure); caches by question."""

    def __init__(self, llm: Any, max_tokens: int = 120, cache_size: int = 256) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.calls = 0
        self.failures = 0
        self._cache: dict[str, str] = {}
        self._cache_size = cache_size
        # searches in the service's threads share it, and an erase empties it under this
        # lock (``textcaches.forget_cached_text``; session 22 review)
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: Any) -> HydeExpander:
        """An expander on the ``[llm.services.NAME]`` named by ``retrieval.hyde_service``."""
        from memlane.backends.llm.openai import OpenAIChat

        return cls(OpenAIChat.from_config(config.llm_service(config.retrieval.hyde_service)))

    def __call__(self, query: str) -> str | None:
        """The expansion of ``query``; successes are cached, failures retried next time."""
        with self._lock:
            hit = self._cache.get(query)
        if hit is not None:
            return hit
        text = self._expand(query)
        if text is not None:
            with self._lock:
                if len(self._cache) >= self._cache_size:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[query] = text
        return text

    def _expand(self, query: str) -> str | None:
        self.calls += 1
        try:
            text = self.llm.complete(
                [{"role": "system", "content": HYDE_PROMPT}, {"role": "user", "content": query}],
                max_tokens=self.max_tokens,
            )
        except (MemlaneError, OSError, ValueError) as e:
            self.failures += 1
            log.warning("HyDE expansion failed, searching the query as is: %s", e)
            return None
        # a reasoning model's <think> block is no answer: at max_tokens 120 it is often all
        # there is (cut while reasoning), and the query is then searched as it is
        text = strip_reasoning(text or "")
        return f"{query}\n{text}" if text else None


def expander_for(config: Any) -> HydeExpander:
    """An expander on the ``[llm.services.NAME]`` that ``retrieval.hyde_service`` names."""
    return HydeExpander.from_config(config)
