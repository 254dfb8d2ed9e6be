"""The context pack as a demanding user reads it (session 21).

For any budget the service accepts, any token counter memlane offers and odd text (long
lines, emoji, CJK, right-to-left, combining marks, zero-width characters, newlines) in the
memory and in the instructions: the text never exceeds the budget and ``used`` is its
count; no item or message is packed twice; every decision's reason is true (the search
rank it names is the item's rank in the same search; an over-budget sum is over the
budget); and an empty pack says why, naming a budget that does fit, which does.

Session 21 found the last one wrong: a budget below the smallest candidate gave an empty
text with no word (the CLI printed "(nothing relevant found)", the MCP tool "(nothing
relevant found in memory)", though 25 candidates had been found).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.pack.tokens import counter_for
from memlane.testing import example_files, memory

NOW = datetime(2024, 6, 1, tzinfo=UTC)
ODD = ["東京で猫を飼っています、毎朝ごはんをあげる", "أنا أعيش في القاهرة منذ عامين", "שלום, אני גר בתל אביב",
       "I love 🐱🐈‍⬛ and 🍣 so much 👨‍👩‍👧", "cafe\u0301 with combining accent and Zürich",
       "zero\u200bwidth join\u200dtest\u2060 here", "line one\nline two\n\nline four\ttabbed",
       "word " * 300, "x" * 1500, "Ελληνικά γράμματα ΣΊΣΥΦΟΣ"]
MODELS = [None, "gpt-4", "gpt-4o", "some-local-model"]
QUERIES = ["where do I live and work?", "what about the cat?", "running plan", "東京 猫",
           "billing decision postgres", "Zürich café", "what did we decide?", "🐱"]


@pytest.fixture(scope="module")
def mem(tmp_path_factory):
    m = memory(tmp_path_factory.mktemp("pack") / "pack.db",
               confidence={"touch_on_access": False})
    for f in example_files():
        m.import_file(f)
    t = datetime(2024, 5, 1, tzinfo=UTC)
    for i, text in enumerate(ODD):
        m.add_message("alice-assistant", "user" if i % 2 == 0 else "assistant", text,
                      at=t + timedelta(minutes=i))
    m.add_message("solo", "user", "The only message in this scope: I moved to Lisbon", at=t)
    m.index(now=NOW)
    yield m
    m.close()


def _check(mem, pack, query, scope, counter):
    assert pack.used == counter.count(pack.text) <= pack.budget
    kept = [e for e in pack.entries if e.kept]
    items = [e.item_id for e in kept if e.item_id is not None]
    messages = [e.message_id for e in kept if e.kind in ("turn", "message")]
    assert len(items) == len(set(items)) and len(messages) == len(set(messages))
    assert sum(e.tokens for e in kept) >= pack.used - len(kept)  # each line's cost was counted
    hits = mem.search(query, scope=scope, k=mem.config.pack.candidates, now=NOW)
    rank_of = {h.item.id: r for r, h in enumerate(hits, start=1)}
    for e in pack.entries:
        m = re.search(r"search rank (\d+)", e.reason)
        if m:
            assert rank_of[e.item_id] == int(m.group(1)), e
        m = re.fullmatch(r"over budget \((\d+) > (\d+) tokens\)", e.reason)
        if m:
            assert int(m.group(1)) > int(m.group(2)) == pack.budget, e
    assert (pack.notice is None) == bool(kept), pack


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(budget=st.one_of(st.integers(16, 120), st.integers(16, 20_000)),
       model=st.sampled_from(MODELS), query=st.sampled_from(QUERIES),
       scope=st.sampled_from([None, "alice-assistant", "team-backend", "solo", "nobody"]),
       instructions=st.one_of(st.none(), st.sampled_from(ODD), st.text(min_size=1, max_size=200)
                              .filter(lambda t: t.strip() and t.isprintable())))
def test_any_budget_and_counter(mem, budget, model, query, scope, instructions):
    pack = mem.pack(query, budget, scope=scope, model=model, instructions=instructions, now=NOW)
    _check(mem, pack, query, scope, counter_for(model))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("budget", [16, 17, 20, 25, 30])
def test_a_budget_too_small_says_so_and_names_one_that_fits(mem, budget, model):
    query = "where do I live and work?"
    pack = mem.pack(query, budget, scope="alice-assistant", model=model, now=NOW)
    if pack.text:
        return  # something fit: nothing to say
    assert pack.entries, "candidates were found"
    m = re.search(r"nothing fit the budget of (\d+) tokens: (\d+) candidate\(s\) were found, "
                  r"the smallest needs (\d+) tokens with its heading; ask for a budget of at "
                  r"least (\d+)", pack.notice or "")
    assert m and int(m.group(1)) == budget and int(m.group(2)) == len(pack.entries), pack.notice
    enough = int(m.group(4))
    assert enough > budget
    bigger = mem.pack(query, enough, scope="alice-assistant", model=model, now=NOW)
    assert bigger.text and bigger.notice is None  # the budget it named does fit


def test_nothing_found_says_so(mem):
    pack = mem.pack("anything at all", 500, scope="nobody", now=NOW)
    assert pack.text == "" and pack.entries == ()
    assert pack.notice == "nothing in memory matched the query"
    words = mem.pack("?!", 500, now=NOW)
    assert words.text == "" and "has no words to search for" in (words.notice or "")


def test_cli_and_mcp_say_why_a_pack_is_empty(cli_run, tmp_path):
    from memlane.serve.mcp_text import pack_text

    cli_run("import", str(example_files()[0]))
    cli_run("index", "--now", "2024-06-01T00:00:00Z")
    out = cli_run("pack", "where do I live?", "--budget", "16", "--scope", "alice-assistant").output
    assert "nothing fit the budget of 16 tokens" in out and "nothing relevant found" not in out
    text_only = cli_run("pack", "where do I live?", "--budget", "16", "--scope", "alice-assistant",
                        "--text")
    assert text_only.stdout == "" and "nothing fit the budget of 16 tokens" in text_only.stderr
    m = memory(tmp_path / "cli.db")
    try:
        shown = pack_text(m.pack("where do I live?", 16, scope="alice-assistant", now=NOW))
    finally:
        m.close()
    assert shown.startswith("(nothing fit the budget of 16 tokens")
    pack_id = re.search(r"pack (\d+)", out).group(1)
    replay = cli_run("packs", "show", pack_id).output
    assert "nothing fit the budget of 16 tokens" in replay and "nothing relevant found" not in replay
