"""A chat client for any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint.

Works with OpenAI, Groq, Together, OpenRouter and local servers that speak the same
protocol (Ollama's ``/v1``, vLLM, llama.cpp's ``llama-server``, LM Studio...).

- Every message's content goes through :func:`memlane.ingest.redact.redact` before it
  is sent: secrets never reach a model, whatever the caller passes.
- Retries 408/409/425/429/5xx, timeouts and connection failures with exponential backoff
  (with jitter); a ``Retry-After`` header is honoured (a hint longer than
  ``max_retry_after`` seconds raises :class:`LLMRateLimited` at once, so a queue can
  reschedule instead of blocking a worker).
- A client-side rate limit (``requests_per_minute``) spaces requests, across threads.
- ``json_mode=True`` sends ``response_format={"type": "json_object"}``; a server that
  answers 400 about ``response_format`` is asked again without it (and not again after);
  so is one refusing ``temperature`` (OpenAI's reasoning models take only the default), and
  one asking for ``max_completion_tokens`` instead of ``max_tokens`` gets it.
- A streamed answer (Server-Sent Events, from a server or proxy that streams though
  ``stream`` was not asked) is read as the one answer its chunks add up to.
- Errors name the URL and status and never contain the API key.
"""

from __future__ import annotations

import email.utils
import html
import json
import math
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from memlane.backends.http import AnswerTooLong, PooledHTTP
from memlane.backends.llm.base import _FENCE, strip_reasoning
from memlane.backends.llm.errors import (
    LLMBadResponse,
    LLMError,
    LLMHTTPError,
    LLMRateLimited,
    LLMTimeout,
)
from memlane.config import MAX_TIMEOUT
from memlane.ingest.redact import redact

if TYPE_CHECKING:
    from memlane.config import LLMServiceConfig

__all__ = ["OpenAIChat", "RateLimiter"]

_ENDPOINT = "/chat/completions"
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})


