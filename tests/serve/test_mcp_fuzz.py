"""The MCP server's JSON-RPC layer fuzzed over its real transports (session 24): a ``memlane
mcp`` process spoken to line by line over its standard input and output, and ``/mcp`` of a
``memlane serve`` app on a free loopback port, each sent hypothesis-made messages: tool calls
built from the tools' own input schemas (``tools/list``) with one argument of a wrong type,
a missing or an extra one, huge strings, deep nesting, NUL, bidi and format characters,
NFD, lone surrogates escaped in the JSON, numbers past 64 bits, NaN and Infinity; envelopes
with a wrong ``jsonrpc``, ids of every JSON type, batches, notifications, unknown methods,
text that is not JSON and bytes that are not UTF-8.

Whatever is sent: the server stays up and answers within a bound; a request (an object with
``jsonrpc`` "2.0", a string or integer ``id`` and a string ``method``) gets exactly one
well-formed answer with its id, a notification none, anything else exactly one error
(-32700 or -32600, id null when none can be read); no answer is an internal error; a tool
call with one argument of a wrong type is an ``isError`` result (or invalid params) naming
that argument; a refused call changes nothing stored; a secret in a remembered text is
not in the database file.

Found with it (each pinned below): over stdio a line that was not a message the SDK takes
(not JSON, a batch, ``"jsonrpc": "1.0"``, ``"params": "x"``, bytes not UTF-8, a lone
surrogate) was dropped without an answer, and the client waited for ever; over HTTP those
were -32602 (invalid params) with pydantic's many-line dump; on both, a request whose id was
``1.5``, ``true``, ``null`` or an object was run as a notification and never answered; bytes
that were not UTF-8 on standard input were stored as U+FFFD; ``tools/call`` with
``arguments`` not an object was "Invalid request parameters", naming nothing."""

from __future__ import annotations

import json
import queue
import re
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.fuzz.secret_strategies import SECRET
from tests.serve.test_mcp import MEMLANE, SOURCE

WAIT = 60.0  # seconds any one answer may take
CODES = {-32700, -32600, -32601, -32602}  # never -32603, the server's own failure
LEGACY = "2025-06-18"
TABLES = ("items", "messages", "facts", "sessions", "entities", "relations", "fact_events")


def fingerprint(db: str) -> tuple[Any, ...]:
    """What is stored, as rows and ids per table (read by a connection of its own)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return tuple(conn.execute(f"SELECT count(*), total(id) FROM {t}").fetchone()
                     for t in TABLES)
    finally:
        conn.close()


def stored_bytes(db: str) -> bytes:
    return b"".join(p.read_bytes() for p in (Path(db), Path(f"{db}-wal")) if p.exists())


class Stdio:
    """``memlane mcp`` as a process: lines in, lines out, each wait bounded."""

    def __init__(self, db: str, tmp: Path) -> None:
        self.err = open(tmp / "mcp-stderr.txt", "wb")  # noqa: SIM115 (closed in close())
        self.proc = subprocess.Popen(
            [MEMLANE, "--db", db, "mcp", "--no-worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.err, cwd=tmp,
            env={"MEMLANE_EMBEDDING_BACKEND": "hashing", "PATH": "/usr/bin:/bin", **SOURCE})
        self.out: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.n = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.out.put(line)
        self.out.put(b"")

    def exchange(self, raw: bytes) -> list[dict[str, Any]]:
        """Send ``raw`` (one line), then a barrier (a method memlane does not know: the relay
        starts it once everything sent before is answered); the answers before the
        barrier's."""
        self.n += 1
        barrier = f"barrier-{self.n}"
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw + b"\n" + json.dumps(
            {"jsonrpc": "2.0", "id": barrier, "method": "memlane/barrier"}).encode() + b"\n")
        self.proc.stdin.flush()
        answers = []
        while True:
            try:
                line = self.out.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no answer within {WAIT:g}s to {raw[:300]!r}") from None
            assert line, f"the server ended on {raw[:300]!r}: {self.stderr()}"
            answer = json.loads(line)
            if answer.get("id") == barrier:
                assert answer["error"]["code"] == -32601, answer
                return answers
            answers.append(answer)

    def stderr(self) -> str:
        self.err.flush()
        return Path(self.err.name).read_text(errors="replace")[-2000:]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)
        self.reader.join(timeout=WAIT)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self.err.close()


