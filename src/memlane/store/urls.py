"""Database URLs shown to people: the password never in them, nor in an error quoting them.

psycopg-free, so ``parse_db_url`` can refuse a malformed PostgreSQL URL without PostgreSQL
support installed.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlencode

__all__ = ["passwords", "public_url", "scrub"]

_MASK = "***"


def _split(url: str) -> tuple[str, str, str]:
    """``scheme://``, the authority and the rest (path, query, fragment), without parsing
    anything that could fail (a URL that urllib refuses is still masked)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "", "", url
    end = len(rest)
    for ch in "/?#":
        i = rest.find(ch)
        if i != -1:
            end = min(end, i)
    return scheme + sep, rest[:end], rest[end:]


def passwords(url: str) -> list[str]:
    """Every password ``url`` holds (the authority's, a ``password=`` query parameter), as
    written and percent-decoded, longest first."""
    _, netloc, rest = _split(url)
    found: list[str] = []
    if "@" in netloc:
        auth = netloc.rsplit("@", 1)[0]
        if ":" in auth:
            found.append(auth.split(":", 1)[1])
    _, _, query = rest.partition("?")
    query = query.split("#", 1)[0]
    for part in query.split("&"):
        key, eq, value = part.partition("=")
        if eq and unquote(key) == "password":
            found.append(value)
    out = {p for p in found if p} | {unquote(p) for p in found if p}
    return sorted((p for p in out if p), key=len, reverse=True)


def public_url(url: str) -> str:
    """``url`` without its password (in the authority or as a query parameter).

    Never raises: a malformed URL (an unclosed ``[``, an ``@`` in the password) is masked
    all the same, everything between the user name and the last ``@`` of the authority.
    """
    scheme, netloc, rest = _split(url)
    if "@" in netloc:
        auth, host = netloc.rsplit("@", 1)
        netloc = auth.split(":", 1)[0] + "@" + host
    path, qmark, query = rest.partition("?")
    if qmark:
        query, hash_, fragment = query.partition("#")
        pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != "password"]
        rest = path + ("?" + urlencode(pairs) if pairs else "") + hash_ + fragment
    return scheme + netloc + rest


def scrub(text: str, url: str) -> str:
    """``text`` (a driver's error message) with every password of ``url`` masked: libpq
    quotes the token it could not read, which may be the password itself."""
    for secret in passwords(url):
        text = text.replace(secret, _MASK)
    return text
