"""Requests made from the service's own ``/openapi.json`` (session 24): every operation, each
of its path, query and header parameters and its body built by a hypothesis strategy
derived from the parameter's or the body's JSON schema (``$ref``, ``anyOf``/``oneOf``,
``enum``/``const``, objects with their required and optional properties, arrays, strings,
integers and numbers within their bounds), then, in most requests, one of them mutated by
its type: a value of another JSON type, one past its bound (``maximum`` + 1, ``maxLength``
+ 1, an integer past 64 bits, NaN), a value outside its ``enum``, a required one left out,
an unknown property added. ``test_fuzz_routes.py`` sends bytes the document does not
describe; this one walks what it does.

Invariants: no 5xx; a request with a value its schema refuses is never a 2xx; a 400 or 422
names, in ``error.field``, the parameter or body field that was made wrong (its last part: ``input.topics.0.weight`` names ``weight``); a 2xx body
validates against the schema the operation declares for it (``jsonschema``, which the MCP
SDK memlane depends on brings); a key the route does not let in is refused: no key 401, a
key of another scope 403 (404 for an object addressed by id: another tenant's object is
reported missing, as designed), a read-only key 403 on every route that writes.
"""

from __future__ import annotations

import json
import math
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memlane.serve.http import create_app
from memlane.testing import example_files, memory
from memlane.testing.http import serving
from tests.serve.http.conftest import Service

WORD = string.ascii_letters + string.digits
TIMES = st.sampled_from(["2024-05-01T10:00:00Z", "2024-06-01", 1717200000])
SCOPES = st.sampled_from(["alice-assistant", "team-backend", "s"])
FREE = st.recursive(
    st.none() | st.booleans() | st.text(max_size=8) | st.integers(-2**70, 2**70)
    | st.sampled_from([2**63, -2**63 - 1, 10**30, float("nan"), float("inf"), 1.5]),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=2), max_leaves=4)


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Service]:
    """The service over the two example conversations (sessions, facts and items to
    address by id), default limits."""
    mem = memory(tmp_path / "fuzz.db")
    try:
        for f in example_files():
            mem.import_file(f)
        mem.index("2024-06-01T00:00:00Z")
        with serving(create_app(mem, worker=False)) as url:
            yield Service(url, mem)
    finally:
        mem.close()


