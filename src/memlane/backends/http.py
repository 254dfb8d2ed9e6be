"""The pooled HTTP client that memlane's OpenAI-compatible backends share.

One ``httpx.Client`` per backend object, opened on first use, thread-safe, closed by
``close()`` (or the context manager, or when the object is dropped); the API key is sent
as a bearer token when set and scrubbed from any text shown to a user. ``_send`` reads an
answer within the timeout and a size limit, both for the whole answer.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Any, Self
from urllib.parse import unquote, urlsplit, urlunsplit

import httpx

from memlane.errors import ConfigError

__all__ = ["AnswerTooLong", "PooledHTTP"]


class AnswerTooLong(Exception):
    """An answer longer than the caller's limit (it was not read further)."""


class PooledHTTP:
    """Mixed into a backend: call ``_init_http`` in its constructor."""

    timeout: float
    _accept_json: bool = False

    def _init_http(self, api_key: str | None, api_key_env: str, timeout: float) -> None:
        self.timeout = float(timeout)
        key = api_key if api_key is not None else os.environ.get(api_key_env)
        # a key read from a file or a secret keeps its newline ('sk-…\n'): it failed every
        # request as an illegal header, and that error showed the key whole
        key = key.strip() if key else None
        bad = next((i for i, c in enumerate(key or "") if not " " < c < "\x7f"), None)
        if bad is not None:
            where = "api_key" if api_key is not None else f"${api_key_env}"
            raise ConfigError(f"the API key in {where} has a character an HTTP header cannot "
                             f"carry at position {bad + 1} (a space, a control character or "
                             "a letter outside ASCII); the key is not shown")
        self._api_key = key or None
        self._url_secrets: list[str] = []
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                headers = {"Content-Type": "application/json"}
                if self._accept_json:
                    headers["Accept"] = "application/json"
                if self._api_key:
                    headers["Authorization"] = f"Bearer {self._api_key}"
                self._client = httpx.Client(timeout=self.timeout, headers=headers)
            return self._client

    def _send(self, url: str, payload: Any, max_bytes: int) -> tuple[httpx.Response, bytes]:
        """POST ``payload`` as JSON to ``url`` and read the whole answer: the response (its
        body already read) and the body's bytes.

        httpx's timeout bounds each read, not the answer: a server sending a byte at a time,
        or without end, would hold the caller forever. Here the answer must arrive within
        ``timeout`` seconds (checked after each read, so give or take one read of at most
        ``timeout``), else ``httpx.ReadTimeout``; past ``max_bytes`` bytes it raises
        ``AnswerTooLong``.
        """
        deadline = time.monotonic() + self.timeout
        parts = urlsplit(url)
        extra: dict[str, Any] = {}
        if "@" in parts.netloc:  # user:password@ as basic auth, so httpx's log never has it
            extra["auth"] = (unquote(parts.username or ""), unquote(parts.password or ""))
            url = urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
        with self._http().stream("POST", url, json=payload, **extra) as resp:
            chunks: list[bytes] = []
            size = 0
            for chunk in resp.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise AnswerTooLong(
                        f"POST {url}: the answer is longer than {max_bytes:,} bytes "
                        f"(HTTP {resp.status_code}); not read further"
                    )
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout(
                        f"the answer took longer than {self.timeout:g}s to arrive "
                        f"({size:,} bytes so far)"
                    )
        return resp, b"".join(chunks)

    def close(self) -> None:
        """Close the HTTP connection pool (it is reopened if the object is used again)."""
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __del__(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            with contextlib.suppress(Exception):  # e.g. at interpreter shutdown
                client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _scrub(self, text: str) -> str:
        """``text`` with the API key, if any, and any password of the URL replaced by
        ``***``."""
        if self._api_key:
            text = text.replace(self._api_key, "***")
        for secret in getattr(self, "_url_secrets", ()):
            text = text.replace(secret, "***")
        return text

    def _shown(self, url: str) -> str:
        """``url`` as errors, logs and ``repr`` show it: a password in it
        (``http://user:PASSWORD@proxy/v1``, a proxy's basic auth) is ``***`` and scrubbed
        from any text shown later."""
        parts = urlsplit(url)
        if parts.password is None:
            return url
        if parts.password and parts.password not in self._url_secrets:
            self._url_secrets.append(parts.password)
        user = parts.username or ""
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