class RateLimiter:
    """A thread-safe token bucket: at most ``per_minute`` acquisitions a minute, spaced
    evenly (a bucket of ``burst`` tokens, refilled at ``per_minute / 60`` per second).

    ``per_minute <= 0`` disables it. ``clock`` and ``sleep`` are injectable for tests.
    """

    def __init__(
        self,
        per_minute: float,
        *,
        burst: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if per_minute < 0:
            raise ValueError("per_minute must be >= 0")
        if burst < 1:
            raise ValueError("burst must be >= 1")
        self.per_minute = float(per_minute)
        self.burst = float(burst)
        self._rate = self.per_minute / 60.0
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.burst
        self._updated = clock()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Take one token, sleeping until it is available; returns the seconds waited.

        Waiting callers reserve their slot first (the bucket may go negative), so
        concurrent threads are served in order and never at once.
        """
        if self._rate <= 0:
            return 0.0
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._updated) * self._rate)
            self._updated = now
            self._tokens -= 1.0
            wait = -self._tokens / self._rate if self._tokens < 0 else 0.0
        if wait > 0:
            self._sleep(wait)
        return wait


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # '-0000' (as Python's email.utils.formatdate writes): UTC
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - time.time())


def _from_event_stream(raw: bytes) -> dict[str, Any] | None:
    """A streamed answer (Server-Sent Events, ``data: {chunk}`` lines, as a server or proxy
    that streams whatever was asked sends) as the one non-streamed answer it adds up to (or
    the error object it ended in); None when ``raw`` is not such a stream."""
    text = raw.decode("utf-8", "replace")
    if not text.lstrip().startswith(("data:", "event:", ":")):
        return None
    parts: list[str] = []
    finish: Any = None
    seen = False
    for line in text.splitlines():
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if not data or data == "[DONE]":
            continue
        try:
            chunk = json.loads(data)
        except (ValueError, RecursionError):
            return None
        if isinstance(chunk, Mapping) and "error" in chunk and not chunk.get("choices"):
            return {"error": chunk["error"]}  # the stream ended in an error: said as one
        try:
            choices = chunk["choices"]
        except (KeyError, TypeError, IndexError):
            return None
        if isinstance(choices, list) and not choices:
            continue  # the usage chunk that ends a stream: {"choices": [], "usage": {...}}
        try:
            choice = choices[0]
        except (KeyError, IndexError, TypeError):
            return None
        if not isinstance(choice, Mapping):
            return None
        seen = True
        piece = choice.get("delta") or choice.get("message") or {}
        content = piece.get("content") if isinstance(piece, Mapping) else None
        if isinstance(content, str):
            parts.append(content)
        finish = choice.get("finish_reason") or finish
    if not seen:
        return None
    return {"choices": [{"message": {"role": "assistant", "content": "".join(parts)},
                         "finish_reason": finish}]}


def _error_in(body: Any) -> tuple[int | None, str] | None:
    """The code and message of an error object answered in place of an answer
    (``{"error": {"message": ..., "code": 503}}`` and no ``choices``), else None."""
    if not isinstance(body, Mapping) or "error" not in body or body.get("choices"):
        return None
    err = body["error"]
    if not isinstance(err, Mapping):
        return None, str(err)[:300]
    message = str(err.get("message") or err)[:300]
    for key in ("code", "status"):
        code = err.get(key)
        if isinstance(code, str) and code.isdigit():
            code = int(code)
        if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599:
            return code, f"{message} (code {code})"
    return None, message


# a refusal of the parameter itself, not any 400 whose text (an echo of the messages, say)
# holds the word: dropping it would change every answer after
_NO_TEMPERATURE = re.compile(
    r"temperature.{0,80}(?:unsupported|not supported|does not support|only the default)"
    r"|(?:unsupported|not supported)\W{0,20}(?:value|parameter)?\W{0,20}temperature", re.DOTALL)
_TOO_LONG = re.compile(
    r"context (?:length|size|window)|maximum context|too many tokens|prompt is too long"
    r"|input is too long|exceeds? the (?:available )?context", re.IGNORECASE)
_TAG = re.compile(r"<(script|style)\b.*?</\1\s*>|<[^>]*>", re.DOTALL | re.IGNORECASE)


def _one_line(text: str, content_type: str) -> str:
    """An error body as one line of a message: an HTML page (a proxy's 502 or 503) as its
    text without tags, whitespace collapsed (it was the page, tags and line breaks, in the
    failed session's reason)."""
    if "html" in content_type.lower() or text.lstrip().lower().startswith(("<!doctype", "<html")):
        text = html.unescape(_TAG.sub(" ", text))
    return " ".join(text.split())


def _why_no_text(message: Mapping[str, Any], reason: Any) -> str:
    """What an answer without text holds instead: a tool call (none was offered) or only
    the reasoning of a reasoning model (vLLM's ``reasoning_content``, Ollama's and
    OpenRouter's ``reasoning``), said so an operator knows what to change."""
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        names = [c.get("function", {}).get("name") for c in calls if isinstance(c, Mapping)
                 and isinstance(c.get("function"), Mapping)]
        shown = ", ".join(repr(n) for n in names if isinstance(n, str))[:200] or "unnamed"
        return (f"; it called a tool ({shown}) though none was offered: the server's "
                "tool-call parser took the answer for a call")
    for key in ("reasoning_content", "reasoning"):
        thought = message.get(key)
        if isinstance(thought, str) and thought.strip():
            cut = reason == "length"
            return (f"; only {len(thought):,} characters of reasoning"
                    + (", cut at the model's output limit before any answer: raise the "
                       "server's output token limit or turn the model's thinking off"
                       if cut else ""))
    return ""


def _whole_json(text: str) -> bool:
    """Whether an answer cut at the output limit still holds its whole JSON: the answer
    itself, a fenced block, or the value at its first ``{`` or ``[`` followed by the prose
    the cut fell in (after any reasoning block).

    Not ``base.extract_json``'s candidate walk, on purpose: that walk tries up to 64 starts
    and takes the first whole value, so in an answer cut inside its JSON it finds a whole
    inner object (``{"topic": …, "facts": [{"subject": "user"}, {"subj``) and the cut would
    go to repair turns, each cut the same. Here only the first start counts. Every answer
    this accepts, ``extract_json(text, want=None)`` reads (``tests/llm/
    test_openai_chat_wire.py`` holds both)."""
    cleaned = strip_reasoning(text)
    for candidate in [cleaned] + [m.group(1).strip() for m in _FENCE.finditer(cleaned)]:
        try:
            json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        return True
    starts = [i for i in (cleaned.find("{"), cleaned.find("[")) if i >= 0]
    if not starts:
        return False
    try:
        json.JSONDecoder().raw_decode(cleaned, min(starts))
    except (ValueError, RecursionError):
        return False
    return True


def _redact_content(content: Any) -> Any:
    if isinstance(content, str):
        return redact(content)[0]
    if isinstance(content, list):  # content parts: [{"type": "text", "text": "..."}]
        out = []
        for part in content:
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                part = {**part, "text": redact(part["text"])[0]}
            out.append(part)
        return out
    return content


class OpenAIChat(PooledHTTP):
    """Chat completions from an OpenAI-compatible HTTP API (implements the ``LLM`` seam).

    Args:
        base_url: the API root, e.g. ``https://api.openai.com/v1``,
            ``http://127.0.0.1:11434/v1`` (Ollama); ``/chat/completions`` is appended
            (a base_url that already ends in it is taken as the endpoint's whole URL).
        model: the model name sent with each request; ``name`` is ``f"openai:{model}"``.
        api_key: the bearer token; if None it is read from ``api_key_env``. With no key
            no ``Authorization`` header is sent (local servers need none).
        api_key_env: environment variable holding the key.
        timeout: seconds allowed for connecting and for each read of the answer.
        max_retries: retries after the first attempt on retryable failures.
        requests_per_minute: client-side rate limit; 0 means none.
        temperature: default sampling temperature (a call's ``temperature`` wins).
        backoff_base: first retry delay in seconds, doubled each retry.
        max_retry_after: the longest ``Retry-After`` waited for; longer raises at once.
        max_response_bytes: a longer answer raises ``LLMBadResponse`` (not read further).

    ``timeout`` bounds the whole answer of one attempt, not each read: a server that
    trickles its answer is cut off once it has taken ``timeout`` seconds (give or take
    one read of at most ``timeout``).

    Thread-safe; close with :meth:`close` or use as a context manager.
    """

    _accept_json = True

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 60.0,
        max_retries: int = 3,
        requests_per_minute: float = 0.0,
        temperature: float = 0.0,
        backoff_base: float = 0.5,
        max_retry_after: float = 60.0,
        max_response_bytes: int = 8_000_000,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL like 'http://127.0.0.1:8080/v1', "
                             f"got {base_url!r}")
        if not model:
            raise ValueError("model is required, e.g. 'gpt-4o-mini' or 'llama3.1:8b'")
        if not 0 < timeout <= MAX_TIMEOUT or max_retries < 0 or requests_per_minute < 0 \
                or backoff_base < 0:
            raise ValueError(f"timeout must be > 0 and at most {MAX_TIMEOUT:,.0f}, got "
                             f"{timeout!r}; max_retries, requests_per_minute and "
                             "backoff_base must be >= 0")
        if not urlsplit(base_url).hostname:
            raise ValueError(f"base_url names no host, got {base_url!r} "
                             "(e.g. 'http://127.0.0.1:11434/v1')")
        if max_response_bytes < 1:
            raise ValueError(f"max_response_bytes must be >= 1, got {max_response_bytes!r}")
        self.base_url = base_url.rstrip("/")
        if self.base_url.endswith(_ENDPOINT):  # the endpoint's whole URL, pasted as the root
            self.base_url = self.base_url[: -len(_ENDPOINT)]
        self._endpoint = f"{self.base_url}{_ENDPOINT}"
        self.model = model
        self.name = f"openai:{model}"
        self.max_retries = int(max_retries)
        self.temperature = float(temperature)
        self.backoff_base = float(backoff_base)
        self.max_retry_after = float(max_retry_after)
        self.max_response_bytes = int(max_response_bytes)
        self.limiter = RateLimiter(requests_per_minute)
        self._init_http(api_key, api_key_env, timeout)
        # what errors, logs and repr show: a proxy's password in the URL is ***
        self.base_url = self._shown(self.base_url)
        self.url = self._shown(self._endpoint)
        self._json_mode_supported = True
        self._send_temperature = True  # until a server refuses it (see _adjust)
        self._tokens_key = "max_tokens"

    @classmethod
    def from_config(cls, service: LLMServiceConfig, model_override: str = "") -> OpenAIChat:
        """A client for one ``[llm.services.NAME]`` table (``model_override`` wins over its
        model when not empty)."""
        return cls(
            service.base_url,
            model_override or service.model,
            api_key_env=service.api_key_env,
            timeout=service.timeout_seconds,
            max_retries=service.max_retries,
            requests_per_minute=service.requests_per_minute,
            temperature=service.temperature,
        )

    # -- lifecycle -----------------------------------------------------------------
    def __repr__(self) -> str:
        return f"OpenAIChat(base_url={self.base_url!r}, model={self.model!r})"

    # -- requests ------------------------------------------------------------------
    def _payload(
        self,
        messages: Sequence[Mapping[str, Any]],
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
    ) -> dict[str, Any]:
        sent = []
        for i, m in enumerate(messages):
            if not isinstance(m, Mapping) or "role" not in m:
                raise ValueError(f"messages[{i}] must be a dict with 'role' and 'content'")
            sent.append({**m, "content": _redact_content(m.get("content"))})
        payload: dict[str, Any] = {"model": self.model, "messages": sent}
        if self._send_temperature:
            payload["temperature"] = self.temperature if temperature is None else float(temperature)
        if max_tokens is not None:
            payload[self._tokens_key] = int(max_tokens)
        if json_mode and self._json_mode_supported:
            payload["response_format"] = {"type": "json_object"}
        return payload

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> str:
        """The assistant's reply to ``messages`` (OpenAI chat format), redacted first.

        Raises ``LLMTimeout``, ``LLMRateLimited``, ``LLMHTTPError`` (``.status``),
        ``LLMBadResponse`` (no usable content) or ``LLMError`` (unreachable).
        """
        if not messages:
            raise ValueError("messages must not be empty")
        payload = self._payload(messages, temperature, max_tokens, json_mode)
        body = self._post(payload)
        return self._content(body, json_mode=json_mode)

    def _post(self, payload: dict[str, Any]) -> Any:
        self._http()  # open the client (~0.1 s) before the rate limiter times the request
        attempt = 0
        while True:
            self.limiter.acquire()
            # doubled each retry up to max_retry_after (2**attempt past 1023 overflowed a
            # float: max_retries = 1100 raised OverflowError instead of the endpoint's error)
            delay = min(self.backoff_base * 2.0 ** min(attempt, 64), self.max_retry_after)
            delay *= random.uniform(0.75, 1.0)
            error: LLMError
            try:
                resp, raw = self._send(self._endpoint, payload, self.max_response_bytes)
            except AnswerTooLong as exc:
                raise LLMBadResponse(self._scrub(str(exc))) from None
            except httpx.TimeoutException as exc:
                detail = f": {exc}" if str(exc).startswith("the answer took") else ""
                error = LLMTimeout(
                    f"POST {self.url}: no answer within {self.timeout:g}s "
                    f"({type(exc).__name__}{detail})"
                )
            except httpx.TransportError as exc:
                detail = self._scrub(str(exc)) or "no detail"
                what = ("could not connect" if isinstance(exc, httpx.ConnectError)
                        else "the connection failed")
                error = LLMError(f"POST {self.url}: {what}: {type(exc).__name__}: {detail}")
            else:
                text = self._scrub(raw[:500].decode("utf-8", "replace").strip())
                if resp.status_code == 200:
                    try:
                        body = json.loads(raw)
                    except RecursionError:
                        raise LLMBadResponse(
                            f"POST {self.url} returned 200 with JSON nested too deeply to read: "
                            f"{text[:100]!r}"
                        ) from None
                    except ValueError as exc:
                        streamed = _from_event_stream(raw)
                        if streamed is None:
                            raise LLMBadResponse(
                                f"POST {self.url} returned 200 with a body that is not JSON: "
                                f"{text[:200]!r}"
                            ) from exc
                        body = streamed
                    failed = _error_in(body)
                    if failed is None:
                        return body
                    # an error object where the answer should be (proxies, some local
                    # servers): said as such, retried when its code is one to retry
                    code, message = failed
                    problem = (f"POST {self.url} returned HTTP 200 with an error instead of "
                               f"an answer: {self._scrub(message)}")
                    if code not in _RETRY_STATUS:
                        raise LLMBadResponse(problem)
                    error = (LLMRateLimited(problem, url=self.url) if code == 429
                             else LLMHTTPError(problem, status=code, url=self.url))
                elif resp.status_code == 400 and (adjusted := self._adjust(payload, text)):
                    payload = adjusted  # asked again as the server takes it (not a retry)
                    continue
                else:
                    status = resp.status_code
                    problem = f"POST {self.url} failed with HTTP {status}"
                    shown = _one_line(text, resp.headers.get("Content-Type", ""))
                    if shown:
                        problem += f": {shown}"
                    if status in (400, 413, 422) and _TOO_LONG.search(text):
                        problem += (" (the request is longer than the model's context: lower "
                                    "memory.indexing.max_input_tokens or raise the server's context "
                                    "size)")
                    where = resp.headers.get("Location")
                    if 300 <= status < 400 and where:  # http -> https, a moved host: not followed
                        problem += (f" (redirected to {self._scrub(where)[:200]}, not followed: "
                                    "set base_url to where it points)")
                    if status == 404 and not self.base_url.endswith("/v1"):
                        problem += (f" (base_url {self.base_url!r} does not end in /v1: Ollama, "
                                    "vLLM, llama.cpp and LM Studio serve http://HOST:PORT/v1)")
                    after = _retry_after(resp.headers.get("Retry-After"))
                    if status == 429:
                        if after is not None and after > self.max_retry_after:
                            raise LLMRateLimited(
                                f"{problem} (Retry-After {after:g}s is longer than the "
                                f"{self.max_retry_after:g}s this client waits)",
                                url=self.url, retry_after=after,
                            )
                        error = LLMRateLimited(problem, url=self.url, retry_after=after)
                    else:
                        error = LLMHTTPError(problem, status=status, url=self.url)
                    if status not in _RETRY_STATUS:
                        raise error
                    if after is not None:
                        delay = min(after, self.max_retry_after)
            if attempt >= self.max_retries:
                if attempt:
                    error.args = (f"{error.args[0]} (after {attempt + 1} attempts)",)
                raise error
            time.sleep(delay)
            attempt += 1

    def _adjust(self, payload: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The request as the server takes it, after a 400 refusing one of its parameters
        (remembered for the requests after), or None when the 400 is about something else:
        JSON mode (some local servers), ``max_tokens`` for ``max_completion_tokens`` and a
        temperature other than the default (OpenAI's reasoning models: o1, o3, gpt-5)."""
        low = text.lower()
        if "response_format" in payload and "response_format" in low:
            self._json_mode_supported = False
            return {k: v for k, v in payload.items() if k != "response_format"}
        if "max_tokens" in payload and "max_completion_tokens" in low:
            self._tokens_key = "max_completion_tokens"
            out = {k: v for k, v in payload.items() if k != "max_tokens"}
            return {**out, "max_completion_tokens": payload["max_tokens"]}
        if "temperature" in payload and _NO_TEMPERATURE.search(low):
            self._send_temperature = False
            return {k: v for k, v in payload.items() if k != "temperature"}
        return None

    def _content(self, body: Any, *, json_mode: bool = False) -> str:
        try:
            choice = body["choices"][0]
            message = choice["message"]
            content = message.get("content")
        except (KeyError, IndexError, TypeError, AttributeError):
            raise LLMBadResponse(
                f"POST {self.url} returned 200 without choices[0].message: "
                f"{self._scrub(str(body)[:200])!r}"
            ) from None
        if isinstance(content, list):  # some servers answer in content parts
            content = "".join(
                p["text"] for p in content
                if isinstance(p, Mapping) and isinstance(p.get("text"), str)
            )
        if content is not None and not isinstance(content, str):
            raise LLMBadResponse(
                f"POST {self.url} returned 200 with choices[0].message.content a "
                f"{type(content).__name__}, not text: {self._scrub(str(content)[:200])!r}"
            )
        if not isinstance(content, str) or not content.strip():
            reason = choice.get("finish_reason") if isinstance(choice, Mapping) else None
            refusal = message.get("refusal") if isinstance(message, Mapping) else None
            why = f"refusal: {refusal!r}" if refusal else f"finish_reason={reason!r}"
            if not refusal and isinstance(message, Mapping):
                why += _why_no_text(message, reason)
            raise LLMBadResponse(f"POST {self.url} returned an empty answer ({why})", reply="")
        if json_mode and choice.get("finish_reason") == "length" and not _whole_json(content):
            # cut at the output limit: asking again (a repair turn) gets the same cut
            raise LLMBadResponse(
                f"POST {self.url}: the answer was cut at the model's output limit "
                f"(finish_reason='length') after {len(content):,} characters and is no "
                "whole JSON; raise the server's output token limit or lower "
                "memory.indexing.max_input_tokens", reply=content[:2000],
            )
        return content
