"""memlane bench ingest on a tiny size: every figure is produced and plausible."""

import json

from click.testing import CliRunner

from memlane.bench.ingest import ingest_command, synthetic_turns


def test_synthetic_turns_are_deterministic():
    assert synthetic_turns(5) == synthetic_turns(5)
    assert len(synthetic_turns(50)) == 50 and all(t.endswith(".") for t in synthetic_turns(50))


def test_bench_ingest_reports_each_figure():
    res = CliRunner().invoke(ingest_command, ["--items", "200", "--embedder", "hashing",
                                              "--queries", "5", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output[res.output.index("["):])
    assert row["backend"] == "sqlite" and row["items"] == 200 and row["embedder"] == "hashing"
    for key in ("add_message_per_s", "index_turns_per_s", "search_p50_ms", "search_p95_ms",
                "scoped_search_p50_ms", "scoped_search_p95_ms"):
        assert row[key] > 0
    assert row["search_p95_ms"] >= row["search_p50_ms"]
    # the exact float32 index is its own reference: recall is exactly 1
    assert row["vector_recall_at_10"] == 1.0 and row["scoped_vector_recall_at_10"] == 1.0
    assert row["rss_mb"] > 10
    assert 0 < row["rss_file_mb"] < row["rss_mb"]  # the libraries, the mapped database


def test_bench_ingest_rejects_bad_sizes():
    res = CliRunner().invoke(ingest_command, ["--items", "ten"])
    assert res.exit_code != 0 and "--items" in res.output


def test_bench_ingest_bulk_measures_search_and_recall_only():
    res = CliRunner().invoke(ingest_command, ["--items", "1200", "--embedder", "hashing", "--bulk",
                                              "--queries", "5", "--json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (row,) = json.loads(res.output[res.output.index("["):])
    assert row["bulk"] is True and row["add_message_per_s"] == 0 and row["index_turns_per_s"] == 0
    assert row["search_p95_ms"] > 0 and row["vector_recall_at_10"] == 1.0


def test_bench_ingest_batches_store_every_message(tmp_path):
    """--batch stores through add_messages (a last, short batch included) and indexes the
    same number of turns; the table names the batch size."""
    from memlane.bench.ingest import run_ingest

    row = run_ingest(205, "hashing", queries=3, folder=tmp_path, batch=50)
    assert row["add_batch"] == 50 and row["add_message_per_s"] > 0
    assert row["turns_indexed"] == 205 and row["index_turns_per_s"] > 0 and row["vector_recall_at_10"] == 1.0
    res = CliRunner().invoke(ingest_command, ["--items", "60", "--embedder", "hashing",
                                              "--queries", "2", "--batch", "25"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert "add_messages/s (batches of 25)" in res.output
    res = CliRunner().invoke(ingest_command, ["--items", "60", "--batch", "0"])
    assert res.exit_code != 0 and "--batch" in res.output


def test_add_synthetic_stores_every_turn_and_closes_every_session(tmp_path):
    from datetime import UTC, datetime

    from memlane.bench.ingest import add_synthetic
    from memlane.config import load_config
    from memlane.memory import Memory

    mem = Memory(config=load_config(environ={}, overrides={
        "db": str(tmp_path / "m.db"), "embedding": {"backend": "hashing"},
        "indexing": {"enabled": False}}))
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    end = add_synthetic(mem, synthetic_turns(125), t0, batch=50)  # 2 full batches and 25
    sessions = mem.sessions(limit=1000)
    assert len(sessions) == 13 and all(s.status == "closed" for s in sessions)
    assert sum(len(mem.messages(s.id)) for s in sessions) == 125
    assert end > max(s.ended_at for s in sessions)
    mem.close()
