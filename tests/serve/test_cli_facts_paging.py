"""``memlane facts list`` past 1,000 facts (session 21): it printed the first 1,000 as if
they were all; --limit/--offset page it and standard error says where the rest start."""

from __future__ import annotations

import json

from memlane.testing import memory


def test_facts_list_says_more_follow_and_offset_reads_them(cli_run, tmp_path):
    with memory(tmp_path / "cli.db") as mem:
        for i in range(1005):
            mem.add_fact("user", f"trait {i:04d}", "v", scope="s", at="2024-01-01T00:00:00Z")
        want = [f.id for f in mem.store.list_facts("s", limit=10_000)]
    first = cli_run("facts", "list", "--scope", "s", "--json")
    assert [f["id"] for f in json.loads(first.stdout)] == want[:1000]
    assert "more facts follow: memlane facts list --scope s --offset 1000" in first.stderr
    rest = cli_run("facts", "list", "--scope", "s", "--offset", "1000", "--json")
    assert [f["id"] for f in json.loads(rest.stdout)] == want[1000:]
    assert "more facts follow" not in rest.stderr
    text = cli_run("facts", "list", "--scope", "s", "--limit", "5", "--offset", "1000")
    assert len(text.stdout.splitlines()) == 5 and "more facts follow" not in text.stderr
    bad = cli_run("facts", "list", "--scope", "s", "--limit", "0", code=2)
    assert "'--limit'" in bad.stderr
