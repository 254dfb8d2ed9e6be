"""Every numeric config key, every spelling of a number (session 25): from a ``MEMLANE_*``
variable and as a quoted value in ``memlane.toml``, a text is read as Python reads an ASCII
number (``1_000``, `` 5 ``, ``+3``, ``1e3``, ``-0.0`` included) and then checked as the
key's range says; anything else is refused naming the key and the variable. Python's
``int()`` and ``float()`` also read the digits of every script (``٣`` was 3, ``１０`` 10), which
no TOML or JSON reader takes: refused now. NaN, infinities and ``1e309`` are refused, as are
integers past 64 bits. The keys are read from ``memlane.config`` itself."""

from __future__ import annotations

import dataclasses
import math
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import _SECTIONS, load_config
from memlane.errors import ConfigError

NUMERIC = [(section, f.name, typing.get_type_hints(cls)[f.name])
           for section, cls in _SECTIONS.items() for f in dataclasses.fields(cls)
           if typing.get_type_hints(cls)[f.name] in (int, float)]

SPELLINGS = ["nan", "-nan", "NaN", "inf", "-inf", "Infinity", "1e309", "-1e309", "-0.0", "0.0",
             "-0", "0", "1", "1_000", " 5 ", "\t7\n", "+3", "5.0", "1e3", "0.5", "1e-3",
             "9223372036854775807", "9223372036854775808", "-9223372036854775809", "9" * 30,
             "0x10", "1__0", "_1", "", " ", "٣", "١٢", "１０", "٣.٥", "۵", "５e1", "1 000"]

texts = st.one_of(
    st.sampled_from(SPELLINGS),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(st.characters(categories=["Nd"]), min_size=1, max_size=4),  # any script's digits
    st.text(st.sampled_from("0123456789._+-eE "), min_size=1, max_size=8),
)


def _expected(text: str, tp: Any) -> float | int | None:
    """What the key may hold when ``text`` is accepted (a range may still refuse it), or
    None: refused whatever the key's range."""
    if not text.strip().isascii():
        return None
    try:
        number = (int if tp is int else float)(text.strip())
    except ValueError:
        return None
    if tp is float and not math.isfinite(number):
        return None
    if tp is int and not -(2**63) <= number < 2**63:
        return None
    return number


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(NUMERIC), text=texts)
def test_every_spelling_of_a_number_in_every_numeric_key(tmp_path: Path, key: Any,
                                                        text: str) -> None:
    section, name, tp = key
    variable = f"MEMLANE_{section.upper()}_{name.upper()}"
    full = f"memory.{section}.{name}"
    expected = _expected(text, tp)
    file = tmp_path / "memlane.toml"
    quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    outcomes = []
    for surface, environ, body in (("variable", {variable: text}, ""),
                                   ("file", {}, f'[memory.{section}]\n{name} = "{quoted}"\n')):
        file.write_text(body, encoding="utf-8")
        try:
            config = load_config(file, environ=environ)
        except ConfigError as e:
            message = str(e)
            assert full in message, (surface, message)
            if surface == "variable":
                assert variable in message, message
            outcomes.append("refused")
            continue
        got = getattr(getattr(config, section), name)
        assert expected is not None, (surface, text, got)
        assert got == expected and type(got) is tp, (surface, text, got)
        outcomes.append(got)
    # the variable and the file's quoted value read alike
    assert outcomes[0] == outcomes[1], (text, outcomes)


@pytest.mark.parametrize("text", ["٣", "１０", "۵", "٣.٥"])
def test_digits_of_other_scripts_are_refused_naming_the_key(text: str) -> None:
    with pytest.raises(ConfigError, match="memory.indexing.max_attempts.*MEMLANE_INDEXING"):
        load_config(None, environ={"MEMLANE_INDEXING_MAX_ATTEMPTS": text})
    with pytest.raises(ConfigError, match="memory.search.lexical_weight"):
        load_config(None, environ={"MEMLANE_SEARCH_LEXICAL_WEIGHT": text})
