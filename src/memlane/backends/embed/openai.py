"""An embedder for any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

Works with OpenAI itself and with local servers that speak the same protocol
(llama.cpp, vLLM, Ollama's ``/v1``, text-embeddings-inference...). Retries 429, 5xx and
connection failures with exponential backoff; never puts the API key in a message.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from memlane.backends.http import AnswerTooLong, PooledHTTP
from memlane.errors import EmbeddingError

__all__ = ["OpenAIEmbedder"]

_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
_MAX_RETRY_AFTER = 30.0


class OpenAIEmbedder(PooledHTTP):
    """Embeddings from an OpenAI-compatible HTTP API.

    Args:
        base_url: the API root, e.g. ``https://api.openai.com/v1`` or
            ``http://127.0.0.1:8080/v1``; ``/embeddings`` is appended.
        model: the model name sent with each request; the embedder's ``name`` is
            ``f"openai:{model}"``.
        api_key: the bearer token; if None it is read from ``api_key_env`` (and no
            ``Authorization`` header is sent when that is unset too).
        api_key_env: environment variable holding the key.
        dim: expected vector width; if None it is learnt from the first response
            (``dim`` is then 0 until the first call).
        timeout: seconds for each HTTP request's whole answer.
        max_retries: retries after the first attempt on 429/5xx/connection errors.
        batch_size: texts per request.
        backoff: first retry delay in seconds, doubled each retry (a ``Retry-After``
            header, capped at 30 s, wins when larger).
        max_response_bytes: a longer answer raises ``EmbeddingError`` (not read further).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        dim: int | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        batch_size: int = 128,
        backoff: float = 0.5,
        max_response_bytes: int = 256_000_000,
    ) -> None:
        if not base_url:
            raise ValueError("base_url is required, e.g. 'http://127.0.0.1:8080/v1'")
        if not model:
            raise ValueError("model is required, e.g. 'text-embedding-3-small'")
        if batch_size < 1 or max_retries < 0:
            raise ValueError("batch_size must be >= 1 and max_retries >= 0")
        self.base_url = base_url.rstrip("/")
        self.url = f"{self.base_url}/embeddings"
        self.model = model
        self.name = f"openai:{model}"
        self.dim = int(dim) if dim else 0
        self._dim_fixed = bool(dim)
        self.max_retries = int(max_retries)
        self.batch_size = int(batch_size)
        self.backoff = float(backoff)
        self.max_response_bytes = int(max_response_bytes)
        self._init_http(api_key, api_key_env, timeout)

    def _post(self, inputs: list[str]) -> dict[str, Any]:
        payload = {"model": self.model, "input": inputs, "encoding_format": "float"}
        attempt = 0
        while True:
            delay = min(self.backoff * 2.0 ** min(attempt, 64), _MAX_RETRY_AFTER)
            try:
                resp, raw = self._send(self.url, payload, self.max_response_bytes)
            except AnswerTooLong as exc:
                raise EmbeddingError(self._scrub(str(exc))) from None
            except httpx.TransportError as exc:
                problem = f"{type(exc).__name__}: {self._scrub(str(exc)) or 'no detail'}"
                retryable = True
            else:
                if resp.status_code == 200:
                    try:
                        body = json.loads(raw)
                    except (ValueError, RecursionError) as exc:  # '[[[[…' too: no crash
                        raise EmbeddingError(
                            f"POST {self._shown(self.url)} returned 200 with a body that is not JSON"
                        ) from exc
                    if not isinstance(body, dict):
                        raise EmbeddingError(f"POST {self._shown(self.url)} returned JSON that is not an object")
                    return body
                detail = self._scrub(raw[:300].decode("utf-8", "replace").strip())
                problem = f"HTTP {resp.status_code}" + (f": {detail}" if detail else "")
                retryable = resp.status_code in _RETRY_STATUS
                after = resp.headers.get("Retry-After")
                if after:
                    try:
                        delay = max(delay, min(float(after), _MAX_RETRY_AFTER))
                    except ValueError:
                        pass
            if not retryable or attempt >= self.max_retries:
                tries = f" after {attempt + 1} attempts" if attempt else ""
                error = EmbeddingError(f"POST {self._shown(self.url)} failed{tries}: {problem}")
                error.unavailable = retryable
                raise error
            time.sleep(delay)
            attempt += 1

    def _parse(self, body: dict[str, Any], n: int) -> np.ndarray:
        data = body.get("data")
        if not isinstance(data, list) or len(data) != n:
            got = len(data) if isinstance(data, list) else "no"
            raise EmbeddingError(f"POST {self._shown(self.url)} returned {got} embeddings for {n} inputs")
        try:
            items = sorted(data, key=lambda d: int(d["index"]))
            indices = [int(d["index"]) for d in items]
            vecs = np.asarray([d["embedding"] for d in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingError(f"POST {self._shown(self.url)} returned malformed embeddings: {exc}") from exc
        if indices != list(range(n)):
            raise EmbeddingError(
                f"POST {self._shown(self.url)} returned indices {indices[:8]}..., not 0..{n - 1}"
            )
        if vecs.ndim != 2:
            raise EmbeddingError(f"POST {self._shown(self.url)} returned vectors of unequal length")
        width = vecs.shape[1]
        with self._lock:
            if not self.dim:
                self.dim = width
        if width != self.dim:
            raise EmbeddingError(
                f"POST {self._shown(self.url)} returned {width}-dim vectors; expected {self.dim}"
                + ("" if self._dim_fixed else " (learnt from an earlier response)")
            )
        if not np.all(np.isfinite(vecs)):
            raise EmbeddingError(f"POST {self._shown(self.url)} returned non-finite values")
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        np.divide(vecs, norms, out=vecs, where=norms > 0)
        return vecs

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 ``(len(texts), dim)`` unit rows; empty texts are not sent and
        get zero rows. Raises ``EmbeddingError`` naming the URL and status on failure."""
        texts = list(texts)
        todo = [i for i, t in enumerate(texts) if t and t.strip()]
        rows: dict[int, np.ndarray] = {}
        for start in range(0, len(todo), self.batch_size):
            idx = todo[start : start + self.batch_size]
            vecs = self._parse(self._post([texts[i] for i in idx]), len(idx))
            rows.update(zip(idx, vecs))
        if not self.dim and not rows and texts:
            raise EmbeddingError(
                f"{self.name}: dim is unknown until a non-empty text is embedded; pass dim="
            )
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, v in rows.items():
            out[i] = v
        return out

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(base_url={self._shown(self.base_url)!r}, model={self.model!r})"