@pytest.fixture
def stdio(db: str, tmp_path: Path) -> Iterator[Stdio]:
    s = Stdio(db, tmp_path)
    try:
        first = s.exchange(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "1"}}}).encode())
        assert first[0]["result"]["serverInfo"]["name"] == "memlane"
        assert s.exchange(b'{"jsonrpc":"2.0","method":"notifications/initialized"}') == []
        yield s
    finally:
        s.close()
    assert s.proc.returncode == 0, s.stderr()


def over_http(url: str, key: str, raw: bytes) -> list[dict[str, Any]]:
    """POST ``raw`` to ``/mcp``: the answers (none for a 202)."""
    r = httpx.post(f"{url}/mcp", content=raw, timeout=WAIT, headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": LEGACY})
    assert r.status_code < 500, (raw[:300], r.status_code, r.text)
    if r.status_code == 202:
        assert not r.text.strip(), r.text
        return []
    if r.headers["content-type"].startswith("text/event-stream"):
        # an event stream's lines end at CR, LF or CRLF only: str.splitlines also cut at
        # U+0085 and U+2028 inside an answer's JSON (a method named "\x85" echoed back)
        return [json.loads(line[5:]) for line in re.split(r"\r\n|\r|\n", r.text)
                if line.startswith("data:")]
    assert r.headers["content-type"].startswith("application/json"), (r.status_code, r.text)
    return [r.json()]


# -- what is sent ------------------------------------------------------------------------
ODD_TEXT = st.sampled_from([
    "", " ", "x\x00y", "\u202eevil\u202c", "a\u200bb", "\ufeffbom", "cafe\u0301", "\u0000",
    "line\nbreak", "\U0001f600", "\ud800", "a\udfffb", "\u2028",
    "2024-05-01T10:00:00Z", "user", "s", "note", "-1", "1e3", "NaN"]) \
    | st.sampled_from([("é", 5000), ("x", 120_000)]).map(lambda cn: cn[0] * cn[1])  # huge
WIDE = st.sampled_from([0, -1, 1, 2**31, 2**63 - 1, 2**63, -2**63 - 1, 10**30, 1.5,
                        float("nan"), float("inf"), -float("inf"), 1e308, -0.0])
SCALARS = st.none() | st.booleans() | WIDE | st.integers(-2**70, 2**70) | ODD_TEXT \
    | st.text(max_size=12)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=5)
IDS = (st.integers(-2**70, 2**70) | st.text(max_size=10)
       | st.sampled_from([0, -1, 2**63, "", "\u0000", "\ud800", "x" * 500]))
BAD_IDS = st.sampled_from([None, True, False, 1.5, float("nan"), [], [1], {}, {"a": 1}])
METHODS = st.sampled_from([
    "ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list",
    "prompts/get", "resources/read", "completion/complete", "initialize", "logging/setLevel",
    "tools/call", "notifications/cancelled", "notifications/initialized", "sampling/create",
    "", "PING", "tools/list ", "rpc.discover"]) | st.text(max_size=12)


def _nullable(schema: dict[str, Any]) -> bool:
    return any(m.get("type") == "null" for m in schema.get("anyOf", [schema]))


def _types(schema: dict[str, Any]) -> set[str]:
    return {m.get("type", "any") for m in schema.get("anyOf", [schema])}