class Spec:
    """``/openapi.json`` and strategies for the values its schemas describe."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.schemas = doc["components"]["schemas"]

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def members(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        schema = self.resolve(schema)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return [m for s in schema[key] for m in self.members(s)]
        return [schema]

    def valid(self, schema: dict[str, Any], name: str = "", depth: int = 0
              ) -> st.SearchStrategy[Any]:
        """Values ``schema`` admits (and memlane's own checks, as far as names tell)."""
        options = [m for m in self.members(schema) if m.get("type") != "null"] or \
            self.members(schema)
        return st.one_of([self._valid(m, name, depth) for m in options])

    def _valid(self, s: dict[str, Any], name: str, depth: int) -> st.SearchStrategy[Any]:
        if "const" in s:
            return st.just(s["const"])
        if "enum" in s:
            return st.sampled_from(s["enum"])
        kind = s.get("type")
        if kind == "null":
            return st.none()
        if kind == "boolean":
            return st.booleans()
        if kind == "integer":
            low = s.get("minimum", 0)
            low = max(low, math.floor(s["exclusiveMinimum"]) + 1) if "exclusiveMinimum" in s \
                else low
            return st.integers(low, min(s.get("maximum", low + 20), low + 20))
        if kind == "number":
            return st.floats(s.get("minimum", 0), s.get("maximum", 100), allow_nan=False)
        if kind == "string":
            if name in ("at", "since", "until", "now", "valid_from", "valid_to"):
                return TIMES.filter(lambda t: isinstance(t, str))
            if name == "scope":
                return SCOPES
            if name == "last-event-id":
                return st.integers(0, 50).map(str)
            low = max(s.get("minLength", 1), 1)
            return st.text(WORD, min_size=low, max_size=max(low, min(s.get("maxLength", 12), 12)))
        if kind == "array":
            if depth > 3:
                return st.just([])
            return st.lists(self.valid(s.get("items", {"type": "string"}), name, depth + 1),
                            min_size=s.get("minItems", 0), max_size=min(s.get("maxItems", 2), 2))
        if kind == "object" or "properties" in s:
            props = s.get("properties", {})
            if not props and s.get("additionalProperties") and depth <= 3:
                # free-form (``extra``, ``source``, ``links``): any JSON, wide integers and
                # NaN among it (session 23's hand-found 500s lived here)
                return st.dictionaries(st.text(WORD, min_size=1, max_size=6), FREE, max_size=3)
            if depth > 3 or not props:
                return st.just({})
            required = set(s.get("required", []))
            return st.fixed_dictionaries(
                {p: self.valid(v, p, depth + 1) for p, v in props.items() if p in required},
                optional={p: self.valid(v, p, depth + 1) for p, v in props.items()
                          if p not in required})
        return st.text(WORD, min_size=1, max_size=8)  # a schema that says nothing

    def wrong(self, schema: dict[str, Any]) -> st.SearchStrategy[Any]:
        """Values ``schema`` does not admit (``wrong_values``), drawn."""
        out = self.wrong_values(schema)
        return st.sampled_from(out) if out else st.nothing()

    def wrong_values(self, schema: dict[str, Any]) -> list[Any]:
        """Values ``schema`` does not admit: another JSON type, or one past its bounds."""
        members = self.members(schema)
        kinds = {m.get("type", "any") for m in members}
        out: list[Any] = []
        if "any" in kinds and not any("const" in m or "enum" in m for m in members):
            return []
        if "string" not in kinds:
            out += ["text", "", "1x"]
        if not kinds & {"integer", "number"}:
            out += [7, 1.5]
        if "integer" in kinds:
            out += [1.5, 2**63, -2**63 - 1, 10**30, "NaN"]
        if "number" in kinds:
            out += [float("nan"), float("inf"), 10**400]
        if "boolean" not in kinds:
            out.append(True)
        if "array" not in kinds:
            out.append(["x"])
        if "object" not in kinds:
            out.append({"x": 1})
        if "null" not in kinds:
            out.append(None)
        for m in members:
            if "enum" in m or "const" in m:
                out.append("not-one-of-them")
            if m.get("type") == "integer" and "maximum" in m and m["maximum"] < 2**63 - 1:
                out.append(m["maximum"] + 1)
            if m.get("type") in ("integer", "number") and m.get("minimum", -1) >= 0:
                out.append(m["minimum"] - 1)
            if m.get("type") == "string" and "maxLength" in m and m["maxLength"] < 5000:
                out.append("x" * (m["maxLength"] + 1))
            if m.get("type") == "array" and "maxItems" in m and m["maxItems"] < 200:
                out.append(["x"] * (m["maxItems"] + 1))
        return out


def wrong_text(spec: Spec, schema: dict[str, Any]) -> list[str]:
    """Texts a path or query parameter of ``schema`` does not admit (every value there is
    text: ``7`` for a string is the string "7")."""
    members = [m for m in spec.members(schema) if m.get("type") != "null"]
    kinds = {m.get("type", "any") for m in members}
    out: list[str] = []
    if any("enum" in m for m in members):
        out.append("not-one-of-them")
    elif kinds == {"string"}:
        if all(m.get("minLength", 0) >= 1 for m in members):
            out.append("")
        out += ["x" * (m["maxLength"] + 1) for m in members if "maxLength" in m]
    elif kinds == {"integer"}:
        out += ["1.5", "x", "", str(2**63), "NaN", "1e3", "-1" if members[0].get(
            "minimum", -1) >= 0 else "x1"]
        out += [str(m["maximum"] + 1) for m in members if "maximum" in m]
    elif kinds == {"boolean"}:
        out += ["maybe", "2", ""]
    return out


def _query_text(value: Any) -> str:
    """How a query or path parameter carries ``value`` (JSON scalars as they print)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)


@st.composite
def request(draw: Any, spec: Spec) -> dict[str, Any]:
    ops = sorted((m, p) for p, o in spec.doc["paths"].items() for m in o)
    method, path = draw(st.sampled_from(ops), label="operation")
    op = spec.doc["paths"][path][method]
    params = op.get("parameters", [])
    body_schema = op.get("requestBody", {}).get("content", {}).get(
        "application/json", {}).get("schema")
    values: dict[str, dict[str, Any]] = {"path": {}, "query": {}, "header": {}}
    for p in params:
        if p["in"] == "path" or p.get("required") or draw(st.booleans()):
            values[p["in"]][p["name"]] = draw(spec.valid(p["schema"], p["name"]), label=p["name"])
    body = draw(spec.valid(body_schema), label="body") if body_schema else None
    if isinstance(body, dict) and isinstance(body.get("input"), dict) and \
            "scope" in _input_fields(spec, body_schema, body.get("kind")) and draw(st.booleans()):
        body["input"].setdefault("scope", draw(SCOPES))
    # one thing made wrong, by its type (most requests)
    wrong: str | None = None
    targets = [("param", p) for p in params
               if p["in"] != "header" and wrong_text(spec, p["schema"])]
    target_body = _body_fields(spec, body_schema, body)
    targets += [("body", t) for t in target_body]
    if targets and draw(st.integers(0, 3)):
        where, target = draw(st.sampled_from(targets), label="made wrong")
        if where == "param":
            bad = draw(st.sampled_from(wrong_text(spec, target["schema"])), label="wrong value")
            values[target["in"]][target["name"]] = bad
            wrong = target["name"]
        else:
            container, field, schema = target
            how = draw(st.sampled_from(["type", "type", "missing", "unknown"]))
            if how == "missing" and field in container:
                del container[field]
                wrong = field if field in _required(spec, schema) else None
            elif how == "unknown":
                container["zz_unknown"] = 1
                wrong = "zz_unknown"
            else:
                container[field] = draw(spec.wrong(schema["properties"][field]),
                                        label="wrong value")
                wrong = field
    filled = path
    for name, value in values["path"].items():
        filled = filled.replace("{" + name + "}", quote(_query_text(value), safe="") or "x")
    query = {k: _query_text(v) for k, v in values["query"].items()}
    headers = {k: _query_text(v) for k, v in values["header"].items()}
    return {"method": method.upper(), "path": path, "url": filled, "params": query,
            "headers": headers, "body": body, "wrong": wrong, "op": op}


def _input_fields(spec: Spec, body_schema: dict[str, Any] | None, kind: Any) -> set[str]:
    """The fields the ``input`` of action ``kind`` takes: a scope is added only where it is
    one (``sessions.show`` takes none: an added scope was the first extra field the answer
    named, not the ``zz_unknown`` made wrong)."""
    for member in spec.members(body_schema or {}):
        props = member.get("properties", {})
        if props.get("kind", {}).get("const") == kind and "input" in props:
            return {f for m in spec.members(props["input"]) for f in m.get("properties", {})}
    return set()


def _required(spec: Spec, schema: dict[str, Any]) -> set[str]:
    return set(spec.resolve(schema).get("required", []))


def _body_fields(spec: Spec, schema: dict[str, Any] | None, body: Any
                 ) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """``(object, field, the object's schema)`` for each field a mutation may target: the
    body's, an action's ``input``'s, and those of the objects nested in them (a topic's
    ``weight`` inside ``topics``: session 23's NaN was found there by hand)."""
    if schema is None or not isinstance(body, dict):
        return []
    member = next((m for m in spec.members(schema)
                   if "const" in m.get("properties", {}).get("kind", {})
                   and m["properties"]["kind"]["const"] == body.get("kind")), None)
    if member is not None:  # an action: its input's fields
        inner = member["properties"].get("input")
        if inner is None or not isinstance(body.get("input"), dict):
            return []
        return _fields_of(spec, body["input"], inner, 0)
    return _fields_of(spec, body, schema, 0)


def _fields_of(spec: Spec, obj: dict[str, Any], schema: dict[str, Any], depth: int
               ) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    obj_schema = next((m for m in spec.members(schema) if "properties" in m), None)
    if obj_schema is None or depth > 3:
        return []
    out = [(obj, f, obj_schema) for f in obj_schema["properties"]]
    for f, value in obj.items():
        prop = obj_schema["properties"].get(f)
        if prop is None:
            continue
        if isinstance(value, dict):
            out += _fields_of(spec, value, prop, depth + 1)
        elif isinstance(value, list):
            arrays = [m for m in spec.members(prop) if m.get("type") == "array"]
            for v in value:
                if isinstance(v, dict) and arrays:
                    out += _fields_of(spec, v, arrays[0].get("items", {}), depth + 1)
    return out


def _named(field: str | None, wrong: str) -> bool:
    if field is None:
        return False
    parts = [p for p in field.replace("[", ".").replace("]", "").split(".") if not p.isdigit()]
    return wrong in parts or field == wrong


_SPEC: dict[str, Spec] = {}


def _spec(url: str) -> Spec:
    if url not in _SPEC:
        _SPEC[url] = Spec(httpx.get(f"{url}/openapi.json", timeout=30).json())
    return _SPEC[url]


_KEYS: dict[str, str] = {}


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(data=st.data())
def test_requests_made_from_the_document_get_its_answers(seeded, data) -> None:
    spec = _spec(seeded.url)
    key = _KEYS.setdefault(seeded.url, seeded.key("*"))
    req = data.draw(request(spec), label="request")
    content = None if req["body"] is None else json.dumps(req["body"], allow_nan=True)
    headers = {**req["headers"], "Authorization": f"Bearer {key}"}
    if content is not None:
        headers["Content-Type"] = "application/json"
    with httpx.Client(base_url=seeded.url, timeout=60) as c:
        r = c.send(c.build_request(req["method"], req["url"], params=req["params"],
                                   content=content, headers=headers), stream=True)
        try:
            if r.headers.get("content-type", "").startswith("text/event-stream"):
                assert r.status_code == 200
                event("stream")
                return
            r.read()
        finally:
            r.close()
    where = (req["method"], req["url"], req["params"], content and content[:300],
             req["wrong"], r.status_code, r.text[:500])
    unprovoked = r.status_code >= 400 and req["wrong"] is None  # what the schema cannot say
    event(f"{req['method']} {req['path']} {r.status_code // 100}xx"
          + (f" {r.json()['error']['field']} unprovoked" if unprovoked else ""))
    assert r.status_code < 500, where
    if r.status_code >= 400:
        body = r.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}, where
        if r.status_code in (400, 422):
            assert body["error"]["field"], where  # every refusal of input names what
            if req["wrong"] is not None:
                assert _named(body["error"]["field"], req["wrong"]), where
        return
    assert req["wrong"] is None, ("a value the document refuses was taken", where)
    answers = req["op"]["responses"][str(r.status_code)]["content"]
    ctype = r.headers["content-type"].split(";")[0]
    assert ctype in answers, where
    if ctype != "application/json":
        return
    declared = answers[ctype]["schema"]
    jsonschema.validate(r.json(), {**declared, "components": spec.doc["components"]},
                        cls=jsonschema.Draft202012Validator)


# -- the keys each route lets in, walked from the document -------------------------------
_BY_ID = {"/v1/sessions/{id}", "/v1/facts/{id}", "/v1/packs/{id}"}


def _plain_request(spec: Spec, method: str, path: str) -> dict[str, Any]:
    """A valid request of the operation, every scope in it ``alice-assistant``."""
    op = spec.doc["paths"][path][method]
    fills = {"id": "1", "scope": "alice-assistant", "entity": "user"}
    url = path
    for name, value in fills.items():
        url = url.replace("{" + name + "}", value)
    query = {p["name"]: {"scope": "alice-assistant", "subject": "user", "predicate": "name"}
             .get(p["name"], "x") for p in op.get("parameters", [])
             if p["in"] == "query" and p.get("required")}
    schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    bodies = {"/actions": {"kind": "sessions.list", "input": {"scope": "alice-assistant"}},
              "/v1/search": {"scope": "alice-assistant", "query": "coffee"},
              "/v1/pack": {"scope": "alice-assistant", "query": "coffee"},
              "/v1/messages": {"scope": "alice-assistant", "text": "a message"},
              "/v1/items": {"scope": "alice-assistant", "text": "a note"}}
    body = bodies.get(path, {"scope": "alice-assistant"}) if schema is not None else None
    return {"method": method.upper(), "url": url, "params": query, "json": body}


def test_every_keyed_route_refuses_no_key_another_scopes_key_and_a_read_only_writer(
        seeded) -> None:
    spec = _spec(seeded.url)
    keys = {"all": seeded.key("*"), "other": seeded.key("zz-other-*"),
            "ro": seeded.key("alice-*", read_only=True)}
    seen = []
    with httpx.Client(base_url=seeded.url, timeout=60) as c:
        for path, ops in spec.doc["paths"].items():
            for method, op in ops.items():
                req = _plain_request(spec, method, path)

                def send(key: str | None) -> httpx.Response:
                    h = {"Authorization": f"Bearer {key}"} if key else {}
                    with c.stream(req["method"], req["url"], params=req["params"],
                                  json=req["json"], headers=h) as r:
                        if r.status_code >= 400 or "event-stream" not in r.headers.get(
                                "content-type", ""):
                            r.read()
                        return r

                if "security" not in op:  # /healthz, /readyz
                    assert send(None).status_code == 200, (method, path)
                    continue
                refused = send(None)
                assert refused.status_code == 401, (method, path, refused.text)
                assert refused.json()["error"]["field"] == "Authorization", refused.text
                other = send(keys["other"])
                want = 404 if path in _BY_ID else 403
                assert other.status_code == want, (method, path, other.text)
                assert other.json()["error"]["field"] in ("scope", "id", "input.scope"), \
                    (method, path, other.text)
                writes = method in ("post", "delete") and path not in (
                    "/v1/search", "/v1/pack", "/actions")
                if path == "/actions":  # a writing action
                    req["json"] = {"kind": "memory.upsert", "input": {
                        "scope": "alice-assistant", "text": "a note"}}
                if writes or path == "/actions":
                    ro = send(keys["ro"])
                    assert ro.status_code == 403 and "read-only" in ro.text, (method, path, ro.text)
                    # the key is named, as a 401 names it (the field was null)
                    assert ro.json()["error"]["field"] == "Authorization", (method, path, ro.text)
                seen.append((method, path))
    assert len(seen) >= 18, seen


# -- the class the walk found, pinned ----------------------------------------------------
@pytest.mark.parametrize("path,body,field", [
    ("/v1/messages", {}, "scope"),
    ("/v1/messages", {"scope": "s"}, "text"),
    ("/v1/messages", {"scope": "s", "text": "x", "messages": [{"scope": "s", "text": "y"}]},
     "messages"),
    ("/actions", {"kind": "memory.add", "input": {"text": "x"}}, "input.scope"),
    ("/v1/sessions/close", {}, "scope"),
    ("/v1/sessions/close", {"scope": "s", "session_id": 1}, "session_id"),
    ("/actions", {"kind": "sessions.close", "input": {"scope": "s", "idle": True}}, "input.idle"),
    ("/actions", {"kind": "memory.add"}, "input.scope"),  # no input at all: named as sent
    ("/actions", {"kind": "memory.search"}, "input.query"),
])
def test_a_rule_over_several_fields_names_one_of_them(sqlite_service, path, body, field) -> None:
    """A rule a model checks over several fields ("scope is required, or messages", "exactly
    one of scope, session_id or idle") was a 422 with ``field`` null (``input`` in an
    action): pydantic gives a model's own error no location."""
    with sqlite_service.client() as c:
        r = c.post(path, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == field, r.text


def test_a_missing_session_to_close_names_session_id(sqlite_service) -> None:
    """``sessions.close`` of a session that does not exist was a 404 with ``field`` null
    (every other 404 names the id that addressed nothing)."""
    with sqlite_service.client() as c:
        plain = c.post("/v1/sessions/close", json={"session_id": 999})
        action = c.post("/actions", json={"kind": "sessions.close", "input": {"session_id": 999}})
    assert plain.status_code == 404 and plain.json()["error"]["field"] == "session_id", plain.text
    assert action.status_code == 404, action.text
    assert action.json()["error"]["field"] == "input.session_id", action.text


def test_the_document_says_which_words_each_field_takes(sqlite_service) -> None:
    """``kind``, ``lane``, ``durability`` and ``privacy`` of an item and the ``kinds``,
    ``lanes`` and ``privacy`` filters of a search were bare strings in ``/openapi.json``: a
    client built from it sent any word and met a 400. Each now lists its words, every one
    of them is taken, and one outside them is still the 400 naming the field. ``source``
    (stated, observed, inferred, system; or a provenance object) was a bare string too
    (session 24)."""
    spec = Spec(httpx.get(f"{sqlite_service.url}/openapi.json", timeout=30).json())
    item = spec.schemas["UpsertInput"]["properties"]
    search = spec.schemas["SearchInput"]["properties"]
    with sqlite_service.client() as c:
        for field in ("kind", "lane", "durability", "privacy", "source"):
            words = next(m["enum"] for m in spec.members(item[field]) if "enum" in m)
            for word in words:
                r = c.post("/v1/items", json={"scope": "s", "text": f"a {word}", field: word})
                assert r.status_code == 200, (field, word, r.text)
            bad = c.post("/v1/items", json={"scope": "s", "text": "x", field: "nonsense"})
            assert bad.status_code == 400 and bad.json()["error"]["field"] == field, bad.text
        for field in ("kinds", "lanes", "privacy"):
            array = next(m for m in spec.members(search[field]) if m.get("type") == "array")
            assert array["minItems"] == 1
            r = c.post("/v1/search", json={"query": "x", field: array["items"]["enum"]})
            assert r.status_code == 200, (field, r.text)
            for bad_value in ([], ["nonsense"]):
                bad = c.post("/v1/search", json={"query": "x", field: bad_value})
                assert bad.status_code == 400, (field, bad_value, bad.text)
                assert bad.json()["error"]["field"] == field, bad.text


# -- every field of every operation, each wrong value once -------------------------------
def canonical(spec: Spec, schema: dict[str, Any], name: str = "", full: bool = True,
              depth: int = 0) -> Any:
    """One value ``schema`` admits, made the same way each time (``full``: with every
    optional property of an object too)."""
    members = [m for m in spec.members(schema) if m.get("type") != "null"] or [{"type": "null"}]
    objects = [m for m in members if "properties" in m]
    s = objects[0] if objects and depth < 3 else members[0]
    if "const" in s:
        return s["const"]
    if "enum" in s:
        return s["enum"][-1]
    kind = s.get("type")
    if kind == "integer":
        return int(max(s.get("minimum", 1), 1))
    if kind == "number":
        return min(max(s.get("minimum", 0.5), 0.5), s.get("maximum", 0.5))
    if kind == "boolean":
        return False
    if kind == "array":
        return [canonical(spec, s.get("items", {"type": "string"}), name, full, depth + 1)]
    if "properties" in s:
        required = set(s.get("required", []))
        return {p: canonical(spec, v, p, full, depth + 1) for p, v in s["properties"].items()
                if p in required or full}
    if kind == "object":
        values = s.get("additionalProperties")
        return {"k": canonical(spec, values, "k", full, depth + 1)
                if isinstance(values, dict) else "v"}
    if name in ("at", "since", "until", "now", "valid_from", "valid_to"):
        return "2024-05-01T10:00:00Z"
    return {"scope": "alice-assistant", "subject": "user", "predicate": "lives_in",
            "entity": "user", "query": "coffee", "question": "coffee",
            "preset": "default"}.get(name, "word")


def _variants(spec: Spec, schema: dict[str, Any]) -> list[Any]:
    """A full example of ``schema`` and a lean one (its required fields, and ``scope`` and
    ``text`` where it takes them: what its rules over several fields ask for)."""
    lean = canonical(spec, schema, full=False)
    target, obj = lean, spec.resolve(schema)
    inner = obj.get("properties", {}).get("input")
    if inner is not None and "kind" in obj.get("properties", {}):  # an action
        target = lean["input"] = canonical(spec, inner, full=False)
        obj = spec.resolve(inner)
    for name in ("scope", "text"):
        if name in obj.get("properties", {}) and isinstance(target, dict):
            target.setdefault(name, canonical(spec, obj["properties"][name], name))
    return [canonical(spec, schema), lean]


def _counts(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if isinstance(v, int)}


def _drop(body: Any, field: str) -> bool:
    """Remove the field a refusal named (``input.top_sessions``, ``messages.0.role``) from
    ``body``; whether there was one to remove."""
    *path, leaf = field.split(".")
    for part in path:
        if isinstance(body, list) and part.isdigit() and int(part) < len(body):
            body = body[int(part)]
        elif isinstance(body, dict) and part in body:
            body = body[part]
        else:
            return False
    return isinstance(body, dict) and body.pop(leaf, None) is not None


def _taken(c: httpx.Client, path: str, good: dict[str, Any]) -> bool:
    """Whether the service takes ``good`` (200, or 404 for an id it does not hold). A field
    the refusal of a rule over several fields names is dropped and the request sent again:
    session 33's rules (an alias beside its name, a field beside a batch, session options
    with a flat ranking) refuse the fullest example, whose other fields are still swept."""
    for _ in range(6):
        r = c.post(path, json=good)
        if r.status_code in (200, 404):
            return True
        field = (r.json().get("error") or {}).get("field") if r.status_code in (400, 422) else None
        if not field or not _drop(good, field):
            return False
    return False


def test_each_wrong_value_of_each_field_is_refused_naming_it(seeded) -> None:
    """For every operation with a body, a request the service takes (built the same way
    each time), then each of its fields (nested ones too) set in turn to each value its
    schema refuses: never a 2xx, never a 5xx, a 400/422 naming that field, and nothing
    stored by any of them. The random walk above draws a few of these; this sends them
    all (about 850 requests, each operation of the document swept)."""
    spec = _spec(seeded.url)
    key = _KEYS.setdefault(seeded.url, seeded.key("*"))
    swept, sent = [], 0
    with httpx.Client(base_url=seeded.url, timeout=60,
                      headers={"Authorization": f"Bearer {key}"}) as c:
        for path, ops in spec.doc["paths"].items():
            op = ops.get("post")
            schema = (op or {}).get("requestBody", {}).get("content", {}).get(
                "application/json", {}).get("schema")
            if schema is None:
                continue
            variants = [v for m in spec.members(schema) if m.get("type") != "null"
                        for v in _variants(spec, m)]
            for good in variants:
                if not _taken(c, path, good):
                    continue  # a rule over several fields the full example breaks
                before = c.get("/v1/stats").json()
                for container, field, obj_schema in _body_fields(spec, schema, good):
                    if field not in container:
                        continue
                    for bad in spec.wrong_values(obj_schema["properties"][field]):
                        kept = container[field]
                        container[field] = bad
                        body = json.dumps(good, allow_nan=True)
                        container[field] = kept
                        r = c.post(path, content=body, headers={"Content-Type": "application/json"})
                        sent += 1
                        where = (path, field, bad, r.status_code, r.text[:300])
                        assert r.status_code in (400, 404, 409, 422), where
                        assert _named(r.json()["error"]["field"], field), where
                after = c.get("/v1/stats").json()
                assert _counts(after) == _counts(before), (path, good, before, after)
                # an item's own kind ("note") is no action's
                swept.append((path, good.get("kind") if path == "/actions" else None))
    from memlane.serve.http.actions import ACTIONS

    every = {("/actions", k) for k in ACTIONS} | {
        (p, None) for p, o in spec.doc["paths"].items() if p != "/actions"
        and "requestBody" in o.get("post", {})}
    assert set(swept) == every, sorted(every - set(swept))  # each operation was swept
    assert sent >= 800, sent

