"""``memlane bench ingest`` reports where search time goes, stage by stage."""

import json

from click.testing import CliRunner

from memlane.bench.ingest import ingest_command


def test_bench_ingest_reports_each_search_stage():
    res = CliRunner().invoke(ingest_command, ["--items", "200", "--embedder", "hashing",
                                              "--queries", "5", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output[res.output.index("["):])
    for key in ("search_stages_ms", "scoped_search_stages_ms"):
        stages = row[key]
        assert {"lexical", "vector", "hydrate"} <= set(stages)
        assert all(0 <= v["p50"] <= v["p95"] for v in stages.values())


def test_bench_ingest_table_lists_the_stages():
    res = CliRunner().invoke(ingest_command, ["--items", "200", "--embedder", "hashing",
                                              "--queries", "5"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "| sqlite | hashing | 200 |" in res.output
    assert "search stages p50 / p95 ms, all scopes: lexical " in res.output
    assert "search stages p50 / p95 ms, scoped: lexical " in res.output
