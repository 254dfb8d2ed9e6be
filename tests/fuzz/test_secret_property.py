"""Secrets of every class a user pastes into a chat, generated inside ordinary text and in
the message's labels, written through ``add_message``, ``add_messages`` and an import file,
then summarized by a model on a loopback server that repeats them: none reaches the SQLite
file (WAL and full-text index included), ``memlane export``, the prompt the model is sent,
what it wrote (summary, facts), search hits or packs. Ordinary text is left as it is."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from memlane.ingest.redact import redact
from memlane.serve.cli_export import export_lines
from memlane.testing import memory
from memlane.testing.llm_server import ChatServer
from tests.fuzz.secret_strategies import FILLER, SECRET, chars

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]


class Leaky:
    """The loopback model's answers: a summary and facts that repeat the secrets it was
    told to (an echo, or a model that invents one), so that what it writes is checked too."""

    def __init__(self) -> None:
        self.secrets: list[str] = []

    def __call__(self, body: dict) -> str:
        said = " ".join(self.secrets)
        return json.dumps({
            "topic": f"config {said}"[:300], "context": f"The user pasted {said}",
            "decisions": [f"rotate {s}" for s in self.secrets[:3]],
            "references": self.secrets[:3], "topic_tags": ["config"],
            "entities": [], "relations": [], "observations": [],
            "facts": [{"subject": "user", "predicate": "uses key", "object": s, "turn": 1}
                      for s in self.secrets[:3]],
        })


@pytest.fixture(scope="module")
def model() -> Iterator[tuple[ChatServer, Leaky]]:
    leaky = Leaky()
    with ChatServer(reply=leaky) as srv:
        yield srv, leaky


def _carry(text: str, filler: str, fence: bool) -> str:
    return f"{filler}\n```\n{text}\n```" if fence else f"{filler} {text}".strip()


def _one_line(text: str) -> bool:
    return "\n" not in text and len(text) <= 200


def _stored_bytes(path: Path) -> bytes:
    out = b""
    for p in (path, Path(f"{path}-wal")):
        if p.exists():
            out += p.read_bytes()
    return out


def _vocabulary(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT term FROM items_fts_vocab")}
    finally:
        conn.close()


def _file_leaks(path: Path, secrets: list[str], open_bytes: bytes) -> list[str]:
    """The secrets found in the closed SQLite file ``path``, in ``open_bytes`` (its bytes read
    while it was open: its WAL then held the latest pages) or in its full-text vocabulary."""
    raw = open_bytes + _stored_bytes(path)
    leaks = [f"database file: {s!r}" for s in secrets if s.encode() in raw]
    vocab = _vocabulary(path)
    return leaks + [f"full-text vocabulary: {w!r}" for s in secrets
                    for w in re.findall(r"[A-Za-z0-9]{10,}", s) if w.lower() in vocab]


def _leaks(where: str, blob: str, secrets: list[str]) -> list[str]:
    return [f"{where}: {s!r}" for s in secrets if s and s in blob]


@settings(max_examples=30, deadline=None, phases=NO_SHRINK,  # an example costs a whole memory
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(found=st.lists(SECRET, min_size=4, max_size=7), fillers=st.lists(FILLER, min_size=7, max_size=7),
       fences=st.lists(st.booleans(), min_size=7, max_size=7))
def test_no_secret_is_stored_exported_sent_or_found(tmp_path_factory, model, found, fillers, fences):
    srv, leaky = model
    texts = [_carry(t, f, c) for (t, _), f, c in zip(found, fillers, fences, strict=False)]
    secrets = [s for _, parts in found for s in parts]
    leaky.secrets = [t for t, _ in found]  # the model repeats each as it was written
    srv.requests.clear()
    path = tmp_path_factory.mktemp("secrets") / "memlane.db"
    mem = memory(path, indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                 llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                         "timeout_seconds": 10, "max_retries": 0}})
    try:
        scope = "chat-1"
        label = next((t for t, _ in found if _one_line(t)), None)
        mem.add_message(scope, "user", texts[0], T0, speaker=label, id=label, agent=label,
                        project=label)
        mem.add_messages([{"scope": scope, "role": "assistant" if i % 2 else "user",
                           "text": t, "at": T0 + timedelta(minutes=i + 1)}
                          for i, t in enumerate(texts[1:3])])
        rows = [{"scope": scope, "role": "user", "text": t,
                 "at": (T0 + timedelta(minutes=10 + i)).isoformat()}
                for i, t in enumerate(texts[3:])]
        if label is not None:
            rows.append({"scope": scope, "role": "user", "text": "and the label",
                         "at": (T0 + timedelta(minutes=30)).isoformat(), "speaker": label,
                         "agent": label, "project": label, "id": f"{label} 2"})
        report = mem.import_file(io.StringIO("".join(json.dumps(r) + "\n" for r in rows)))
        assert not report.errors, report
        mem.close_session(scope)
        indexed = mem.index(now=T0 + timedelta(days=1))
        assert srv.chat_requests, indexed  # the session went to the model
        leaks: list[str] = []
        sent = json.dumps([r.body for r in srv.chat_requests])
        leaks += _leaks("prompt sent to the model", sent, secrets)
        leaks += _leaks("export", json.dumps(list(export_lines(mem)), ensure_ascii=False), secrets)
        for text, _ in found:
            hits = mem.search(text, scope=scope, k=20)
            leaks += _leaks("search", json.dumps([[h.item.text, h.item.extra] for h in hits],
                                                 ensure_ascii=False, default=str), secrets)
            leaks += _leaks("pack", mem.pack(text, 2000, scope=scope).text, secrets)
        facts = mem.facts(scope=scope)
        leaks += _leaks("facts", repr(facts), secrets)
        raw = _stored_bytes(path)  # the WAL still holds the latest pages here
    finally:
        mem.close()
    leaks += _file_leaks(path, secrets, raw)
    assert not leaks, leaks


# -- what must be left alone ------------------------------------------------------------

WORD = st.sampled_from("""the a my our new old wifi router billing service deploy branch
release meeting password passwords token tokens key keys secret secrets session cookie
cookies pin api access signature authorization bearer basic manager rotation changed
expired wrong short long strong weak valid stored vault drawer fridge note chocolate
lisbon march friday""".split())
VERB = st.sampled_from(["is", "was", "is now", "was just", "for the team is"])  # "password: x" is an assignment
HEX = "0123456789abcdef"
ORDINARY = st.one_of(
    st.lists(WORD, min_size=1, max_size=12).map(" ".join),
    st.tuples(WORD, WORD, VERB, WORD).map(" ".join),  # "the password is wrong"
    st.tuples(WORD, st.text(HEX, min_size=40, max_size=40)).map(
        lambda p: f"{p[0]} rotation landed in commit {p[1]}"),  # git hashes, after "secret" too
    st.tuples(WORD, st.text(HEX, min_size=7, max_size=12)).map(lambda p: f"{p[0]} fixed in {p[1]}"),
    st.uuids().map(lambda u: f"the session {u} was closed"),
    st.datetimes().map(lambda d: f"meeting at {d.isoformat()}"),
    st.tuples(st.integers(0, 99), st.integers(0, 99), st.integers(0, 999)).map(
        lambda v: f"release {v[0]}.{v[1]}.{v[2]}"),
    st.sampled_from(["see https://example.com/docs/page?lang=en&page=2",
                     "git clone git@github.com:ana/memlane.git", "ssh ana@host -p 2222",
                     "def check(password):\n    return hash(password) == stored",
                     "if token is None: raise AuthError", "mysql -u root -p mydb",
                     "Cookie: chocolate chip, please", "Basic usage: run the script",
                     "PRIMARY_KEY=id", "KEYBOARD_LAYOUT=us", "MAX_TOKENS=1000",
                     "The passwords must be 12 characters long", "sha256 " + "ab12" * 16]),
)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(ORDINARY, min_size=1, max_size=4))
def test_ordinary_prose_code_hashes_and_ids_are_left_alone(parts):
    text = "\n".join(parts)
    assert redact(text) == (text, 0)


@settings(max_examples=200, deadline=None)
@given(found=SECRET, pre=FILLER, post=FILLER)
def test_every_class_is_redacted_inside_ordinary_text(found, pre, post):
    text, secrets = found
    out, n = redact(f"{pre} {text} {post}")
    assert n >= 1
    for s in secrets:
        assert s not in out, (s, out)
    assert redact(out) == (out, 0)  # and a second pass changes nothing


@settings(max_examples=200, deadline=None)
@given(found=st.lists(SECRET, min_size=2, max_size=4), sep=st.sampled_from([" ", "\n", ", ", "; "]))
def test_secrets_side_by_side_are_all_redacted(found, sep):
    """A pattern running to the end of the line (a Cookie header's) took the next secret's
    name with it, leaving its value: `Set-Cookie: a=…; Path=/ export JWT_SECRET='…'`."""
    out, _ = redact(sep.join(text for text, _ in found))
    for _, secrets in found:
        for s in secrets:
            assert s not in out, (s, out)


@settings(max_examples=50, deadline=None)
@given(key=chars("abcdefABCDEF0123456789xyzXYZ", 20, 30))
def test_a_key_after_prose_words_keeps_the_words(key):
    out, _ = redact(f"my api key is {key}. Thanks!")
    assert out.startswith("my api key is [REDACTED:") and out.endswith("Thanks!")
