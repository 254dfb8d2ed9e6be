"""A table of secret formats (realistic, fake values) through every write path: none may
reach the database file, its WAL or the full-text vocabulary."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.index.schema import Entity, Extraction, Fact, SessionSummary
from memlane.ingest.redact import redact, scrub
from memlane.config import IngestConfig
from memlane.testing import memory
from tests.fuzz.test_secret_property import _stored_bytes, _vocabulary

B64 = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEYq9Zt"
HEX = "3f9a1c0d7e5b2a4f6c8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d"

# (format, text containing it, the secret part that must never be stored)
SECRETS = [
    ("aws access key", "key id AKIAZ7QK3N5M2P4R6T8V for the bucket", "AKIAZ7QK3N5M2P4R6T8V"),
    ("aws secret assignment", "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYZQ3x9Lm2",
     "wJalrXUtnFEMI/K7MDENG/bPxRfiCYZQ3x9Lm2"),
    ("aws secret in prose", "my AWS secret key is Qm7vT2xKp9/Lw4RzN8sYb+3HjC6dFgE1aUo5iV0n ok",
     "Qm7vT2xKp9/Lw4RzN8sYb+3HjC6dFgE1aUo5iV0n"),
    ("github token", "use ghp_4kT9vQ2mZx7LpW3nR8sY5bJ1cH6dF0gA2eU9 now",
     "ghp_4kT9vQ2mZx7LpW3nR8sY5bJ1cH6dF0gA2eU9"),
    ("github fine-grained", "github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLmnopQRST",
     "github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789abcdefGHIJKLmnopQRST"),
    ("gitlab token", "GitLab: glpat-Xy7Kq2Lm9Np4Rs6Tv8Wz", "glpat-Xy7Kq2Lm9Np4Rs6Tv8Wz"),
    ("slack bot token", "xoxb-2048183095-4123456789012-Zk8Qm3Lp9Vx2Rt7Yn4Bc6Hd",
     "xoxb-2048183095-4123456789012-Zk8Qm3Lp9Vx2Rt7Yn4Bc6Hd"),
    ("slack webhook", "post to https://hooks.slack.com/services/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",
     "T04ABCD1E/B05FGHI2J/q8Zk3Lm9Vx2Rt7Yn4Bc6HdPw"),
    ("stripe live key", "sk_live_51Hq8ZkLm9Vx2Rt7Yn4Bc6HdPwQ", "sk_live_51Hq8ZkLm9Vx2Rt7Yn4Bc6HdPwQ"),
    ("openai key", "OPENAI sk-proj-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4",
     "sk-proj-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4"),
    ("anthropic key", "sk-ant-api03-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5iJ6",
     "sk-ant-api03-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5iJ6"),
    ("google api key", "AIzaSyZk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3", "AIzaSyZk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3"),
    ("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxOTg3NjU0MzIxIn0.Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ",
     "eyJzdWIiOiJxOTg3NjU0MzIxIn0"),
    ("pem private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpQIBAAKCAQEAzk8Qm3Lp9Vx2Rt7\n"
     "-----END RSA PRIVATE KEY-----", "MIIEpQIBAAKCAQEAzk8Qm3Lp9Vx2Rt7"),
    ("password in url", "postgres://app:Tr0ub4dor-Horse@db.internal:5432/app", "Tr0ub4dor-Horse"),
    ("password assignment", "password = Kq2Lm9Np4Rs", "Kq2Lm9Np4Rs"),
    ("bearer token", "Authorization: Bearer Zk8Qm3Lp9Vx2Rt7Yn4Bc", "Zk8Qm3Lp9Vx2Rt7Yn4Bc"),
    ("azure storage", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey="
     "Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5cD6eF7gH8iJ9kL0mN1oP2q==;"
     "EndpointSuffix=core.windows.net", "Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1u"),
    ("twilio api key", "twilio SK2b6f8e0c4a9d1e3f5a7b9c0d2e4f6a8b", "SK2b6f8e0c4a9d1e3f5a7b9c0d2e4f6a8b"),
    ("sendgrid key", "SG.Zk8Qm3Lp9Vx2Rt7Yn4Bc6H.dPwQ1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4a",
     "dPwQ1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4a"),
    ("npm token", "npm_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4", "npm_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4"),
    ("pypi token", "pypi-AgEIcHlwaS5vcmcCJGZrOFFtM0xwOVZ4MlJ0N1luNEJjNkhkUHdRMWFCMmNEM2VGNGdI",
     "AgEIcHlwaS5vcmcCJGZrOFFtM0xwOVZ4MlJ0N1luNEJjNkhkUHdRMWFCMmNEM2VGNGdI"),
    ("hugging face token", "hf_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3e", "hf_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3e"),
    ("groq key", "GROQ_API_KEY gsk_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5jK6mN7pQ8rS9tU",
     "gsk_Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5jK6mN7pQ8rS9tU"),
    ("xai key", "xai-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5jK6mN7pQ8rS9tU in the shell",
     "xai-Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3eF4gH5jK6mN7pQ8rS9tU"),
    ("digitalocean token", f"dop_v1_{HEX}", HEX),
    ("databricks token", "dapi2b6f8e0c4a9d1e3f5a7b9c0d2e4f6a8b", "dapi2b6f8e0c4a9d1e3f5a7b9c0d2e4f6a8b"),
    ("shopify token", "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", "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"),
    ("discord bot token", "bot MTA4NzY1NDMyMTA5ODc2NTQzMg.GhIjKl.Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3",
     "Zk8Qm3Lp9Vx2Rt7Yn4Bc6HdPwQ1aB2cD3"),
    ("env assignment", "SOME_API_KEY=Zk8Qm3Lp9Vx2Rt7Y", "Zk8Qm3Lp9Vx2Rt7Y"),
    ("env token", "export GITHUB_TOKEN=Lp9Vx2Rt7Yn4Bc6H", "Lp9Vx2Rt7Yn4Bc6H"),
    ("db password env", "DB_PASSWORD: Qx7Lm2Kp9", "Qx7Lm2Kp9"),
    ("card number", "card 4539 1488 0343 6467 exp 09/29", "4539 1488 0343 6467"),
    ("card number dashed", "mastercard 5425-2334-3010-9903", "5425-2334-3010-9903"),
    ("amex", "amex 374245455400126", "374245455400126"),
    ("us ssn", "SSN 123-45-6789 on file", "123-45-6789"),
]


@pytest.mark.parametrize(("name", "text", "secret"), SECRETS, ids=[s[0] for s in SECRETS])
def test_every_format_is_redacted(name, text, secret):
    out, n = redact(text)
    assert secret not in out, out
    assert n >= 1 and "[REDACTED:" in out


def test_not_secrets_stay():
    for text in ["order 4539 1488 0343 6468 (not Luhn)", "call 555-1234", "max_tokens=1000",
                 "the token count is 12", "I ask for a task", "version 1.2.3.4",
                 "timestamp 1700000000000", "see https://example.com/a/b"]:
        assert redact(text) == (text, 0), text


def test_pii_is_off_by_default_and_on_by_config():
    text = "write to ana.silva@example.org or call +351 912 345 678"
    assert scrub(IngestConfig(), text) == (text, 0)
    out, n = scrub(IngestConfig(redact_pii=True), text)
    assert "ana.silva@example.org" not in out and "912 345 678" not in out and n == 2


def test_user_patterns_from_config(tmp_path):
    cfg = IngestConfig(redact_patterns=(r"\bACME-\d{6}\b",))
    assert scrub(cfg, "ticket ACME-123456 is open")[0].startswith("ticket [REDACTED:custom#")


class LeakyModel:
    """A model that writes secrets into what it returns (an echo or a hallucination)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def summarize(self, scope, messages):
        t = self.text
        return (SessionSummary(topic=t, context=t, decisions=(t,), entities=("Ana",),
                               turn_count=len(messages)),
                Extraction(entities=(Entity("Ana", "person", t),),
                           facts=(Fact("user", "uses key", t, seq=1, text=t),)))