def good_value(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value the schema admits (its checks past the schema aside)."""
    member = next((m for m in prop.get("anyOf", [prop]) if m.get("type") != "null"), prop)
    if "enum" in member:
        return st.sampled_from(member["enum"])
    kind = member.get("type")
    if kind == "integer":
        return st.integers(member.get("minimum", -5), min(member.get("maximum", 50), 50))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        items = member.get("items", {})
        return st.lists(good_value(items) if items else st.text(max_size=5), max_size=3)
    if member.get("format") == "date-time":
        return st.sampled_from(["2024-05-01T10:00:00Z", "2024-06-01"])
    return st.text(min_size=1, max_size=20) | ODD_TEXT.filter(bool)


def wrong_value(prop: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value of a JSON type the schema does not admit."""
    kinds = _types(prop)
    choices: list[Any] = [[1], {"a": 1}]
    if "string" not in kinds:
        choices += ["maybe", "", "1.5x"]
    if not kinds & {"integer", "number"}:
        choices += [7, 2**63, 1.5]
    if "integer" in kinds:
        choices += [1.5, float("nan"), float("inf")]
    if "boolean" not in kinds:
        choices += [True, False]
    if "array" in kinds:
        choices = [c for c in choices if not isinstance(c, list)] + ["a,b"]
    if not _nullable(prop) and "default" not in prop:
        choices.append(None)
    return st.sampled_from(choices)


@st.composite
def tool_call(draw: Any, tools: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], str | None]:
    """``(arguments of a tools/call, the one argument made wrong or None)``."""
    name = draw(st.sampled_from(sorted(tools)))
    schema = tools[name]
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    args = {p: draw(good_value(s), label=p) for p, s in props.items()
            if p in required or draw(st.booleans())}
    if "scope" in props and draw(st.booleans()):
        args["scope"] = draw(st.sampled_from(["alice-assistant", "team-backend", "fuzz"]))
    wrong: str | None = None
    how = draw(st.sampled_from(["none", "type", "type", "missing", "extra", "wild"]))
    if how == "type" and props:
        wrong = draw(st.sampled_from(sorted(props)))
        args[wrong] = draw(wrong_value(props[wrong]), label="wrong")
    elif how == "missing" and required:
        wrong = draw(st.sampled_from(sorted(required)))
        del args[wrong]
    elif how == "extra":
        wrong = draw(st.sampled_from(["scpoe", "limit", "extra", "Text", "\u202escope"]))
        args[wrong] = draw(SCALARS)
    elif how == "wild" and props:
        args[draw(st.sampled_from(sorted(props)))] = draw(VALUES)
    if name == "remember" and wrong is None and draw(st.booleans()):
        _, secrets = draw(SECRET, label="secret")
        args["text"] = "note this: " + " ".join(secrets)
        args["role"] = "note"
    return {"name": name, "arguments": args}, wrong


