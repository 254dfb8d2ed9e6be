"""How a browser signs in to the inspector: the same API keys, kept in a cookie.

A browser cannot put ``Authorization: Bearer`` on a link or on an ``EventSource``, so the
sign-in form stores the key in the ``memlane_key`` cookie (HttpOnly: page scripts cannot
read it; SameSite=Strict: other sites' pages cannot send it; Secure over HTTPS). The
service's authentication (``memlane.serve.http.auth``) takes that cookie in place of the
header for reads (GET, HEAD) and for the inspector's own forms once their CSRF token has
been checked here, so a key sees exactly the scopes it holds, in the pages and in the live
stream alike.

The CSRF token of a form is derived from the signed-in key; on an open service (no keys)
it is a random value also set in the ``memlane_csrf`` cookie (SameSite=Strict), checked
against it on submit (double submit). Either way a page of another site can neither read
nor guess it, and every process of ``memlane serve --workers N`` accepts it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from fastapi import Request, Response

from memlane.serve.again import once_more_if_lost
from memlane.serve.http.auth import COOKIE, Principal, checked_key, principal
from memlane.serve.http.errors import ApiError
from memlane.serve.keys import hash_key

__all__ = ["COOKIE", "CSRF_COOKIE", "check_csrf", "csrf_token", "form_principal",
           "set_csrf_cookie", "sign_in", "sign_out", "signed_in"]


CSRF_COOKIE = "memlane_csrf"


def signed_in(request: Request) -> bool:
    return bool(request.cookies.get(COOKIE))


def csrf_token(request: Request) -> str:
    """The token the inspector's forms carry for this browser."""
    key = request.cookies.get(COOKIE)
    if key:
        return hashlib.sha256(b"memlane-inspector-csrf:" + key.encode("utf-8")).hexdigest()[:40]
    token = request.cookies.get(CSRF_COOKIE) or getattr(request.state, "new_csrf", None)
    if not token:
        token = request.state.new_csrf = secrets.token_hex(20)
    return token


def set_csrf_cookie(request: Request, response: Response) -> None:
    """Send the open service's CSRF cookie when this request made a new token."""
    token = getattr(request.state, "new_csrf", None)
    if token:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")


def check_csrf(request: Request, form: dict[str, str]) -> None:
    """403 unless the form carries this browser's CSRF token."""
    sent = form.get("csrf", "")
    want = (csrf_token(request) if request.cookies.get(COOKIE)
            else request.cookies.get(CSRF_COOKIE, ""))
    if not sent or not want or not hmac.compare_digest(sent, want):
        raise ApiError(403, "forbidden", "the form's CSRF token is missing or stale: reload the "
                       "page and submit it again", "csrf")


def form_principal(request: Request, form: dict[str, str]) -> Principal:
    """The caller of a form post: its CSRF token checked, then the usual authentication."""
    check_csrf(request, form)
    request.state.csrf_ok = True
    return principal(request)


def sign_in(request: Request, response: Response, key: str) -> dict[str, Any]:
    """Check ``key`` against the stored keys and set the cookie; returns the key's row."""
    key = key.strip()
    if not key:
        raise ApiError(400, "invalid", "key: paste an API key (memlane keys create makes one)",
                       "key")
    store = request.app.state.memory.store

    def find() -> dict[str, Any]:
        row = once_more_if_lost(store, "inspector sign-in",
                                lambda: store.api_key_by_hash(hash_key(key)), write=False)
        if row is None:
            raise ApiError(401, "unauthorized", "unknown or revoked API key", "key")
        return row

    # a guess a form post: limited as the header's (serve.failed_auth_limit)
    row: dict[str, Any] = checked_key(request, find, True)
    response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")
    return row


def sign_out(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
