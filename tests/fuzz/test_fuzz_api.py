"""Every public Memory method, driven with arbitrary values: only memlane errors come out,
and the database stays consistent."""

from __future__ import annotations

import inspect
import uuid
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane import Memory
from memlane.config import Config, load_config
from memlane.errors import MemlaneError, ValidationError
from memlane.ingest.params import RULES
from memlane.testing import HashingEmbedder, example_files, memory

SCOPE = "alice-assistant"

offsets = st.builds(timezone, st.timedeltas(min_value=-timedelta(hours=23, minutes=59),
                                            max_value=timedelta(hours=23, minutes=59)))
surrogates = st.sampled_from(["\ud800", "a\udfffb", "chat\udc80", "\udbff"])
controls = st.sampled_from(["a\nb", "x\x1b[2J", "\x00", "\u200b\u200b", "line\r\n", "\x85",
                            "a\u2028b", "\x7f"])
huge_ints = st.sampled_from([2**63, -(2**63) - 1, 10**30, 2**64, -1, 0])
# values a caller might plausibly pass, so calls get past the first check and deeper in
plausible = st.sampled_from([
    SCOPE, "chat-1", "user", "assistant", "turn", "summary", "fact", "note", "private",
    "stated", "Miso", "lives in", "Lisbon", "what is my cat called?", "2024-03-01T10:00:00Z",
    "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00", "closed", "default", 1, 2, 3,
    5, 10, 16, 200, 1e30, float("nan"), float("inf"), True, False, None, ["turn"],
    ["private", "shared"], ("topic",), {"a": 1}, 1.5, 0.5,
])
weird = st.one_of(
    st.none(), st.booleans(), st.integers(), huge_ints,
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30), surrogates,
    controls, st.binary(max_size=8), st.text(min_size=300, max_size=400),
    st.lists(st.one_of(st.text(max_size=5), st.integers()), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.datetimes(timezones=st.one_of(st.none(), offsets)),
    st.just([[[[[[[[[[[]]]]]]]]]]]), st.just(object()), st.just(b"\xff\xfe"),
)
value = st.one_of(plausible, plausible, weird)

PUBLIC = sorted(n for n, v in vars(Memory).items()
                if not n.startswith("_") and callable(v) and not isinstance(v, property))
SKIP = {"close", "start_worker"}  # lifecycle: closing or a background thread


def test_every_public_method_has_a_rule_for_every_parameter():
    for name in PUBLIC:
        if name == "close":
            continue
        assert name in RULES, f"Memory.{name} has no validation rules"
        params = [p for p in inspect.signature(getattr(Memory, name)).parameters if p != "self"]
        assert sorted(RULES[name]) == sorted(params), name


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "memlane.db"
    m = memory(path)
    for f in example_files():
        m.import_file(f)
    m.index(now=datetime(2030, 1, 1, tzinfo=UTC))
    yield m, path
    m.close()


def _consistent(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


@pytest.mark.parametrize("name", [n for n in PUBLIC if n not in SKIP])
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_arbitrary_arguments_raise_only_memlane_errors(loaded, name, data):
    mem, path = loaded
    params = [p for p in inspect.signature(getattr(Memory, name)).parameters.values()
              if p.name != "self"]
    kwargs = {}
    for p in params:
        if p.default is inspect.Parameter.empty or data.draw(st.booleans()):
            kwargs[p.name] = data.draw(value, label=p.name)
    try:
        getattr(mem, name)(**kwargs)
    except MemlaneError:
        pass
    _consistent(path)


@pytest.mark.parametrize(("call", "field"), [
    (lambda m: m.pack(None), "query"),
    (lambda m: m.pack(42), "query"),
    (lambda m: m.pack("cat", instructions=123), "instructions"),
    (lambda m: m.search("cat", k=True), "k"),
    (lambda m: m.search("cat", privacy=[]), "privacy"),
    (lambda m: m.search("cat", kinds=()), "kinds"),
    (lambda m: m.search("cat", privacy=[1]), "privacy"),
    (lambda m: m.add_message(42, "user", "hi"), "scope"),
    (lambda m: m.add_message("x" * 10_000, "user", "hi"), "scope"),
    (lambda m: m.add_message("a\nb", "user", "hi"), "scope"),
    (lambda m: m.add_message("chat", "user", "\ud800"), "text"),
    (lambda m: m.add_message("chat", "user", "\u200b\u200b"), "text"),
    (lambda m: m.add_message("chat", "user", "hi", "9999-12-31T23:59:59-05:00"), "at"),
    (lambda m: m.close_session(session_id=10**30), "session_id"),
    (lambda m: m.pack("cat", budget=10**30), "budget"),
    (lambda m: m.search("cat", since="9999-12-31T23:59:59-05:00"), "since"),
    (lambda m: m.facts(now="9999-12-31T23:59:59-05:00"), "now"),
    (lambda m: m.upsert("note", extra={"a": [[[[]]]] * 2, "b": float("nan")}), "extra"),
    (lambda m: m.search("x" * 5_000_000), "query"),
])
def test_bad_arguments_name_the_parameter(tmp_path, call, field):
    m = memory(tmp_path / "m.db")
    try:
        with pytest.raises(ValidationError) as e:
            call(m)
        assert e.value.field == field
        assert str(e.value).startswith(f"{field}: ")
    finally:
        m.close()


def test_query_cost_is_capped_by_config(tmp_path):
    m = memory(tmp_path / "m.db", retrieval={"max_query_chars": 50})
    try:
        with pytest.raises(ValidationError, match=r"retrieval\.max_query_chars"):
            m.search("word " * 20)
        assert m.search("word " * 5) == []
    finally:
        m.close()


@pytest.mark.parametrize("part", ["config", "embedder", "intelligence", "tracer"])
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=st.one_of(value, st.sampled_from([HashingEmbedder, Config, str, "memlane.toml",
                                             {"db": "x.db"}])))
def test_a_memory_part_of_the_wrong_kind_is_refused_naming_it(tmp_path, part, bad):
    """``Memory(db, config=..., embedder=..., intelligence=..., tracer=...)`` with a value of
    the wrong kind: a ``ValidationError`` naming the parameter, and no database made. A
    path as ``config`` was an ``AttributeError`` ('str' object has no attribute 'facts'),
    a name or a class as ``embedder`` one at the first index run, after messages were
    stored, and ``intelligence`` at the first summary (session 29)."""
    if bad is None or (part == "tracer" and callable(bad)):
        return  # the default, or a function: not a wrong kind
    db = tmp_path / f"{part}-{uuid.uuid4().hex}.db"
    parts = {"config": load_config(environ={}), "embedder": HashingEmbedder(dim=32)}
    with pytest.raises(ValidationError) as e:
        Memory(db, **{**parts, part: bad})
    assert e.value.field == part and str(e.value).startswith(f"{part}: ")
    assert not db.exists()
