"""OpenAIChat against a real loopback server speaking /v1/chat/completions."""

from __future__ import annotations

import logging
import socket
import time

import pytest

from memlane.backends.llm import (
    LLMBadResponse,
    LLMError,
    LLMHTTPError,
    LLMRateLimited,
    LLMTimeout,
    OpenAIChat,
    RateLimiter,
)
from memlane.config import LLMServiceConfig
from memlane.errors import BackendError, ConfigError
from memlane.testing.llm_server import ChatServer

KEY = "sk-test-0123456789abcdefghijklmnop"
HI = [{"role": "user", "content": "hello there"}]


def chat(srv: ChatServer, **kw: object) -> OpenAIChat:
    opts: dict[str, object] = {"backoff_base": 0.01, "api_key_env": "MEMLANE_TEST_NO_SUCH_KEY"}
    opts.update(kw)
    return OpenAIChat(srv.base_url, "test-model", **opts)  # type: ignore[arg-type]


def test_text_reply_and_request_shape(srv: ChatServer) -> None:
    srv.script("Hi! How can I help?")
    with chat(srv, temperature=0.2) as llm:
        assert llm.name == "openai:test-model"
        assert llm.complete(HI) == "Hi! How can I help?"
        # no scripted reply left: the default reply function answers
        assert llm.complete([{"role": "user", "content": "ping"}], max_tokens=5) == "echo: ping"
    first, second = srv.chat_requests
    assert first.method == "POST" and first.path == "/v1/chat/completions"
    assert first.body == {"model": "test-model", "messages": HI, "temperature": 0.2}
    assert second.body["max_tokens"] == 5 and "response_format" not in second.body


def test_json_mode_sends_response_format(srv: ChatServer) -> None:
    srv.script_json({"ok": True})
    with chat(srv) as llm:
        assert llm.complete(HI, json_mode=True, temperature=0.7) == '{"ok": true}'
    body = srv.chat_requests[-1].body
    assert body["response_format"] == {"type": "json_object"}
    assert body["temperature"] == 0.7


def test_json_mode_falls_back_when_server_refuses_response_format() -> None:
    with ChatServer(json_mode_supported=False) as srv, chat(srv) as llm:
        srv.script("{}", "{}")
        assert llm.complete(HI, json_mode=True) == "{}"
        assert llm.complete(HI, json_mode=True) == "{}"
        sent = [r.body for r in srv.chat_requests]
    assert len(sent) == 3  # refused once, asked again without it, then never sent again
    assert "response_format" in sent[0]
    assert "response_format" not in sent[1] and "response_format" not in sent[2]


