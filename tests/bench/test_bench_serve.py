"""``memlane bench serve``: a short real load run on loopback, and its --mix option."""

from __future__ import annotations

import math
import random

import click
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from memlane.bench.serve import parse_mix, run_serve_bench
from memlane.serve.cli import cli


def test_a_short_load_run_answers_every_request_and_shuts_down_cleanly() -> None:
    r = run_serve_bench(clients=2, seconds=2.0, batch=5, scopes=3, per_scope=10,
                        mix=parse_mix("search=2,add=1"))
    assert r["errors"] == 0, r["first_errors"]
    assert r["shutdown_exit_code"] == 0
    assert set(r["actions"]) == {"search", "add"}
    assert r["actions"]["search"]["count"] > 0
    assert r["messages_added_per_s"] > 0
    assert 0 < r["actions"]["search"]["p50_ms"] <= r["actions"]["search"]["p95_ms"]
    # the service's own CPU per request, read from /proc: it did the searching
    assert r["server_cpu_ms_per_request"] > 0
    assert r["client_cpu_ms_per_request"] > 0


def test_mix_names_one_action_or_weights() -> None:
    assert parse_mix("search") == (("search", 1.0),)
    assert parse_mix("search=0.5, add=2") == (("search", 0.5), ("add", 2.0))
    for bad, said in (("serch", "unknown action 'serch'"), ("search=x", "not a number"),
                      ("search=0", "positive weight"), ("add=-1", "must be from 0 to"), ("", "at least one")):
        result = CliRunner().invoke(cli, ["bench", "serve", "--mix", bad])
        assert result.exit_code == 2, bad
        assert "--mix" in result.output and said in result.output, result.output


_WEIGHTS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**400),
                     st.sampled_from(["", "inf", "-inf", "nan", "1e308", "1e-320"]))


@given(st.lists(st.tuples(st.sampled_from(["search", "pack", "add"]), _WEIGHTS), max_size=5))
@example([("search", "inf")])
@example([("search", "1e308"), ("add", "1e308")])
@example([("search", 1.0), ("search", 2.0)])
def test_a_mix_either_draws_its_actions_or_is_refused(parts):
    """``--mix search=inf`` (or two weights whose sum passes a float's range) ran no request
    at all: every draw failed, and the run printed a table of zeros and exited 0 (session
    31); ``search=1,search=2`` kept the second weight without a word. Any mix is refused
    naming --mix, or each of its actions is drawn with a finite, positive total."""
    text = ",".join(f"{name}={weight}" if weight != "" else name for name, weight in parts)
    try:
        mix = parse_mix(text)
    except click.BadParameter as e:
        assert e.param_hint == "--mix", e
        return
    names = [name for name, _ in mix]
    weights = [w for _, w in mix]
    assert len(set(names)) == len(names) == len(parts), text
    assert all(math.isfinite(w) and w >= 0 for w in weights), text
    assert 0 < sum(weights) < math.inf, text
    drawn = random.Random(0).choices(names, weights, k=100)
    assert set(drawn) <= set(names) and drawn, text
