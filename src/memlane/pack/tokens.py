"""Token counters. The default is a stated approximation (about 4 characters a token)."""

from __future__ import annotations

import math

__all__ = ["ApproxTokenCounter"]


class ApproxTokenCounter:
    """``ceil(len(text) / chars_per_token)``: an approximation, named as one."""

    def __init__(self, chars_per_token: float = 4.0) -> None:
        self.chars_per_token = chars_per_token
        self.name = f"approx-{chars_per_token:g}cpt"

    def count(self, text: str) -> int:
        return math.ceil(len(text) / self.chars_per_token) if text else 0
