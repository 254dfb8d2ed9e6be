"""The errors an LLM backend raises; all are ``BackendError``\\ s.

    BackendError (memlane.errors)
    └── LLMError              the model could not be reached or did not answer usefully
        ├── LLMTimeout        no answer within the timeout (after the retries)
        ├── LLMHTTPError      the endpoint answered with an error status (``.status``)
        │   └── LLMRateLimited  HTTP 429 after the retries, or a Retry-After too long to wait
        └── LLMBadResponse    an answer arrived but is unusable (no content, invalid JSON)

Messages name the URL and the status, never the API key.
"""

from __future__ import annotations

from memlane.errors import BackendError

__all__ = ["LLMBadResponse", "LLMError", "LLMHTTPError", "LLMRateLimited", "LLMTimeout"]


class LLMError(BackendError):
    """An LLM backend failed (also raised as-is when the endpoint cannot be reached)."""


class LLMTimeout(LLMError):
    """The endpoint did not answer within the configured timeout."""


class LLMHTTPError(LLMError):
    """The endpoint answered with an HTTP error; ``status`` is the code, ``url`` the URL."""

    def __init__(self, message: str, *, status: int, url: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.url = url


class LLMRateLimited(LLMHTTPError):
    """HTTP 429 that outlasted the retries; ``retry_after`` is the server's hint in seconds
    (None when it gave none)."""

    def __init__(
        self, message: str, *, status: int = 429, url: str = "", retry_after: float | None = None
    ) -> None:
        super().__init__(message, status=status, url=url)
        self.retry_after = retry_after


class LLMBadResponse(LLMError):
    """The model answered, but not with something usable; ``reply`` holds the last answer
    (possibly truncated) when there was one."""

    def __init__(self, message: str, *, reply: str | None = None) -> None:
        super().__init__(message)
        self.reply = reply
