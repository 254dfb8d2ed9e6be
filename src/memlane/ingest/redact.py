"""Secret redaction: applied before anything is stored or sent to a model.

Each secret is replaced by a typed placeholder such as ``[REDACTED:api_key#3f2a]`` so the
text still reads naturally, a reader can tell what was there, and two different secrets
stay different (the tag is 4 hex digits of the secret's SHA-256).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

__all__ = ["PATTERNS", "redact"]

# (kind, pattern, replacement template); the first group, when present, is kept.
PATTERNS: list[tuple[str, re.Pattern[str], str]] = [
    (
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
            r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"
        ),
        "[REDACTED:private_key]",
    ),
    (
        "password",  # credentials inside URLs / connection strings: scheme://user:pass@host
        re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)[^\s@/]+(?=@)"),
        r"\1[REDACTED:password]",
    ),
    (
        "bearer_token",
        re.compile(r"(\b[Bb]earer\s+)[A-Za-z0-9._~+/=-]{12,}"),
        r"\1[REDACTED:bearer_token]",
    ),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), "[REDACTED:token]"),
    ("api_key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}"), "[REDACTED:api_key]"),
    ("api_key", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"), "[REDACTED:api_key]"),
    ("api_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), "[REDACTED:api_key]"),
    ("api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), "[REDACTED:api_key]"),
    ("api_key", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), "[REDACTED:api_key]"),
    ("api_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"), "[REDACTED:api_key]"),
    (
        "password",  # password = "...", "password": "...", passwd: ..., pwd=...
        re.compile(
            r"""(?ix)
            (\b(?:password|passwd|pwd|passphrase)\b["']?\s*[:=]\s*["']?)
            (?!\[REDACTED)[^\s"',;]{3,}"""
        ),
        r"\1[REDACTED:password]",
    ),
    (
        "secret",  # api_key = ..., secret: ..., access_token=..., client_secret=...
        re.compile(
            r"""(?ix)
            (\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|client[_-]?secret
               |aws_secret_access_key)\b["']?\s*[:=]\s*["']?)
            (?!\[REDACTED)[A-Za-z0-9._~+/=-]{8,}"""
        ),
        r"\1[REDACTED:secret]",
    ),
]


# Every pattern above needs one of these literals (lowercased); most messages have none,
# so a few substring checks spare running a dozen expressions on the hot path.
_LITERALS = (
    "private key", "://", "bearer", "eyj", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
    "github_pat_", "akia", "asia", "aiza", "xox", "_live_", "_test_", "passw", "pwd",
    "passphrase", "api_key", "api-key", "apikey", "api key", "secret", "token",
)


def _fingerprint(repl: str) -> Any:
    """A replacement that tags the placeholder with 4 hex digits of the secret's SHA-256.

    Two different secrets then read differently (so "my key is now …" can supersede the
    old key) while the tag reveals nothing usable (16 bits of a hash).
    """
    prefix = repl.startswith("\\1")
    placeholder = repl[2:] if prefix else repl

    def sub(m: re.Match[str]) -> str:
        kept = m.group(1) if prefix else ""
        secret = m.group(0)[len(kept):]
        tag = hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:4]
        return kept + placeholder[:-1] + f"#{tag}]"

    return sub


_COMPILED = [(kind, pattern, _fingerprint(repl)) for kind, pattern, repl in PATTERNS]


def redact(text: str) -> tuple[str, int]:
    """Return ``(redacted_text, number_of_secrets_replaced)``.

    Each secret becomes ``[REDACTED:<kind>#<tag>]``, the tag being 4 hex digits of its hash.
    """
    low = text.lower()
    if not any(lit in low for lit in _LITERALS):
        return text, 0
    total = 0
    for _kind, pattern, sub in _COMPILED:
        text, n = pattern.subn(sub, text)
        total += n
    return text, total
