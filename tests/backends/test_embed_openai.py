"""OpenAIEmbedder against a real loopback server speaking the OpenAI protocol."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import numpy as np
import pytest

from memlane.backends.embed import HashingEmbedder, OpenAIEmbedder, get_embedder
from memlane.errors import EmbeddingError
from memlane.testing.openai_server import OpenAICompatServer

KEY = "sk-test-secret-123"


_OPEN: list[OpenAIEmbedder] = []


@pytest.fixture
def srv() -> Iterator[OpenAICompatServer]:
    with OpenAICompatServer(api_key=KEY, dim=32) as server:
        yield server
        while _OPEN:
            _OPEN.pop().close()


def make(srv: OpenAICompatServer, **kw: object) -> OpenAIEmbedder:
    opts: dict[str, object] = {"api_key": KEY, "backoff": 0.01}
    opts.update(kw)
    emb = OpenAIEmbedder(srv.base_url, "hash-embed", **opts)  # type: ignore[arg-type]
    _OPEN.append(emb)
    return emb


def test_embeds_sends_auth_and_learns_dim(srv: OpenAICompatServer) -> None:
    emb = make(srv)
    assert emb.name == "openai:hash-embed" and emb.dim == 0
    out = emb.embed_batch(["hello world", "second text"])
    assert out.shape == (2, 32) and out.dtype == np.float32 and emb.dim == 32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    req = srv.requests[-1]
    assert req.path == "/v1/embeddings" and req.method == "POST"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.body == {
        "model": "hash-embed",
        "input": ["hello world", "second text"],
        "encoding_format": "float",
    }
    # the vectors are the server's hashing vectors
    ref = srv.embedder.embed_batch(["hello world", "second text"])
    np.testing.assert_allclose(out, ref, atol=1e-6)


def test_key_from_environment(srv: OpenAICompatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_EMBED_KEY", KEY)
    with OpenAIEmbedder(srv.base_url, "m", api_key_env="MY_EMBED_KEY") as emb:
        assert emb.embed_batch(["x"]).shape == (1, 32)
    assert srv.requests[-1].headers["authorization"] == f"Bearer {KEY}"


def test_wrong_key_is_not_retried_and_not_leaked(srv: OpenAICompatServer) -> None:
    emb = make(srv, api_key="sk-wrong-key-456")
    with pytest.raises(EmbeddingError) as err:
        emb.embed_batch(["x"])
    assert "401" in str(err.value) and srv.base_url in str(err.value)
    assert "sk-wrong-key-456" not in str(err.value)
    assert len(srv.requests) == 1


def test_orders_rows_by_index() -> None:
    with OpenAICompatServer(dim=16, shuffle=True) as srv:
        texts = ["alpha one", "beta two", "gamma three", "delta four"]
        with OpenAIEmbedder(srv.base_url, "m", api_key_env="NO_SUCH_ENV_VAR_X") as emb:
            out = emb.embed_batch(texts)
        assert srv.requests[-1].body["input"] == texts
        assert "authorization" not in srv.requests[-1].headers
    np.testing.assert_allclose(out, HashingEmbedder(dim=16, seed=7).embed_batch(texts), atol=1e-6)


def test_batches_and_skips_empty_texts(srv: OpenAICompatServer) -> None:
    emb = make(srv, batch_size=2)
    texts = ["a b", "", "c d", "e f", "   ", "g h"]
    out = emb.embed_batch(texts)
    assert [r.body["input"] for r in srv.requests] == [["a b", "c d"], ["e f", "g h"]]
    assert not out[1].any() and not out[4].any()
    np.testing.assert_allclose(np.linalg.norm(out[[0, 2, 3, 5]], axis=1), 1.0, atol=1e-6)


def test_retries_scripted_500s_then_succeeds(srv: OpenAICompatServer) -> None:
    srv.fail_next(status=500, times=2)
    out = make(srv, max_retries=3).embed_batch(["retry me"])
    assert out.shape == (1, 32)
    assert len(srv.requests) == 3


def test_retries_429_with_retry_after(srv: OpenAICompatServer) -> None:
    srv.fail_next(status=429, times=1, headers={"Retry-After": "0"})
    assert make(srv).embed_batch(["x"]).shape == (1, 32)
    assert len(srv.requests) == 2


def test_persistent_500_raises_naming_status_and_url(srv: OpenAICompatServer) -> None:
    srv.fail_next(status=503, times=10)
    with pytest.raises(EmbeddingError) as err:
        make(srv, max_retries=2).embed_batch(["x"])
    msg = str(err.value)
    assert "503" in msg and f"{srv.base_url}/embeddings" in msg and "3 attempts" in msg
    assert KEY not in msg
    assert len(srv.requests) == 3


def test_400_is_not_retried(srv: OpenAICompatServer) -> None:
    srv.fail_next(status=400, times=5, body={"error": {"message": "input too long"}})
    with pytest.raises(EmbeddingError, match="HTTP 400.*input too long"):
        make(srv).embed_batch(["x"])
    assert len(srv.requests) == 1


def test_unreachable_port_raises_embedding_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    emb = OpenAIEmbedder(
        f"http://127.0.0.1:{port}/v1", "m", api_key=KEY, max_retries=1, backoff=0.01, timeout=2
    )
    with emb, pytest.raises(EmbeddingError, match=f"127.0.0.1:{port}.*ConnectError") as err:
        emb.embed_batch(["x"])
    assert KEY not in str(err.value)


def test_fixed_dim_mismatch_raises(srv: OpenAICompatServer) -> None:
    with pytest.raises(EmbeddingError, match="32-dim.*expected 8"):
        make(srv, dim=8).embed_batch(["x"])


def test_malformed_response_raises(srv: OpenAICompatServer) -> None:
    srv.route("POST", "/v1/embeddings", lambda s, r: (200, {"data": [{"index": 0}]}))
    with pytest.raises(EmbeddingError, match="malformed"):
        make(srv).embed_batch(["x"])


def test_registry_and_unknown_route(srv: OpenAICompatServer) -> None:
    emb = get_embedder("openai", base_url=srv.base_url, model="hash-embed", api_key=KEY)
    assert isinstance(emb, OpenAIEmbedder)
    _OPEN.append(emb)
    emb.url = srv.base_url + "/nope"
    with pytest.raises(EmbeddingError, match="404"):
        emb.embed_batch(["x"])


def test_a_password_in_the_base_url_is_never_shown() -> None:
    # a proxy's basic auth in the URL: the password was in every error and in repr
    with OpenAICompatServer(dim=32) as srv:
        base = srv.base_url.replace("http://", "http://bob:hunter2pass@")
        emb = OpenAIEmbedder(base, "hash-embed", max_retries=0)
        assert np.asarray(emb.embed_batch(["hello"])).shape[0] == 1  # the URL still works
        srv.fail_next(status=500)
        with pytest.raises(EmbeddingError) as info:
            emb.embed_batch(["hello"])
        emb.close()
    assert "hunter2pass" not in str(info.value) + repr(emb)
    assert "bob:***@127.0.0.1" in str(info.value)
