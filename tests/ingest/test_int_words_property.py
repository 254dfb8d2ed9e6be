"""An integer's refusal never states a range its value is in (session 32, rev32).

Session 31 worded every integer range as ``validate.int_range`` says it: ``of at least 1``
where the only upper end is what 64 bits hold. A value past 64 bits was then refused with
``must be an integer of at least 1, got 18446744073709551616``: a rule the value keeps, so
the message said nothing of what was wrong. Whatever the range and the value, the words
of a refusal are a rule the value breaks. Checked on the function every surface words its
refusals with, and on the CLI, an HTTP path parameter and a config key."""

from __future__ import annotations

import re

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.ingest.validate import INT64_MAX, int_refused

_WORDS = re.compile(r"must be an integer (?:from (-?\d+) to (-?\d+)|of at least (-?\d+))"
                    r"( that 64 bits hold)?, got (.+)$")


def kept_by(message: str, value: int) -> bool:
    """Whether ``value`` keeps the rule ``message`` states."""
    m = _WORDS.search(message)
    assert m, message
    low = int(m[1] if m[1] is not None else m[3])
    high = int(m[2]) if m[2] is not None else None
    if value < low or (high is not None and value > high):
        return False
    return not (m[4] and value > INT64_MAX)


BOUNDS = st.integers(-2**64, 2**64).flatmap(
    lambda low: st.tuples(st.just(low), st.integers(low, low + 2**64) | st.just(INT64_MAX)))


@settings(max_examples=400, deadline=None)
@given(bounds=BOUNDS, value=st.integers(-2**80, 2**80) | st.sampled_from(
    [INT64_MAX, INT64_MAX + 1, 2**64, -2**63 - 1, 10**30, -10**30]))
def test_a_refusal_states_a_rule_its_value_breaks(bounds: tuple[int, int], value: int) -> None:
    low, high = bounds
    said = int_refused(value, low, high)
    if low <= value <= high:
        assert said is None
        return
    assert said is not None
    assert not kept_by(said, value), said
    rule = said.rsplit(", got ", 1)[0]  # a range nobody chose is not named (session 31)
    assert str(INT64_MAX) not in rule or high != INT64_MAX, said


def test_past_64_bits_on_the_cli_says_so(tmp_path) -> None:
    from memlane.serve.cli import cli

    runner = CliRunner(env={"MEMLANE_EMBEDDING_BACKEND": "hashing",
                            "MEMLANE_DB": str(tmp_path / "m.db")})
    result = runner.invoke(cli, ["sessions", "show", str(2**64)])
    assert result.exit_code == 2, result.output
    assert ("must be an integer of at least 1 that 64 bits hold, got 18446744073709551616"
            in result.stderr), result.stderr


def test_past_64_bits_in_a_config_key_says_so() -> None:
    import pytest

    from memlane.config import load_config
    from memlane.errors import ConfigError

    with pytest.raises(ConfigError) as e:
        load_config(environ={"MEMLANE_RETRIEVAL_CANDIDATES": str(2**70)})
    assert str(e.value) == ("memory.retrieval.candidates: must be an integer of at least 1 that "
                            "64 bits hold, got 1180591620717411303424 (set by "
                            "MEMLANE_RETRIEVAL_CANDIDATES)")


def test_past_64_bits_in_an_http_path_says_so(tmp_path) -> None:
    import httpx

    from memlane.serve.http.app import create_app
    from memlane.testing import memory
    from memlane.testing.http import serving

    mem = memory(tmp_path / "m.db")
    try:
        with serving(create_app(mem, worker=False)) as url:
            r = httpx.get(f"{url}/v1/sessions/{2**64}")
        assert r.status_code == 422, r.text
        message = r.json()["error"]["message"]
        assert "must be an integer of at least 1 that 64 bits hold" in message, message
    finally:
        mem.close()