def test_auth_header_only_with_a_key(srv: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with chat(srv) as llm:
        llm.complete(HI)
    assert "authorization" not in srv.chat_requests[-1].headers
    with chat(srv, api_key=KEY) as llm:
        llm.complete(HI)
    assert srv.chat_requests[-1].headers["authorization"] == f"Bearer {KEY}"
    monkeypatch.setenv("MEMLANE_TEST_LLM_KEY", "key-from-env-123")
    with chat(srv, api_key_env="MEMLANE_TEST_LLM_KEY") as llm:
        llm.complete(HI)
    assert srv.chat_requests[-1].headers["authorization"] == "Bearer key-from-env-123"


def test_server_with_api_key_rejects_missing_key() -> None:
    with ChatServer(api_key=KEY) as srv, chat(srv, max_retries=0) as llm:
        with pytest.raises(LLMHTTPError) as info:
            llm.complete(HI)
        assert info.value.status == 401
        with chat(srv, api_key=KEY) as good:
            assert good.complete(HI) == "echo: hello there"


def test_retries_after_500_and_429(srv: ChatServer) -> None:
    srv.fail(500)
    srv.fail(429, headers={"Retry-After": "0"})
    srv.script("finally")
    with chat(srv, max_retries=3) as llm:
        assert llm.complete(HI) == "finally"
    assert len(srv.chat_requests) == 3
    assert srv.pending == 0


def test_persistent_500_raises_http_error_naming_status_and_url(srv: ChatServer) -> None:
    srv.fail(500, times=10)
    with chat(srv, max_retries=2) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    err = info.value
    assert err.status == 500 and isinstance(err, BackendError)
    assert "HTTP 500" in str(err) and f"{srv.base_url}/chat/completions" in str(err)
    assert "after 3 attempts" in str(err)
    assert len(srv.chat_requests) == 3  # the first try and two retries


def test_client_error_is_not_retried(srv: ChatServer) -> None:
    srv.fail(404, times=5, message="model 'nope' not found")
    with chat(srv, max_retries=3) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    assert info.value.status == 404 and "model 'nope' not found" in str(info.value)
    assert len(srv.chat_requests) == 1


def test_persistent_429_raises_rate_limited(srv: ChatServer) -> None:
    srv.fail(429, times=5, headers={"Retry-After": "0"})
    with chat(srv, max_retries=1) as llm, pytest.raises(LLMRateLimited) as info:
        llm.complete(HI)
    assert info.value.status == 429 and info.value.retry_after == 0
    assert len(srv.chat_requests) == 2


def test_long_retry_after_raises_at_once(srv: ChatServer) -> None:
    srv.fail(429, headers={"Retry-After": "3600"})
    start = time.monotonic()
    with chat(srv, max_retries=3) as llm, pytest.raises(LLMRateLimited) as info:
        llm.complete(HI)
    assert time.monotonic() - start < 5
    assert info.value.retry_after == 3600 and len(srv.chat_requests) == 1


def test_delay_beyond_timeout_raises_timeout(srv: ChatServer) -> None:
    srv.delay(3.0)
    start = time.monotonic()
    with chat(srv, timeout=0.3, max_retries=0) as llm, pytest.raises(LLMTimeout) as info:
        llm.complete(HI)
    assert time.monotonic() - start < 2.5  # gave up on its own, did not wait for the answer
    assert "0.3s" in str(info.value) and "/chat/completions" in str(info.value)


def test_timeout_is_retried(srv: ChatServer) -> None:
    srv.delay(3.0)
    srv.script("second try")
    with chat(srv, timeout=0.3, max_retries=1) as llm:
        assert llm.complete(HI) == "second try"
    assert len(srv.chat_requests) == 2


def test_unreachable_port_raises_llm_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with OpenAIChat(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, backoff_base=0.01,
                    api_key=KEY) as llm, pytest.raises(LLMError) as info:
        llm.complete(HI)
    assert f"127.0.0.1:{port}" in str(info.value) and "could not connect" in str(info.value)
    assert KEY not in str(info.value)


def test_errors_never_contain_the_key(srv: ChatServer) -> None:
    srv.fail(500, message=f"rejected key {KEY}")
    with chat(srv, api_key=KEY, max_retries=0) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    assert KEY not in str(info.value) and "rejected key ***" in str(info.value)


def test_empty_answer_is_a_bad_response(srv: ChatServer) -> None:
    srv.script("")
    with chat(srv) as llm, pytest.raises(LLMBadResponse, match="empty answer"):
        llm.complete(HI)


def test_secrets_are_redacted_before_sending(srv: ChatServer) -> None:
    secret = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
    messages = [
        {"role": "system", "content": "db is postgres://app:hunter2secret@db.internal/app"},
        {"role": "user", "content": f"my key is {secret}, and password=Tr0ub4dor&3 ok?"},
        {"role": "user", "content": [{"type": "text", "text": f"again {secret}"}]},
    ]
    with chat(srv) as llm:
        llm.complete(messages)
    raw = srv.chat_requests[-1].raw.decode()
    assert secret not in raw and "hunter2secret" not in raw and "Tr0ub4dor" not in raw
    sent = srv.chat_requests[-1].messages
    assert "[REDACTED:api_key#" in sent[1]["content"]
    assert "[REDACTED:password#" in sent[0]["content"]
    assert "[REDACTED:password#" in sent[1]["content"]
    tag = sent[1]["content"].split("[REDACTED:api_key#")[1][:4]
    assert sent[2]["content"][0]["text"] == f"again [REDACTED:api_key#{tag}]"  # same secret, same tag
    assert messages[1]["content"].startswith("my key is sk-proj")  # the caller's list is untouched


def test_rate_limiter_spaces_requests(srv: ChatServer) -> None:
    with chat(srv, requests_per_minute=600) as llm:  # one request every 0.1 s
        for _ in range(4):
            llm.complete(HI)
    times = [r.at for r in srv.chat_requests]
    assert len(times) == 4
    assert times[-1] - times[0] >= 0.25  # 3 gaps of 0.1 s, generous margin


def test_rate_limiter_token_bucket_with_a_fake_clock() -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    bucket = RateLimiter(60, clock=lambda: now[0], sleep=sleep)  # one a second
    assert bucket.acquire() == 0.0
    assert bucket.acquire() == pytest.approx(1.0)
    now[0] += 5.0  # idle: the bucket refills to its burst of 1, not 5
    assert bucket.acquire() == 0.0
    assert bucket.acquire() == pytest.approx(1.0)
    assert slept == [pytest.approx(1.0), pytest.approx(1.0)]
    assert RateLimiter(0).acquire() == 0.0


def test_from_config(srv: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_TEST_SERVICE_KEY", "svc-key-456")
    service = LLMServiceConfig(
        base_url=srv.base_url, model="svc-model", api_key_env="MEMLANE_TEST_SERVICE_KEY",
        timeout_seconds=7, max_retries=1, requests_per_minute=120, temperature=0.3,
    )
    with OpenAIChat.from_config(service) as llm:
        assert (llm.model, llm.timeout) == ("svc-model", 7)
        assert (llm.max_retries, llm.temperature) == (1, 0.3)
        assert llm.limiter.per_minute == 120
        llm.complete(HI)
    req = srv.chat_requests[-1]
    assert req.headers["authorization"] == "Bearer svc-key-456"
    assert req.body["model"] == "svc-model" and req.body["temperature"] == 0.3
    with OpenAIChat.from_config(service, "other-model") as llm:
        assert llm.name == "openai:other-model"


def test_constructor_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="http"):
        OpenAIChat("localhost:8080", "m")
    with pytest.raises(ValueError, match="model"):
        OpenAIChat("http://127.0.0.1:1/v1", "")


def test_base_url_forms_an_operator_writes(srv: ChatServer) -> None:
    # the endpoint's whole URL pasted as base_url was POSTed to …/chat/completions/chat/
    # completions (404); a root without /v1 (Ollama's http://HOST:11434) was a bare 404
    root = srv.base_url.removesuffix("/v1")
    for base in (srv.base_url, srv.base_url + "/", srv.base_url + "/chat/completions",
                 srv.base_url + "/chat/completions/"):
        assert OpenAIChat(base, "m").url == f"{srv.base_url}/chat/completions"
    with OpenAIChat(root, "m", max_retries=0) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    assert info.value.status == 404
    assert f"base_url '{root}' does not end in /v1" in str(info.value)
    srv.script("ok")
    with OpenAIChat(srv.base_url + "/chat/completions", "m", max_retries=0) as llm:
        assert llm.complete(HI) == "ok"


def test_an_error_object_answered_with_http_200(srv: ChatServer) -> None:
    # a proxy or local server answering 200 with {"error": …}: that was 'returned 200
    # without choices[0].message: {'error': {'message': …' (a Python repr), and an error
    # to retry (a 503 or 429 code) was never retried
    calls = {"n": 0}

    def answer(server, req):
        calls["n"] += 1
        if calls["n"] == 1:
            return 200, {"error": {"message": "upstream overloaded", "code": 503}}
        if calls["n"] == 2:
            return 200, {"error": {"message": "rate limited", "code": "429"}}
        if calls["n"] == 3:
            return 200, {"choices": [{"message": {"role": "assistant", "content": "hi"}}]}
        return 200, {"error": {"message": f"model 'm' not found, key {KEY}", "type": "x"}}

    srv.route("POST", "/v1/chat/completions", answer)
    with chat(srv, api_key=KEY, max_retries=3) as llm:
        assert llm.complete(HI) == "hi"
        assert calls["n"] == 3
        with pytest.raises(LLMBadResponse) as info:
            llm.complete(HI)
    assert calls["n"] == 4  # an error not to retry is not retried
    message = str(info.value)
    assert "returned HTTP 200 with an error instead of an answer: model 'm' not found" in message
    assert KEY not in message and "{'error'" not in message
    srv.route("POST", "/v1/chat/completions",
              lambda s, r: (200, {"error": {"message": "overloaded", "code": 503}}))
    with chat(srv, max_retries=1) as llm, pytest.raises(LLMHTTPError) as failed:
        llm.complete(HI)
    assert failed.value.status == 503 and "(after 2 attempts)" in str(failed.value)


def test_a_model_providers_key_in_the_conversation_is_not_sent(srv: ChatServer) -> None:
    groq = "gsk_" + "Ab1" * 17 + "C"  # the README names Groq among the endpoints
    with chat(srv) as llm:
        llm.complete([{"role": "user", "content": f"my GROQ_API_KEY is {groq}"}])
    raw = srv.chat_requests[-1].raw.decode()
    assert groq not in raw and "[REDACTED:api_key#" in raw


@pytest.fixture
def five_hours_west(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "EST5")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_retry_after_date_without_a_zone_is_utc(srv: ChatServer, five_hours_west) -> None:
    # Python's email.utils.formatdate writes '… -0000' (no zone: UTC by RFC 5322); it was read
    # as local time, so five hours west of UTC a 1 s hint was 18,001 s, past max_retry_after,
    # and a 429 the client would have waited out failed at once
    import email.utils

    when = email.utils.formatdate(time.time() + 1)
    assert when.endswith("-0000")
    srv.fail(429, headers={"Retry-After": when})
    srv.script("after the wait")
    with chat(srv, max_retries=1) as llm:
        assert llm.complete(HI) == "after the wait"


@pytest.mark.parametrize("hint", ["inf", "1e400", "nan", "-inf"])
def test_a_retry_after_that_is_no_number_of_seconds_is_ignored(srv: ChatServer, hint: str) -> None:
    srv.fail(429, headers={"Retry-After": hint})  # 'inf' failed at once: 'Retry-After infs'
    srv.script("ok")
    with chat(srv, max_retries=1) as llm:
        assert llm.complete(HI) == "ok"


def test_a_password_in_the_base_url_is_never_shown(srv: ChatServer) -> None:
    # http://user:PASSWORD@proxy/v1 (a proxy's basic auth): the password was in every error
    # message (stored as a failed session's reason, logged) and in repr
    base = srv.base_url.replace("http://", "http://bob:hunter2pass@")
    llm = OpenAIChat(base, "m", max_retries=0, max_response_bytes=400)
    assert "hunter2pass" not in repr(llm) and "bob:***@" in repr(llm)
    srv.fail(500)
    with pytest.raises(LLMHTTPError) as failed:
        llm.complete(HI)
    srv.script("x" * 500)
    with pytest.raises(LLMBadResponse) as too_long:
        llm.complete(HI)
    llm.close()
    assert "bob:***@127.0.0.1" in str(failed.value)
    for error in (failed.value, too_long.value):
        assert "hunter2pass" not in str(error)
    assert "hunter2pass" not in failed.value.url
    assert srv.requests[-1].headers["authorization"].startswith("Basic ")  # still sent


def test_a_password_in_the_base_url_is_not_in_httpxs_log(
        srv: ChatServer, caplog: pytest.LogCaptureFixture) -> None:
    # httpx logs every request's URL at INFO: an application logging at INFO had the
    # password of http://user:PASSWORD@proxy/v1 in its log on every model call
    import base64

    base = srv.base_url.replace("http://", "http://bob:hunter%40pass@")
    caplog.set_level(logging.INFO, logger="httpx")
    with OpenAIChat(base, "m", max_retries=0) as llm:
        assert llm.complete(HI) == "echo: hello there"
    assert "HTTP Request: POST" in caplog.text and "hunter" not in caplog.text
    sent = srv.requests[-1].headers["authorization"].removeprefix("Basic ")
    assert base64.b64decode(sent) == b"bob:hunter@pass"  # percent-escapes read as meant


def test_a_reasoning_model_refusing_temperature_and_max_tokens_is_asked_as_it_takes_it(
        srv: ChatServer) -> None:
    # OpenAI's o1/o3/gpt-5 answer 400 to temperature 0 and to max_tokens: every session
    # and every HyDE expansion failed on them
    def strict(server, req):
        body = req.body
        if "max_tokens" in body:
            return 400, {"error": {"message": "Unsupported parameter: 'max_tokens' is not "
                                   "supported with this model. Use 'max_completion_tokens' "
                                   "instead.", "param": "max_tokens"}}
        if "temperature" in body:
            return 400, {"error": {"message": "Unsupported value: 'temperature' does not "
                                   "support 0.0 with this model. Only the default (1) value "
                                   "is supported.", "param": "temperature"}}
        return 200, {"choices": [{"message": {"role": "assistant", "content": "fine"}}]}

    srv.route("POST", "/v1/chat/completions", strict)
    with chat(srv, max_retries=0) as llm:
        assert llm.complete(HI, max_tokens=50) == "fine"
        assert llm.complete(HI, max_tokens=60) == "fine"  # remembered: one request
    bodies = [r.body for r in srv.chat_requests]
    assert len(bodies) == 4
    assert bodies[-1]["max_completion_tokens"] == 60
    assert "temperature" not in bodies[-1] and "max_tokens" not in bodies[-1]


def test_a_400_about_something_else_is_not_asked_again(srv: ChatServer) -> None:
    srv.fail(400, message="messages[1].content: too long for this model's context")
    with chat(srv, max_retries=3) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI, max_tokens=5)
    assert info.value.status == 400 and len(srv.chat_requests) == 1


