"""Choose the session-intelligence backend a ``Config`` asks for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memlane.config import Config

__all__ = ["make_intelligence"]


def make_intelligence(config: Config) -> Any:
    """The backend of ``[memory.indexing]``: ``OfflineIntelligence()`` for backend
    ``offline``; for ``llm``, an ``LLMIntelligence`` over an ``OpenAIChat`` for the
    ``[llm.services.NAME]`` named by ``indexing.service`` (``indexing.model`` overrides
    its model). Raises ``ConfigError`` when that service is not configured.

    No request is made here; an LLM backend opens its HTTP client on first use and
    should be closed with ``close()``.
    """
    indexing = config.indexing
    if indexing.backend == "offline":
        from memlane.index.offline import OfflineIntelligence

        return OfflineIntelligence()
    from memlane.backends.llm.openai import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence

    service = config.llm_service(indexing.service)
    return LLMIntelligence(
        OpenAIChat.from_config(service, indexing.model),
        max_input_tokens=indexing.max_input_tokens,
    )
