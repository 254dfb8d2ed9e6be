"""Every operation of ``/openapi.json`` fuzzed (session 23): requests built from the
document (its paths, parameters and body fields) and beyond it (wrong types, integers past
64 bits, NaN and Infinity in the JSON, deep nesting, long strings, lone surrogates, bytes
that are not UTF-8, percent-escapes of them in the path and the query, odd content types,
empty bodies, Unicode and Latin-1 bytes in headers). Whatever is sent: no 5xx, no hang
(every request bounded), an error in the service's shape, and a 2xx that wrote leaves the
memory readable (a search and a listing of what was written answer 200).

Found with it, each fixed at its class: an integer past 64 bits in an item's ``extra`` (or
``source``, ``links``, ``entities``) was stored, then every answer carrying it was a 500;
NaN or Infinity in a float field was read as a number (``topics: [{"weight": NaN}]`` a
200, ``trust: NaN`` "less than or equal to 1"); percent-escapes that are not UTF-8 in a
path or query (``DELETE /v1/scopes/%FF``) were decoded with replacement characters and
acted on the scope ``\\ufffd``."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote_from_bytes

import httpx
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

_SPEC: dict[str, Any] = {}


def _spec(url: str) -> dict[str, Any]:
    if not _SPEC:
        _SPEC.update(httpx.get(f"{url}/openapi.json", timeout=30).json())
    return _SPEC


def _operations(spec: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((m, p) for p, ops in spec["paths"].items() for m in ops)


def _body_fields(spec: dict[str, Any], method: str, path: str) -> list[str]:
    """The body's property names (every variant's, for unions and /actions' input)."""
    op = spec["paths"][path][method]
    schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get(
        "schema", {})
    names: set[str] = set()
    stack, seen = [schema], set()
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref and ref not in seen:
                seen.add(ref)
                stack.append(spec["components"]["schemas"][ref.rsplit("/", 1)[1]])
            names.update(node.get("properties", {}))
            stack.extend(v for k, v in node.items() if k != "$ref")
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(names) or ["query"]


scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.sampled_from([0, 1, -1, 16, 2**63 - 1, 2**63, -2**63 - 1, 10**30])
           | st.floats() | st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e308])
           | st.text(max_size=20)
           | st.sampled_from(["", " ", "s", "\ud800", "a\nb", "x\x00y", "é" * 300, "*",
                             "2024-05-01T10:00:00Z", "9999-12-31T23:59:59Z", "user",
                             "note", "pref", "alice", "lives_in"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)


VALID = {
    "/v1/messages": {"scope": "s", "text": "hello there"},
    "/v1/items": {"scope": "s", "text": "a note"},
    "/v1/search": {"query": "note"}, "/v1/pack": {"query": "note"}, "/v1/index": {},
    "/v1/sessions/close": {"scope": "s"},
    "/actions": {"kind": "memory.upsert", "input": {"scope": "s", "text": "a note"}},
}
"""A valid body of each route with one: the "one wild field" requests start from it, so
they reach the handlers (and the store) instead of stopping at validation."""


@st.composite
def bodies(draw: Any, path: str, fields: list[str]) -> tuple[bytes | None, str | None]:
    """``(body, content type)``: mostly JSON objects of the route's fields, sometimes not."""
    kind = draw(st.sampled_from(["fields"] * 4 + ["one"] * 4
                                + ["deep", "raw", "empty", "value", "long"]))
    if kind == "one":  # a valid body with one field set to anything
        obj = json.loads(json.dumps(VALID.get(path, {})))
        target = obj["input"] if path == "/actions" else obj
        target[draw(st.sampled_from(fields), label="field")] = draw(values, label="value")
        body = json.dumps(obj, allow_nan=True).encode()
    elif kind == "fields":
        names = st.sampled_from(fields) | st.text(max_size=6)
        obj = draw(st.dictionaries(names, values, max_size=5))
        if "kind" in fields and draw(st.booleans()):  # /actions: a real kind, often
            from memlane.serve.http.actions import ACTIONS

            obj = {"kind": draw(st.sampled_from(sorted(ACTIONS))),
                   "input": draw(st.dictionaries(st.text(max_size=12), values, max_size=4))}
        body = json.dumps(obj, allow_nan=True).encode()  # NaN, Infinity as Python writes them
    elif kind == "deep":
        depth = draw(st.sampled_from([50, 200, 3000]))
        inner = draw(st.sampled_from(["[", '{"extra":']))
        body = ('{"text":"x","scope":"s","extra":' + inner * depth + "1"
                + ("]" if inner == "[" else "}") * depth + "}").encode()
    elif kind == "raw":
        body = draw(st.binary(max_size=40)) + draw(st.sampled_from([b"", b"\xff", b"\xed\xa0\x80"]))
    elif kind == "long":
        body = json.dumps({"query": "x" * 3000, "text": "y" * 3000, "scope": "s"}).encode()
    elif kind == "value":
        body = json.dumps(draw(values), allow_nan=True).encode()
    else:
        body = b""
    ctype = draw(st.sampled_from(["application/json"] * 5 + [
        None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
        "application/json; charset=latin-1", "application/jsonx", "*/*"]))
    return body, ctype


segments = st.one_of(
    st.text(min_size=1, max_size=12).map(lambda t: quote_from_bytes(t.encode("utf-8", "surrogatepass"), safe="")),
    st.binary(min_size=1, max_size=6).map(lambda b: quote_from_bytes(b, safe="")),
    st.sampled_from(["1", "0", "-1", "9223372036854775808", "1e3", "NaN", "Lisbon", "s",
                     "%E2%82%AC", "a%0Ab", "%ED%A0%80", "caf%C3%A9", "CI%2FCD"]))
queries = st.lists(st.tuples(
    st.sampled_from(["scope", "subject", "predicate", "limit", "offset", "status", "from_turn",
                     "include_superseded", "last_event_id", "x"]),
    segments), max_size=3)
headers = st.dictionaries(
    st.sampled_from(["Authorization", "Last-Event-ID", "X-Odd", "Accept"]),
    # any byte an HTTP parser lets through (no control characters): Latin-1 and UTF-8 too
    st.binary(max_size=16).map(lambda b: bytes(c for c in b if 0x20 <= c != 0x7f).strip())
    | st.sampled_from([b"Bearer \xc3\xa9", b"Bearer ml_x", b"Bearer \xff", b"-1", b"1e3"]),
    max_size=2)


def _check_error(r: httpx.Response) -> None:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}, body


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@seed(2323)
@given(data=st.data())
def test_any_request_to_any_route_is_answered_without_a_5xx(sqlite_service, data) -> None:
    url = sqlite_service.url
    spec = _spec(url)
    method, path = data.draw(st.sampled_from(_operations(spec)), label="operation")
    filled = path
    while "{" in filled:
        start, end = filled.index("{"), filled.index("}")
        filled = filled[:start] + data.draw(segments, label="segment") + filled[end + 1:]
    query = "&".join(f"{k}={v}" for k, v in data.draw(queries, label="query"))
    target = filled + ("?" + query if query else "")
    hdrs: dict[str, Any] = dict(data.draw(headers, label="headers"))
    content = None
    if method in ("post", "put", "patch"):
        content, ctype = data.draw(bodies(path, _body_fields(spec, method, path)), label="body")
        if ctype is not None:
            hdrs["Content-Type"] = ctype
    with httpx.Client(base_url=url, timeout=30) as c:
        request = c.build_request(method.upper(), url + target, content=content, headers=hdrs)
        r = c.send(request, stream=True)  # a stream answers at once; its body is never read
        try:
            if r.headers.get("content-type", "").startswith("text/event-stream"):
                assert r.status_code == 200
                return
            r.read()
        finally:
            r.close()
        assert r.status_code < 500, (method, target, content, hdrs, r.text)
        if r.status_code >= 400:
            _check_error(r)
            return
        if method in ("post", "delete") and path != "/v1/search":
            # what a write left is readable: a search and the listings answer 200
            for read in (c.post("/v1/search", json={"query": "x y z note"}),
                         c.get("/v1/sessions"), c.get("/v1/facts")):
                assert read.status_code == 200, (method, target, content, read.text)


# -- the classes the fuzzing found, each pinned -------------------------------------------
WIDE = st.sampled_from([2**63, -2**63 - 1, 10**30, -(10**40)])


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["extra", "source", "links", "entities", "actions"]),
       wide=WIDE, depth=st.integers(0, 3))
def test_an_integer_past_64_bits_is_refused_and_nothing_stored(sqlite_service, where, wide,
                                                               depth) -> None:
    value: Any = wide
    for _ in range(depth):
        value = {"n": [value]}
    body: dict[str, Any] = {"scope": "s", "text": "a note"}
    key = "extra" if where == "actions" else where
    body[key] = {"v": value} if key in ("extra", "source") else (
        {"to": [value]} if key == "links" else [{"n": value}])
    with sqlite_service.client() as c:
        before = c.get("/v1/stats").json()["items"]
        if where == "actions":
            r = c.post("/actions", json={"kind": "memory.upsert", "input": body})
        else:
            r = c.post("/v1/items", json=body)
        assert r.status_code == 400, r.text
        assert r.json()["error"]["field"] in ("extra", "input.extra"), r.text
        assert "past 64 bits" in r.json()["error"]["message"], r.text
        assert c.get("/v1/stats").json()["items"] == before