def _write_everywhere(mem, text: str, n: int) -> None:
    scope = f"s{n}"
    line = text.replace("\n", " ")
    t0 = datetime(2024, 5, 1, 10, 0, tzinfo=UTC)
    mem.add_message(scope, "user", f"here it is: {text}", t0, speaker=f"ops {line}"[:200],
                    id=f"m {line}"[:200])
    for i in range(4):
        mem.add_message(scope, "assistant", f"noted {i}", t0.replace(minute=i + 1))
    lines = [json.dumps({"scope": scope + "i", "role": "user", "text": text,
                         "at": "2024-05-01T11:00:00Z", "speaker": line[:200]})]
    mem.import_file(io.StringIO("\n".join(lines) + "\n"))
    mem.add_fact("user", "uses key", line[:900], scope=scope)
    mem.upsert(f"note: {text}", scope=scope, extra={"raw": text, "nested": [text]})
    mem.pack(f"what about {text}", 200, scope=scope, instructions=f"never say {text}")
    mem.close_session(scope)
    mem.index(now=datetime(2024, 6, 1, tzinfo=UTC))
    draft = mem.summarize_recent(scope, 5)
    mem.store_summary(draft)


def test_no_secret_reaches_the_database_wal_or_vocabulary(tmp_path):
    path = tmp_path / "memlane.db"
    for n, (_, text, secret) in enumerate(SECRETS):
        mem = memory(path)
        mem._intelligence = LeakyModel(text)
        try:
            _write_everywhere(mem, text, n)
            raw = _stored_bytes(path)  # the WAL still holds the latest pages here
        finally:
            mem.close()
        assert secret.encode() not in raw, f"{secret!r} is stored"
    assert b"[REDACTED:" in _stored_bytes(path)
    vocab = _vocabulary(path)
    for _, _, secret in SECRETS:
        for word in re.findall(r"[A-Za-z0-9]{8,}", secret):
            assert word.lower() not in vocab, word