@pytest.mark.parametrize("stored", [KEY + "\n", KEY + "\r\n", f"  {KEY}\t"])
def test_a_key_with_a_newline_around_it_is_the_key(
        stored: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a key read from a file or a container secret keeps its newline: every request failed
    # 'Illegal header value b'Bearer sk-…\\n'', the key shown whole in the error
    with ChatServer(api_key=KEY) as srv:
        monkeypatch.setenv("MEMLANE_TEST_KEY_FILE", stored)
        with OpenAIChat(srv.base_url, "m", api_key_env="MEMLANE_TEST_KEY_FILE",
                        max_retries=0) as llm:
            assert llm.complete(HI) == "echo: hello there"


@pytest.mark.parametrize("bad", ["sk-test-0123\u00e9456789", "sk-test 0123", "sk-\u2028x", "sk-\x7fx"])
def test_a_key_no_header_can_carry_is_refused_without_showing_it(
        bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a raw UnicodeEncodeError (or LocalProtocolError showing the key) on every request
    monkeypatch.setenv("MEMLANE_TEST_KEY_FILE", bad)
    with pytest.raises(ConfigError, match=r"the API key in \$MEMLANE_TEST_KEY_FILE has a "
                                         r"character an HTTP header cannot carry") as info:
        OpenAIChat("http://127.0.0.1:9/v1", "m", api_key_env="MEMLANE_TEST_KEY_FILE")
    assert bad not in str(info.value) and "0123" not in str(info.value)


def test_a_redirect_says_where_it_points(srv: ChatServer) -> None:
    # a server moved to https answered 308 with an empty body: 'failed with HTTP 308', and
    # nothing said where base_url should point
    srv.fail(308, headers={"Location": "https://llm.example.com/v1/chat/completions"})
    with chat(srv, max_retries=0) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    assert info.value.status == 308
    assert ("redirected to https://llm.example.com/v1/chat/completions, not followed: set "
            "base_url to where it points") in str(info.value)


@pytest.mark.parametrize("said", [
    "This model's maximum context length is 4096 tokens. However, you requested 7012 tokens.",
    "the request exceeds the available context size, try increasing it",  # llama.cpp
    "prompt is too long: 210000 tokens > 200000 maximum",
])
def test_a_request_longer_than_the_context_names_the_setting_to_change(
        srv: ChatServer, said: str) -> None:
    # vLLM, OpenAI and llama.cpp refuse a transcript past the model's context with a 400: the
    # session failed on it every attempt and nothing said which setting to change
    srv.fail(400, message=said)
    with chat(srv, max_retries=3) as llm, pytest.raises(LLMHTTPError) as info:
        llm.complete(HI)
    assert "lower memory.indexing.max_input_tokens or raise the server's context size" in str(info.value)
    assert len(srv.chat_requests) == 1


def test_a_400_that_only_mentions_temperature_keeps_it(srv: ChatServer) -> None:
    srv.fail(400, message="Invalid content: 'what temperature is it in Lisbon?' is flagged")
    with chat(srv, max_retries=0) as llm:
        with pytest.raises(LLMHTTPError):
            llm.complete(HI)
        assert llm.complete(HI) == "echo: hello there"
    assert srv.chat_requests[-1].body["temperature"] == 0.0
