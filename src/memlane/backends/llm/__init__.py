"""LLM backends: the ``LLM`` seam, structured JSON answers, an OpenAI-compatible client.

    from memlane.backends.llm import OpenAIChat, complete_json

    with OpenAIChat("http://127.0.0.1:11434/v1", "llama3.1:8b") as llm:
        data = complete_json(llm, [{"role": "user", "content": "..."}], schema)

``make_intelligence(config)`` (in ``memlane.backends.registry``) builds the
session-intelligence backend chosen by ``[memory.indexing]``.
"""

from __future__ import annotations

from memlane.backends.llm.base import (
    LLM,
    SchemaViolation,
    complete_json,
    extract_json,
    validate_json,
)
from memlane.backends.llm.errors import (
    LLMBadResponse,
    LLMError,
    LLMHTTPError,
    LLMRateLimited,
    LLMTimeout,
)
from memlane.backends.llm.openai import OpenAIChat, RateLimiter

__all__ = [
    "LLM",
    "LLMBadResponse",
    "LLMError",
    "LLMHTTPError",
    "LLMRateLimited",
    "LLMTimeout",
    "OpenAIChat",
    "RateLimiter",
    "SchemaViolation",
    "complete_json",
    "extract_json",
    "validate_json",
]
