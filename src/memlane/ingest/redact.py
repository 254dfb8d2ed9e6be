"""Secret redaction: applied before anything is stored or sent to a model.

Each secret is replaced by a typed placeholder such as ``[REDACTED:api_key#3f2a]`` so the
text still reads naturally, a reader can tell what was there, and two different secrets
stay different (the tag is 4 hex digits of the secret's SHA-256).

``scrub(cfg, text)`` is the one redaction step every write path calls: the secret formats
below (``ingest.redact_secrets``), the PII class of emails and phone numbers
(``ingest.redact_pii``, off by default) and the user's own patterns
(``ingest.redact_patterns``). ``scrub_deep`` applies it to every string of a structure
(a summary, an extraction, an ``extra`` dict).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Callable
from typing import Any

__all__ = ["PATTERNS", "PII_PATTERNS", "PLACEHOLDER", "redact", "scrub", "scrub_deep"]


@dataclasses.dataclass(frozen=True)
class Pattern:
    """One secret format. ``keep`` groups: group 1, when ``keep``, stays in the text.

    ``literals``: the pattern cannot match unless one of these (lowercase) substrings is in
    the text, so most messages skip it cheaply (a literal with capitals is matched as
    written, the others against the lowercased text). ``check``: a final test of the match (the
    Luhn checksum of a card number).
    """

    kind: str
    regex: re.Pattern[str]
    keep: bool = False
    literals: tuple[str, ...] | None = None
    check: Callable[[str], bool] | None = None
    assigned: bool = False
    """The pattern needs ``=`` or ``:`` in the text (an assignment)."""
    digits: bool = False
    """The pattern needs three digits in a row in the text."""


def _luhn(candidate: str) -> bool:
    digits = [int(c) for c in candidate if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_ASSIGNED = (  # names whose assigned value is a secret: API_KEY=…, "client_secret": "…"
    r"(?:api[_-]?key|apikey|secret(?:[_-]?(?:access[_-]?)?key)?|access[_-]?(?:token|key)"
    r"|auth[_-]?token|token|client[_-]?secret|private[_-]?key|credentials?"
    r"|aws_secret_access_key)"
)

P = Pattern
PATTERNS: list[Pattern] = [
    P("private_key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"), literals=("private key",)),
    P("webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
      literals=("hooks.slack.com",)),
    P("password", re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)[^\s@/]+(?=@)"), keep=True,
      literals=("://",)),
    P("connection_string", re.compile(
        r"(?i)((?:AccountKey|SharedAccessKey|SharedAccessSignature|sig)=)[A-Za-z0-9+/%=&-]{16,}"),
      keep=True, literals=("accountkey", "sharedaccess", "sig=")),
    P("bearer_token", re.compile(r"(\b[Bb]earer\s+)[A-Za-z0-9._~+/=-]{12,}"), keep=True,
      literals=("bearer",)),
    P("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
      literals=("eyj",)),
    P("api_key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}"), literals=("sk-",)),
    P("api_key", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
      literals=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    P("api_key", re.compile(r"\bgl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|agent|oas)-[A-Za-z0-9_-]{20,}"),
      literals=tuple(f"gl{k}-" for k in ("pat", "dt", "rt", "ptt", "cbt", "imt", "soat", "ffct",
                                          "agent", "oas"))),
    P("api_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), literals=("akia", "asia")),
    P("api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), literals=("aiza",)),
    P("api_key", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), literals=("xox",)),
    P("api_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
      literals=("_live_", "_test_")),
    P("api_key", re.compile(r"\bSK[0-9a-fA-F]{32}\b"), literals=("SK",)),  # Twilio API key
    P("api_key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}"), literals=("SG.",)),
    P("api_key", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), literals=("npm_",)),
    P("api_key", re.compile(r"\bpypi-[A-Za-z0-9_-]{50,}"), literals=("pypi-",)),
    P("api_key", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), literals=("hf_",)),
    # the model providers memlane's chat client is pointed at: Groq, xAI, Perplexity, Replicate
    P("api_key", re.compile(r"\b(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{20,}"),
      literals=("gsk_", "xai-", "pplx-", "r8_")),
    P("api_key", re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b"), literals=("_v1_",)),
    P("api_key", re.compile(r"\bdapi[a-f0-9]{32}(?:-\d+)?\b"), literals=("dapi",)),
    P("api_key", re.compile(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"), literals=("shp",)),
    P("token", re.compile(r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}"
                          r"\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])"), literals=(".",)),
    P("password", re.compile(
        r"""(?ix)
        ((?<![a-z0-9@._-])[a-z0-9_.-]*?(?:password|passwd|pwd|passphrase)["']?\s*[:=]\s*["']?)
        [^\s"',;]{3,}"""), keep=True, literals=("passw", "pwd", "passphrase"),
      assigned=True),
    P("secret", re.compile(
        r"(?i)((?<![a-z0-9@._-])[a-z0-9_.-]*?" + _ASSIGNED + r"""["']?\s*[:=]\s*["']?)"""
        r"[A-Za-z0-9._~+/=-]{8,}"), keep=True,
      literals=("key", "secret", "token", "credential"), assigned=True),
    P("secret", re.compile(  # an AWS secret key written in prose: "my aws secret is wJal…"
        r"(?i)((?:aws|secret)[^\n]{0,60}?)(?<![A-Za-z0-9/+])"
        r"(?=[A-Za-z/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"), keep=True,
      literals=("aws", "secret")),
    P("card_number", re.compile(
        r"(?<![\d-])(?:4\d{3}|5[1-5]\d{2}|2[2-7]\d{2}|3[47]\d{2}|6(?:011|5\d{2}))"
        r"(?:[ -]?\d){9,15}(?![\d-])"), check=_luhn, digits=True),
    P("national_id", re.compile(r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])"),
      digits=True),
]

