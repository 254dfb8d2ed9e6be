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
    r"|aws_secret_access_key"
    # session cookies and ids: sessionid=, "session_id": …, PHPSESSID=, connect.sid=, _app_session=
    r"|session[_-]?(?:id|key|token|secret)|sess(?:ion)?id|sid|_session)"
)

# An assigned value: the whole of a quoted one (spaces and all, to its closing quote on the
# same line: group ``q`` holds the opening quote, with its backslashes when the text is JSON
# inside a string), or an unquoted run. A value whose quote is never closed is taken as an
# unquoted run, quote included.
_NAME_END = r"""\\*["']?\s*[:=]\s*(?P<q>\\*["'])?"""


def _value(quoted: str, unquoted: str) -> str:
    return rf"(?(q)(?:(?!(?P=q)).){quoted}(?=(?P=q))|[\"']?{unquoted})"


# the user's words for a password or key said in prose: "my wifi password is Tr0ub4dor&3"
_FOR = r"(?:\s+(?:for|of|to|on)\s+(?:the\s+|my\s+|our\s+|your\s+)?[\w.@-]+)?"
_SAID = r"\s+(?:is|was)\s+(?:now\s+|still\s+|just\s+)?(?P<q>[\"'`])?"

P = Pattern
PATTERNS: list[Pattern] = [
    P("private_key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)"), literals=("private key",)),
    P("webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+"),
      literals=("hooks.slack.com",)),
    # a URL's password: no user (redis://:pw@host), or an @ inside it (to the last @ before the host)
    P("password", re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)[^\s/]+(?=@)"), keep=True,
      literals=("://",)),
    P("password", re.compile(r"((?<!\S)(?:-u|--user)(?:\s+|=)[\"']?[^\s:\"'/]+:)[^\s\"']+"), keep=True,
      literals=("-u",)),  # curl -u user:password
    P("password", re.compile(r"(\bmysql(?:dump|admin|sh)?\b[^\n]*?\s-p)(?=\S)[^\s\"']+"), keep=True,
      literals=("mysql",)),  # mysql -pPASSWORD (a space after -p means "ask me")
    P("password", re.compile(r"(\bsshpass\s+-p\s*[\"']?)[^\s\"']+"), keep=True, literals=("sshpass",)),
    P("connection_string", re.compile(
        r"(?i)((?:AccountKey|SharedAccessKey|SharedAccessSignature|sig|(?<![a-z])(?:x-amz-)?signature)=)"
        r"[A-Za-z0-9+/%=&-]{16,}"),
      keep=True, literals=("accountkey", "sharedaccess", "sig=", "signature=")),
    # a token holds a digit or a symbol: "bearer authorization" is two words
    P("bearer_token", re.compile(r"(?i)(\bbearer\s+)(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{12,}"),
      keep=True, literals=("bearer",)),
    # any other scheme of an Authorization header: Basic (base64 of user:password), Token, none
    P("token", re.compile(
        r"(?i)(\b(?:proxy-)?authorization\\?[\"']?\s*[:=]\s*\\?[\"']?"
        r"(?:(?:basic|token|digest|negotiate|ntlm|apikey|api-key|sso-key|key)\s+)?)"
        r"(?!bearer\s)(?=[A-Za-z]*[0-9._~+/=:-])[A-Za-z0-9._~+/=:-]{8,}"), keep=True,
      literals=("authorization",)),
    # a Cookie or Set-Cookie header: every name=value pair on it is a session's credential
    # (the pairs alone: the rest of the line may name another secret, JWT_SECRET='…')
    P("cookie", re.compile(
        r"(?i)(\b(?:set-)?cookie\\?[\"']?\s*:\s*\\?[\"']?)"
        r"[^\s=;,\"'\\]+=[^\s;\"'\\]*(?:;[ \t]*[^\s=;,\"'\\]+=[^\s;\"'\\]*)*"),
      keep=True, literals=("cookie",)),
    P("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.(?:[A-Za-z0-9_-]{8,})?"),
      literals=("eyj",)),  # an unsigned JWT (alg none) ends at its second dot
    P("api_key", re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}"), literals=("sk-",)),
    P("api_key", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
      literals=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    P("api_key", re.compile(r"\bgl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|agent|oas)-[A-Za-z0-9_-]{20,}"),
      literals=tuple(f"gl{k}-" for k in ("pat", "dt", "rt", "ptt", "cbt", "imt", "soat", "ffct",
                                          "agent", "oas"))),
    P("api_key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), literals=("akia", "asia")),
    P("api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"), literals=("aiza",)),
    P("api_key", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), literals=("xox",)),
    P("api_key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
      literals=("_live_", "_test_")),
    P("api_key", re.compile(r"\bSK[0-9a-fA-F]{32}\b"), literals=("SK",)),  # Twilio API key
    P("api_key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}"), literals=("SG.",)),
    P("api_key", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), literals=("npm_",)),
    P("api_key", re.compile(r"\bpypi-[A-Za-z0-9_-]{50,}"), literals=("pypi-",)),
    P("api_key", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"), literals=("hf_",)),
    P("api_key", re.compile(r"\b(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,})"),
      literals=("gocspx-", "ya29.")),  # Google OAuth client secrets and access tokens
    P("api_key", re.compile(r"\bxapp-\d-[A-Za-z0-9-]{10,}"), literals=("xapp-",)),  # Slack app token
    P("api_key", re.compile(r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])"), literals=(":aa",)),
    P("api_key", re.compile(  # Stripe webhook secrets, Docker Hub, Linear, Notion, Grafana, Sentry
        r"\b(?:whsec_[A-Za-z0-9+/=]{20,}|dckr_pat_[A-Za-z0-9_-]{20,}|lin_api_[A-Za-z0-9]{30,}"
        r"|ntn_[A-Za-z0-9]{40,}|glsa_[A-Za-z0-9_]{32,}|sntry[su]_[A-Za-z0-9+/=_-]{30,})"),
      literals=("whsec_", "dckr_pat_", "lin_api_", "ntn_", "glsa_", "sntrys_", "sntryu_")),
    # the model providers memlane's chat client is pointed at: Groq, xAI, Perplexity, Replicate
    P("api_key", re.compile(r"\b(?:gsk_|xai-|pplx-|r8_)[A-Za-z0-9]{20,}"),
      literals=("gsk_", "xai-", "pplx-", "r8_")),
    # memlane's own API keys (serve.keys: ml_ and 43 URL-safe characters): one pasted into a
    # conversation was stored and served as written (session 27). Random, so one holds a
    # capital letter (all but 1 in 5 billion): a snake_case or kebab-case name of that
    # length (ml_customer_churn_model_training_pipeline_v2_1, a file's name) is no key
    P("api_key", re.compile(r"(?<![A-Za-z0-9])ml_(?=[A-Za-z0-9_-]{0,42}[A-Z])[A-Za-z0-9_-]{43}"
                            r"(?![A-Za-z0-9_-])"), literals=("ml_",)),
    P("api_key", re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b"), literals=("_v1_",)),
    P("api_key", re.compile(r"\bdapi[a-f0-9]{32}(?:-\d+)?\b"), literals=("dapi",)),
    P("api_key", re.compile(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"), literals=("shp",)),
    P("token", re.compile(r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}"
                          r"\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])"), literals=(".",)),
    # an environment or config line, NAME=value with NAME in capitals ending in a secret's
    # word (STRIPE_KEY, DB_PASS, SECRET_KEY, SENTRY_DSN): the whole value, whatever it holds
    P("secret", re.compile(
        r"(?<![A-Za-z0-9_])((?:[A-Z0-9]+_)*(?:KEY|SECRET|TOKEN|PASS|PASSWORD|PASSWD|PWD|PASSPHRASE"
        r"|CREDENTIALS?|AUTH|SALT|DSN|COOKIE|SESSIONID)(?:_BASE)?" + _NAME_END + ")"
        + _value("{1,400}", r"[^\s\"']{3,}")), keep=True,
      literals=("KEY", "SECRET", "TOKEN", "PASS", "PWD", "CREDENTIAL", "AUTH", "SALT", "DSN",
                "COOKIE", "SESSIONID"), assigned=True),
    P("password", re.compile(
        r"(?i)((?<![a-z0-9@._-])[a-z0-9_.-]*?(?:password|passwd|pwd|passphrase)" + _NAME_END + ")"
        + _value("{1,200}", r"[^\s\"',;]{3,}")), keep=True, literals=("passw", "pwd", "passphrase"),
      assigned=True),
    P("secret", re.compile(
        r"(?i)((?<![a-z0-9@._-])[a-z0-9_.-]*?" + _ASSIGNED + _NAME_END + ")"
        + _value("{8,400}", r"[A-Za-z0-9._~+/=%!@#$^*?|-]{8,}")), keep=True,
      literals=("key", "secret", "token", "credential", "session_", "session-", "sessionid",
                "sessionkey", "sessiontoken", "sessionsecret", "sessid", "_session", "sid=",
                "sid:", 'sid"', "sid'", "sid ="), assigned=True),
    # said in prose: "the wifi password is Tr0ub4dor&3" (a word of letters alone reads as a
    # word, not a password: "my password is wrong"), "my API key is 3ax6xnjp29jd6fds4gc3"
    P("password", re.compile(
        r"(?i)(\b(?:password|passwd|passphrase|passcode|pwd|pw)" + _FOR + _SAID + ")"
        r"(?(q)(?:(?!(?P=q)).){1,100}(?=(?P=q))"
        r"|(?=[^\s\"'`]*[0-9@#$%^&*_+=~])[^\s\"'`]{4,64}?(?=[.,;:!?)]*(?:\s|$)))"), keep=True,
      literals=("passw", "passphrase", "passcode", "pwd", "pw")),
    P("secret", re.compile(
        r"(?i)(\b(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|(?:auth[ _-]?|access[ _-]?)?token"
        r"|client[ _-]?secret|credentials?)" + _FOR + _SAID + ")"
        r"(?=[A-Za-z0-9._~+/=-]*\d)(?=[A-Za-z0-9._~+/=-]*[A-Za-z])[A-Za-z0-9._~+/=-]{16,}"), keep=True,
      literals=("key", "secret", "token", "credential")),
    P("password", re.compile(r"(?i)(\bpin(?:\s+(?:code|number))?(?:\s+(?:is|was)|\s*[:=])\s+)\d{4,8}\b"),
      keep=True, literals=("pin",), digits=True),
    P("secret", re.compile(  # an AWS secret key written in prose: "my aws secret is wJal…"
        r"(?i)((?:aws|secret)[^\n]{0,60}?)(?<![A-Za-z0-9/+])"
        r"(?=[A-Za-z/+]{0,39}[0-9])(?![0-9a-f]{40}(?![A-Za-z0-9/+=]))"  # a git commit's hash is hex
        r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"), keep=True,
      literals=("aws", "secret")),
    P("card_number", re.compile(  # a number of its own: not the digits ending a git hash
        r"(?<![\w-])(?:4\d{3}|5[1-5]\d{2}|2[2-7]\d{2}|3[47]\d{2}|6(?:011|5\d{2}|4[4-9]\d|2\d{2})"
        r"|35(?:2[89]|[3-8]\d)|3(?:0[0-5]|[689]\d)\d)"  # also JCB, Diners, UnionPay, Discover 644-649
        r"(?:[ -]?\d){9,15}(?![\w-])"), check=_luhn, digits=True),
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


_RAREST_FIRST = "_=:.-\"'/+@#%!?$&*;,0123456789zqxjkvbpygfwmucldrhsnioate"
"""Characters from the rarest in chat text to the commonest: a literal is looked for only
in a text holding its rarest character (``_split_literals``)."""


@dataclasses.dataclass(frozen=True)
class _Literals:
    """The literals of a list of patterns, found in a text at the cost of a few substring
    searches: those matched in lowercase and those matched as written, each grouped under
    its rarest character (a text that lacks it skips the group), and which patterns each
    literal lets run (``always``: the patterns without literals)."""

    lower: dict[str, tuple[str, ...]]
    exact: dict[str, tuple[str, ...]]
    patterns: dict[str, tuple[int, ...]]
    always: tuple[int, ...]

    def chosen(self, text: str, low: str) -> list[int]:
        """The places of the patterns whose literals ``text`` holds, in order."""
        chars = set(low)
        chosen = set(self.always)
        for key, group in self.lower.items():
            if key in chars:
                for lit in group:
                    if lit in low:
                        chosen.update(self.patterns[lit])
        for key, group in self.exact.items():
            if key in chars:
                for lit in group:
                    if lit in text:
                        chosen.update(self.patterns[lit])
        return sorted(chosen)


def _split_literals(patterns: list[Pattern]) -> _Literals:
    lits = {lit for p in patterns for lit in p.literals or ()}
    exact = {lit for lit in lits if lit != lit.lower()}

    def grouped(chosen: set[str]) -> dict[str, tuple[str, ...]]:
        groups: dict[str, list[str]] = {}
        for lit in sorted(chosen):
            key = min(lit.lower(), key=lambda c: (_RAREST_FIRST + c).index(c))
            groups.setdefault(key, []).append(lit)
        return {key: tuple(found) for key, found in groups.items()}

    return _Literals(
        grouped(lits - exact), grouped(exact),
        {lit: tuple(i for i, p in enumerate(patterns) if lit in (p.literals or ())) for lit in lits},
        tuple(i for i, p in enumerate(patterns) if p.literals is None))


def _run(patterns: list[Pattern], text: str) -> tuple[str, int]:
    known = _LITERALS.get(id(patterns))
    literals = known if known is not None else _split_literals(patterns)
    # one pass over the literals chooses the patterns to run: most messages run none
    chosen = literals.chosen(text, text.lower())
    if not chosen:
        return text, 0
    assigned = "=" in text or ":" in text
    digits = _DIGIT_RUN.search(text) is not None
    total = 0
    for i in chosen:
        p = patterns[i]
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
    """``value`` with every string inside it scrubbed (dataclasses, dicts and their keys,
    lists, tuples)."""
    if isinstance(value, str):
        return scrub(cfg, value)[0]
    if isinstance(value, dict):  # a key is text too: {"ghp_…": 1} kept the token
        return {scrub(cfg, k)[0] if isinstance(k, str) else k: scrub_deep(cfg, v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub_deep(cfg, v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: scrub_deep(cfg, getattr(value, f.name))
                   for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value