@st.composite
def message(draw: Any, tools: dict[str, dict[str, Any]]) -> tuple[bytes, Any, str | None, Any]:
    """``(line, the object sent or None, the tool argument made wrong, the secrets)``."""
    kind = draw(st.sampled_from(["tool"] * 6 + ["method"] * 2 + ["envelope"] * 2
                                + ["notification", "raw"]))
    wrong = None
    if kind == "raw":
        raw = draw(st.sampled_from([
            b"garbage", b"{", b"[]", b"[1, 2]", b"null", b"1", b'"s"', b"\xff\xfe",
            b'{"jsonrpc":"2.0","id":1,"method":"ping"} trailing', b"[" * 5000 + b"]" * 5000,
            b'{"jsonrpc":"2.0","id":1,"method":"ping","params":' + b'{"a":' * 3000 + b"1"
            + b"}" * 3001,
            b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"recall",'
            b'"arguments":{"query":"caf\xe9"}}}',
            b'{"jsonrpc":"2.0","id":5,"method":"ping","id":6}'])
            | st.binary(min_size=1, max_size=40))
        raw = raw.replace(b"\n", b" ").replace(b"\r", b" ")
        try:
            return raw, json.loads(raw), None, None
        except (ValueError, RecursionError):
            return raw, None, None, None
    obj: dict[str, Any] = {"jsonrpc": "2.0", "id": draw(IDS, label="id")}
    if kind == "tool":
        obj["method"] = "tools/call"
        obj["params"], wrong = draw(tool_call(tools))
    else:
        obj["method"] = draw(METHODS)
        if draw(st.booleans()):
            obj["params"] = draw(st.dictionaries(st.text(max_size=8), VALUES, max_size=3))
    if kind == "notification":
        del obj["id"]
    elif kind == "envelope":
        what = draw(st.sampled_from(["jsonrpc", "id", "params", "batch", "method", "extra"]))
        if what == "jsonrpc":
            bad = draw(st.sampled_from(["1.0", "2", 2.0, None, "", "2.0 "]))
            if bad is None:
                del obj["jsonrpc"]
            else:
                obj["jsonrpc"] = bad
        elif what == "id":
            obj["id"] = draw(BAD_IDS)
        elif what == "params":
            obj["params"] = draw(st.sampled_from(["x", 1, [], [1], True, None]))
        elif what == "method":
            obj["method"] = draw(st.sampled_from([None, 1, [], {}]))
        elif what == "extra":
            obj[draw(st.sampled_from(["extra", "result", "error", "Method"]))] = draw(SCALARS)
        if what == "batch":
            return json.dumps([obj] * draw(st.integers(0, 3))).encode(), None, None, None
        wrong = None
    secrets = None
    if kind == "tool" and "note this: " in str(obj["params"]["arguments"].get("text")):
        secrets = obj["params"]["arguments"]["text"].removeprefix("note this: ").split(" ")
    # NaN and Infinity as Python writes them; a lone surrogate escaped as \ud800
    return json.dumps(obj, allow_nan=True).encode(), obj, wrong, secrets


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _lone_surrogate(obj: Any) -> bool:
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def expected(obj: Any) -> str:
    """"request", "notification" or "refused" (an error answers it)."""
    if not isinstance(obj, dict) or obj.get("jsonrpc") != "2.0" \
            or not isinstance(obj.get("method"), str) \
            or not isinstance(obj.get("params", {}), dict) \
            or ("id" in obj and not _is_id(obj["id"])) \
            or _lone_surrogate(obj):
        return "refused"
    if "result" in obj or "error" in obj:
        return "any"  # an answer-shaped message with a method: the SDK's reading decides
    return "request" if "id" in obj else "notification"


def check(answers: list[dict[str, Any]], raw: bytes, obj: Any, wrong: str | None) -> bool:
    """Every answer is well formed, as many as the message asks for; True if refused."""
    for a in answers:
        assert a.get("jsonrpc") == "2.0" and ("result" in a) != ("error" in a), a
        assert "id" in a and (a["id"] is None or _is_id(a["id"])), a
        if "error" in a:
            assert a["error"]["code"] in CODES, (raw[:300], a)
            assert isinstance(a["error"]["message"], str) and a["error"]["message"], a
    want = expected(obj) if obj is not None else "refused"
    if want == "notification":
        assert answers == [], (raw[:300], answers)
        return False
    if want == "any":
        assert len(answers) <= 1, (raw[:300], answers)
        return not answers or "error" in answers[0]
    assert len(answers) == 1, (raw[:300], answers)
    answer = answers[0]
    if want == "request":
        assert answer["id"] == obj["id"] and type(answer["id"]) is type(obj["id"]), (obj, answer)
    else:
        assert "error" in answer, (raw[:300], answer)
        assert answer["error"]["code"] in (-32700, -32600, -32602), (raw[:300], answer)
    if "error" in answer:
        return True
    result = answer["result"]
    if obj.get("method") == "tools/call" and isinstance(result, dict) and "isError" in result:
        text = " ".join(c.get("text", "") for c in result["content"])
        if wrong is not None and not text.startswith("Unknown tool"):
            assert result["isError"], (obj, text)
            assert wrong in text, (obj, text)  # the argument made wrong is named
        return bool(result["isError"])
    return False