_FILLER = st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), max_size=30)
# patterns a user might configure that a placeholder's own characters would match
_GREEDY = (r"\b[0-9a-f]{4}\b", r"#\w+", r"REDACTED", r"\[[^\]]*\]")


# placeholders written before tags existed, which a store may still hold
_UNTAGGED = ["password = [REDACTED:password]", "API_KEY=[REDACTED:secret] set", "Bearer [REDACTED:bearer_token]"]


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(st.sampled_from([t for _, t, _ in SECRETS] + _UNTAGGED), _FILLER),
                      min_size=1, max_size=5),
       custom=st.lists(st.sampled_from(_GREEDY), max_size=2, unique=True),
       pii=st.booleans())
def test_scrubbing_a_scrubbed_text_changes_nothing(parts, custom, pii):
    """Every write path may meet text already redacted (a summary of stored messages, an
    upsert of a search hit): a placeholder is never re-tagged, cut or taken for a secret."""
    cfg = IngestConfig(redact_pii=pii, redact_patterns=tuple(custom))
    once, _ = scrub(cfg, " ".join(parts))
    assert scrub(cfg, once) == (once, 0)
    for old in _UNTAGGED:
        if old in parts:
            assert old in once  # an older placeholder is no secret either
    for _, text, secret in SECRETS:
        if text in parts:
            assert secret not in once


def test_a_summary_names_a_secret_by_its_messages_placeholder(tmp_path):
    mem = memory(tmp_path / "m.db")
    try:
        t0 = datetime(2024, 5, 6, 14, 0, tzinfo=UTC)
        texts = ["We need the staging database for the billing service.",
                 "The connection string is postgres://billing:Tr0ub4dor-Horse@db.internal:5432/billing",
                 "Next step is the schema migration on branch feat/billing-pg.",
                 "Noted, I will keep it handy."]
        for i, text in enumerate(texts):
            mem.add_message("team", "user", text, at=t0.replace(minute=i))
        mem.close_session("team")
        mem.index(now=datetime(2024, 6, 1, tzinfo=UTC))
        session = mem.sessions(scope="team")[0]
        stored = [m.text for m in mem.messages(session.id)]
        placeholder = re.search(r"\[REDACTED:password#[0-9a-f]{4}\]", stored[1]).group(0)
        summary = mem.session_intelligence(session.id)["summary"]
        refs = [r for r in summary["references"] if "://" in r]
        assert refs == [f"postgres://billing:{placeholder}@db.internal:5432/billing"]
    finally:
        mem.close()


def test_a_secret_in_a_key_of_extra_is_redacted(tmp_path):
    """`scrub_deep` scrubbed a dict's values and kept its keys: an upsert's (or a model's)
    `{"ghp_…": 1}` stored the token."""
    path = tmp_path / "m.db"
    mem = memory(path)
    try:
        item = mem.upsert("a note", scope="s", extra={
            "ghp_4kT9vQ2mZx7LpW3nR8sY5bJ1cH6dF0gA2eU9": 1, "nested": [{"password=hunter2x": "ok"}]})
        extra = mem.item(item).extra
        assert "nested" in extra and len(extra) == 2
        assert "ghp_4kT9" not in str(extra) and "hunter2x" not in str(extra), extra
        raw = _stored_bytes(path)
    finally:
        mem.close()
    assert b"ghp_4kT9" not in raw and b"hunter2x" not in raw
