"""``memlane bench serve``: a short real load run on loopback, and its --mix option."""

from __future__ import annotations

from click.testing import CliRunner

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
                      ("search=0", "positive weight"), ("add=-1", "must be >= 0"), ("", "at least one")):
        result = CliRunner().invoke(cli, ["bench", "serve", "--mix", bad])
        assert result.exit_code == 2, bad
        assert "--mix" in result.output and said in result.output, result.output
