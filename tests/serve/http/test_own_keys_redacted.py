"""memlane's own API keys are secrets to its redaction (session 27).

A key (``ml_`` and 43 URL-safe characters, ``serve.keys``) pasted into a conversation, a
note or a key's name was stored as written: the live stream, the inspector, search and
export then served it to every key of the scope, and it was sent to the summarizing model.
Every other provider's key format was redacted; memlane's own was not.
"""

from __future__ import annotations

import base64
import random
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.ingest.redact import redact
from memlane.serve.keys import PREFIX

_URLSAFE = string.ascii_letters + string.digits + "-_"
# a key's 43 characters are random: one holds a capital letter (all but 1 in 5 billion)
keys = st.builds(lambda t, c, i: "ml_" + t[:i] + c + t[i:],
                 st.text(_URLSAFE, min_size=42, max_size=42),
                 st.sampled_from(string.ascii_uppercase), st.integers(0, 42))
# what may stand next to a key in prose, a shell line, JSON or a header
edges = st.sampled_from(["", " ", "\n", "=", ":", '"', "'", "(", ")", ".", ",", "`", "/", "é "])
words = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=300, deadline=None)
@given(key=keys, before=words, left=edges, right=edges, after=words)
def test_any_memlane_key_in_any_text_is_redacted(key: str, before: str, left: str, right: str,
                                                 after: str) -> None:
    text = f"{before} {left}{key}{right} {after}"
    out, n = redact(text)
    assert key[3:] not in out, (text, out)
    assert n >= 1


def test_words_that_only_start_like_a_key_stay() -> None:
    for text in ("html_" + "a" * 43, "ml_" + "a" * 42, "ml_" + "a" * 44, "xml_parser", "ml_"):
        assert redact(text) == (text, 0), text


def test_keys_made_as_the_service_makes_them_are_redacted() -> None:
    """``serve.keys.create_key``'s ``token_urlsafe(32)``, of seeded bytes."""
    rng = random.Random(27)
    for _ in range(500):
        key = PREFIX + base64.urlsafe_b64encode(rng.randbytes(32)).rstrip(b"=").decode()
        assert redact(f"key: {key}.")[1] == 1, key
    assert redact("ml_customer_churn_model_training_pipeline_v2_1 ran")[1] == 0


# a name in code, a file's or a table's name: ml_ and 43 characters without a capital
names = st.text(string.ascii_lowercase + string.digits + "_-", min_size=43, max_size=43)


@settings(max_examples=300, deadline=None)
@given(name=names, before=words, left=edges, right=edges, after=words)
def test_a_lowercase_name_that_starts_like_a_key_stays(name: str, before: str, left: str,
                                                       right: str, after: str) -> None:
    """``ml_customer_churn_model_training_pipeline_v2_1`` (a snake_case name of a key's
    length) was redacted as a key (session 27: the rule matched any 43 URL-safe
    characters; a key is random and holds a capital letter)."""
    for text in (f"ml_{name}", f"{before} {left}ml_{name}{right} {after}",
                 f"my_ml_{name}"):
        out, _ = redact(text)
        assert f"ml_{name}" in out, (text, out)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(left=edges, right=edges)
def test_a_key_sent_to_the_service_is_stored_redacted_on_every_surface(service, left: str,
                                                                       right: str) -> None:
    """A real key of the service, sent as a message, a batch, a note and a key's name: the
    answers, the session, a search and the live stream's snapshot never hold it, and the key
    still opens the service."""
    key = service.key("chat-*")
    secret = key[3:]
    scope = "chat-keys"
    with service.client(key) as c:
        answers = [
            c.post("/v1/messages", json={"scope": scope, "text": f"my key is {left}{key}{right}"}),
            c.post("/v1/messages", json={"messages": [
                {"scope": scope, "text": f"export TOKEN {left}{key}{right}"}]}),
            c.post("/v1/items", json={"scope": scope, "kind": "note",
                                      "text": f"the service key {left}{key}{right}",
                                      "extra": {"k": f"{left}{key}{right}"}}),
            c.post("/actions", json={"kind": "memory.add", "input": {
                "scope": scope, "text": f"{key}{right}", "speaker": f"bot {key}"}}),
        ]
        for r in answers:
            assert r.status_code == 200, r.text
            assert secret not in r.text
        session = answers[0].json()["messages"][0]["session_id"]
        reads = [c.get(f"/v1/sessions/{session}"),
                 c.post("/v1/search", json={"scope": scope, "query": "key"}),
                 c.get("/v1/sessions", params={"scope": scope})]
        for r in reads:
            assert r.status_code == 200, r.text
            assert secret not in r.text
        with c.stream("GET", "/state/memory", params={"scope": scope}) as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    assert secret not in line
                    break
    named = service.key("chat-*", name=f"ci {key}")
    assert all(secret not in row["name"] for row in service.mem.store.api_keys())
    with service.client(named) as c:
        assert c.get("/v1/sessions", params={"scope": scope}).status_code == 200