def test_an_old_row_holding_a_wide_integer_is_still_answered(sqlite_service) -> None:
    """A row stored before the refusal (through the store, as an old release did): the
    answers carrying it are written by the slower encoder, not a 500."""
    mem = sqlite_service.mem
    item = mem.upsert("zebra crossing note", scope="s", extra={"n": 1})
    with mem.store.atomic():
        mem.store.db.execute("UPDATE items SET extra = ? WHERE id = ?",
                             (json.dumps({"n": 10**30}), item))
    with sqlite_service.client() as c:
        r = c.post("/v1/search", json={"query": "zebra crossing", "scope": "s"})
        assert r.status_code == 200, r.text
        assert r.json()["hits"][0]["item"]["extra"] == {"n": 10**30}


NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400"]
FLOATS = [("/v1/items", {"scope": "s", "text": "x"}, "trust"),
          ("/v1/items", {"scope": "s", "text": "x"}, "at"),
          ("/v1/items", {"scope": "s", "text": "x", "topics": [{"name": "t", "weight": 1}]},
           "topics.0.weight"),
          ("/v1/messages", {"scope": "s", "text": "x"}, "at"),
          ("/v1/search", {"query": "x"}, "since"), ("/v1/search", {"query": "x"}, "now"),
          ("/v1/pack", {"query": "x"}, "now"), ("/v1/index", {}, "now"),
          ("/v1/sessions/close", {"idle": True}, "now")]


def test_nan_and_infinity_are_refused_naming_the_field(sqlite_service) -> None:
    """Python's JSON reader takes NaN and Infinity: a float field read them as numbers
    (``topics: [{"weight": NaN}]`` stored the item, ``trust: NaN`` was "less than or equal
    to 1"). Every number the service takes is finite, or a 422 naming it."""
    with sqlite_service.client() as c:
        before = c.get("/v1/stats").json()["items"]
        for path, base, field in FLOATS:
            for bad in NON_FINITE:
                body = json.dumps(base)
                if "." in field:
                    body = body.replace('"weight": 1', f'"weight": {bad}')
                else:
                    body = body[:-1] + (", " if base else "") + f'"{field}": {bad}}}'
                r = c.post(path, content=body, headers={"Content-Type": "application/json"})
                assert r.status_code == 422, (path, body, r.text)
                assert r.json()["error"]["field"] == field, (path, body, r.text)
                assert "finite" in r.json()["error"]["message"], (path, body, r.text)
        assert c.get("/v1/stats").json()["items"] == before


def test_percent_escapes_that_are_not_utf8_are_refused_naming_the_parameter(
        sqlite_service) -> None:
    """``%FF`` (or a lone surrogate's ``%ED%A0%80``) in a path or query was decoded to
    U+FFFD: ``DELETE /v1/scopes/%FF`` erased the scope named "\\ufffd"."""
    mem = sqlite_service.mem
    mem.add_message("\ufffd", "user", "a message in the replacement-character scope")
    key = sqlite_service.key("*")
    with sqlite_service.client() as c:
        assert c.delete("/v1/scopes/%FF").status_code == 401  # the key first, as everywhere
    with sqlite_service.client(key) as c:
        for method, target, field in [
                ("DELETE", "/v1/scopes/%FF", "scope"), ("DELETE", "/v1/scopes/a%ED%A0%80", "scope"),
                ("GET", "/v1/graph/%C3", "entity"), ("GET", "/v1/facts?subject=%FF", "subject"),
                ("GET", "/v1/sessions?scope=%ED%A0%80", "scope"),
                ("GET", "/state/memory?scope=%FF", "scope"), ("GET", "/v1/facts?%FF=1", "query")]:
            r = c.request(method, target)
            assert r.status_code == 400, (target, r.text)
            assert r.json()["error"]["field"] == field, (target, r.text)
            assert "not UTF-8" in r.json()["error"]["message"], (target, r.text)
        assert c.get("/v1/sessions", params={"scope": "\ufffd"}).json()["sessions"]  # kept
        ok = c.delete("/v1/scopes/caf%C3%A9")  # UTF-8 escapes are as before
        assert ok.status_code == 200 and ok.json()["scope"] == "café"