def run_one(send: Any, db: str, tools: dict[str, dict[str, Any]], data: Any) -> None:
    raw, obj, wrong, secrets = data.draw(message(tools), label="message")
    before = fingerprint(db)
    answers = send(raw)
    refused = check(answers, raw, obj, wrong)
    event(f"{expected(obj) if obj is not None else 'refused'}: "
          + ("no answer" if not answers else "error " + str(answers[0]["error"]["code"])
             if "error" in answers[0] else "isError" if refused else "answered"))
    if refused:
        assert fingerprint(db) == before, ("a refused call wrote", raw[:300], answers)
    if secrets and not refused:
        blob = stored_bytes(db)
        assert not [s for s in secrets if len(s) >= 8 and s.encode() in blob], (secrets, answers)


def _tools(answers: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t["inputSchema"] for t in answers[0]["result"]["tools"]}


FUZZ = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])


@FUZZ
@given(data=st.data())
def test_any_message_over_stdio_gets_its_one_answer_and_a_refusal_writes_nothing(
        stdio, db, data) -> None:
    tools = _tools(stdio.exchange(b'{"jsonrpc":"2.0","id":"tools","method":"tools/list"}'))
    run_one(stdio.exchange, db, tools, data)
    assert stdio.proc.poll() is None, stdio.stderr()


@FUZZ
@given(data=st.data())
def test_any_message_over_http_gets_its_one_answer_and_a_refusal_writes_nothing(
        service, db, data) -> None:
    url, key, _ = service
    secret = _KEYS.setdefault(url, key("*"))

    def send(raw: bytes) -> list[dict[str, Any]]:
        return over_http(url, secret, raw)

    tools = _tools(send(b'{"jsonrpc":"2.0","id":"tools","method":"tools/list"}'))
    run_one(send, db, tools, data)


_KEYS: dict[str, str] = {}


# -- the classes found, each pinned ------------------------------------------------------
NOT_MESSAGES = [
    (b"garbage", -32700, None, "Parse error"),
    (b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]', -32600, None, "batch"),
    (b'{"jsonrpc":"1.0","id":4,"method":"ping"}', -32600, 4, "jsonrpc"),
    (b'{"id":4,"method":"ping"}', -32600, 4, "jsonrpc"),
    (b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":"x"}', -32600, 13, "params"),
    (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, None, "id"),
    (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, None, "id"),
    (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, None, "id"),
    (b'{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"remember",'
     b'"arguments":{"text":"a note","scope":"s"}}}', -32600, None, "id"),
    (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"remember",'
     b'"arguments":{"text":"a\\ud800b","scope":"s"}}}', -32700, 7, "params.arguments.text"),
    (b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"remember",'
     b'"arguments":{"text":"a\xffb","scope":"s"}}}', -32700, 8, "params.arguments.text: not UTF-8"),
    (b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"remember",'
     b'"arguments":[1]}}', -32602, 9, "params.arguments"),
    (b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"arguments":{}}}', -32602, 10,
     "params.name"),
]


def _refused_as(answers: list[dict[str, Any]], code: int, rid: Any, names: str) -> None:
    assert len(answers) == 1, answers
    assert answers[0]["id"] == rid and answers[0]["error"]["code"] == code, answers
    assert names in answers[0]["error"]["message"], answers


def test_a_line_that_is_no_message_is_answered_with_the_specs_error_over_stdio(stdio, db):
    """Each was dropped without an answer (the client waited for ever), a request with an
    id of another type too (read as a notification); ``\\xff`` in a text was stored as
    U+FFFD."""
    before = fingerprint(db)
    for raw, code, rid, names in NOT_MESSAGES:
        _refused_as(stdio.exchange(raw), code, rid, names)
    assert stdio.exchange(b"") == []  # a blank line between messages is none
    assert fingerprint(db) == before


def test_a_body_that_is_no_message_is_answered_with_the_specs_error_over_http(service, db):
    """Over HTTP these were -32602 (invalid params) with pydantic's dump of four to six
    validation errors, or a 202 (a request with a bad id run as a notification)."""
    url, key, _ = service
    secret = key("*")
    before = fingerprint(db)
    for raw, code, rid, names in NOT_MESSAGES:
        _refused_as(over_http(url, secret, raw), code, rid, names)
    assert fingerprint(db) == before
