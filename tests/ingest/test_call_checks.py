"""The checks on add_message's hot path, made cheaper without changing what they say:
``validated`` matches arguments to parameters by hand on the plain path and by
``inspect.Signature.bind`` otherwise (the same outcome; a bad call is a ValidationError
worded as ``bind`` words it), and the control-character check is one regex class."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memlane.config import load_config
from memlane.errors import ValidationError
from memlane.memory import Memory
from memlane.testing import HashingEmbedder


@pytest.fixture
def mem(tmp_path: Path) -> Any:
    m = Memory(str(tmp_path / "p.db"), config=load_config(environ={}),
               embedder=HashingEmbedder(dim=32))
    yield m
    m.close()


def _bind_error(method: Any, *args: Any, **kwargs: Any) -> str:
    """What ``Signature.bind`` says about this call."""
    try:
        inspect.signature(method.__wrapped__).bind(None, *args, **kwargs)
    except TypeError as e:
        return f"{method.__name__}: {e}"
    raise AssertionError("bind accepted the call")


@pytest.mark.parametrize(("args", "kwargs"), [
    (("chat", "user", "hi", None, "x"), {}),                   # too many positionals
    (("chat", "user", "hi"), {"colour": "red"}),               # an unknown keyword
    (("chat", "user", "hi"), {"role": "assistant"}),           # one argument twice
    (("chat",), {"text": "hi"}),                               # a required one missing
    ((), {}),
])
def test_a_bad_call_is_a_validation_error_worded_by_bind(mem: Any, args: tuple[Any, ...],
                                                         kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as got:
        mem.add_message(*args, **kwargs)
    assert str(got.value) == _bind_error(Memory.add_message, *args, **kwargs)
    assert mem.sessions() == []


def test_keywords_in_any_order_name_the_first_bad_parameter_of_the_signature(mem: Any) -> None:
    # speaker comes before id in the signature, whatever order the caller writes them in
    for kwargs in ({"id": "", "speaker": ""}, {"speaker": "", "id": ""}):
        with pytest.raises(ValidationError) as got:
            mem.add_message("chat", "user", "hi", **kwargs)
        assert got.value.field == "speaker"
    with pytest.raises(ValidationError) as got:
        mem.add_message(text="hi", role="nobody", scope="")
    assert got.value.field == "scope"


def test_positional_and_keyword_calls_store_the_same_checked_message(mem: Any) -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    a = mem.add_message("chat", "user", "  one  ", at, speaker="Ana", id="m1")
    b = mem.add_message(scope="chat", text="  two  ", role="user", at=at.isoformat(), id="m2")
    assert (a.scope, a.role, a.speaker, a.ext_id, a.at) == ("chat", "user", "Ana", "m1", at)
    assert (b.scope, b.role, b.ext_id, b.at, b.seq) == ("chat", "user", "m2", at, 2)
    assert [m.text for m in mem.messages(a.session_id)] == [a.text, b.text]


def test_the_control_class_is_unicodes_cc_zl_and_zp() -> None:
    import sys
    import unicodedata

    from memlane.ingest.validate import _has_control

    for c in range(sys.maxunicode + 1):
        ch = chr(c)
        want = 0 if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else -1
        assert _has_control(ch) == want, hex(c)
    assert _has_control("ab\u2028c\x00") == 2 and _has_control("plain text") == -1
