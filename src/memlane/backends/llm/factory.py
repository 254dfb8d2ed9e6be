"""Kept for imports written against it: the registry is ``memlane.backends.registry``."""

from __future__ import annotations

from memlane.backends.registry import make_intelligence

__all__ = ["make_intelligence"]