PII_PATTERNS: list[Pattern] = [
    P("email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"),
      literals=("@",)),
    P("phone", re.compile(
        r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\d{2,4}[ .-])\d{3,4}[ .-]?\d{3,4}(?!\w)"),
      digits=True),
]


PLACEHOLDER = re.compile(r"\[REDACTED:[a-z_]+(?:#[0-9a-f]{4})?\]")
"""What ``_substitute`` writes (without the tag before tags existed). Redaction leaves it
alone wherever it meets one, so that scrubbing a text again (a summary of redacted messages,
an upsert of a search result) changes nothing: a placeholder is never taken for a secret,
nor cut by one."""


def _in_placeholder(m: re.Match[str], start: int) -> bool:
    """Whether ``m[start:]`` (its secret) overlaps a placeholder of the text it searched."""
    text = m.string
    if "[REDACTED:" not in text:
        return False
    return any(p.start() < m.end() and start < p.end() for p in PLACEHOLDER.finditer(text))


def _substitute(p: Pattern) -> Callable[[re.Match[str]], str]:
    """A replacement that tags the placeholder with 4 hex digits of the secret's SHA-256.

    Two different secrets then read differently (so "my key is now …" can supersede the
    old key) while the tag reveals nothing usable (16 bits of a hash). A match whose secret
    overlaps a placeholder already in the text is left as it is (``PLACEHOLDER``).
    """

    def sub(m: re.Match[str]) -> str:
        kept = m.group(1) if p.keep else ""
        secret = m.group(0)[len(kept):]
        if not secret:  # an empty match (a pattern such as x*, \b or .*) hides nothing
            return m.group(0)
        if (p.check is not None and not p.check(secret)) or _in_placeholder(m, m.start() + len(kept)):
            return m.group(0)
        tag = hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:4]
        return f"{kept}[REDACTED:{p.kind}#{tag}]"

    return sub


_DIGIT_RUN = re.compile(r"\d\d\d")


def _split_literals(patterns: list[Pattern]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """All literals of ``patterns``: those matched in lowercase, those matched as written."""
    lits = {lit for p in patterns for lit in p.literals or ()}
    exact = tuple(sorted(lit for lit in lits if lit != lit.lower()))
    return tuple(sorted(lits - set(exact))), exact


def _run(patterns: list[Pattern], text: str) -> tuple[str, int]:
    known = _LITERALS.get(id(patterns))
    lower_lits, exact_lits = known if known is not None else _split_literals(patterns)
    low = text.lower()
    # one pass over the literals, then each pattern asks a set: most messages skip them all
    present = {lit for lit in lower_lits if lit in low}
    present.update(lit for lit in exact_lits if lit in text)
    assigned = "=" in text or ":" in text
    digits = _DIGIT_RUN.search(text) is not None
    total = 0
    for p in patterns:
        if p.literals is not None and present.isdisjoint(p.literals):
            continue
        if (p.assigned and not assigned) or (p.digits and not digits):
            continue
        before = text
        text = p.regex.sub(_substitute(p), text)
        if text != before:
            total += text.count("[REDACTED:") - before.count("[REDACTED:")
    return text, total


# the built-in lists never change: their literals are split once
_LITERALS = {id(PATTERNS): _split_literals(PATTERNS), id(PII_PATTERNS): _split_literals(PII_PATTERNS)}


def redact(text: str) -> tuple[str, int]:
    """Return ``(redacted_text, number_of_secrets_replaced)`` for the built-in secret formats.

    Each secret becomes ``[REDACTED:<kind>#<tag>]``, the tag being 4 hex digits of its hash.
    """
    return _run(PATTERNS, text)


@functools.lru_cache(maxsize=16)
def _custom(patterns: tuple[str, ...]) -> list[Pattern]:
    return [Pattern("custom", re.compile(p)) for p in patterns]


def scrub(cfg: Any, text: str) -> tuple[str, int]:
    """The one redaction step of every write path, as ``[memory.ingest]`` configures it."""
    total = 0
    if cfg.redact_secrets:
        text, n = _run(PATTERNS, text)
        total += n
    if cfg.redact_pii:
        text, n = _run(PII_PATTERNS, text)
        total += n
    if cfg.redact_patterns:
        text, n = _run(_custom(tuple(cfg.redact_patterns)), text)
        total += n
    return text, total


def scrub_deep(cfg: Any, value: Any) -> Any:
    """``value`` with every string inside it scrubbed (dataclasses, dicts, lists, tuples)."""
    if isinstance(value, str):
        return scrub(cfg, value)[0]
    if isinstance(value, dict):
        return {k: scrub_deep(cfg, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub_deep(cfg, v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: scrub_deep(cfg, getattr(value, f.name))
                   for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value
