"""Speed edits of ``memlane.retrieve`` give what the plain definitions give, to the bit:
``rank_sessions``' session scores (the sum of each session's decayed best turns, the bonus
of each item's kind), and the lowercased words of a text (``_lower_words``)."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

from memlane.retrieve.candidates import Candidate
from memlane.retrieve.search import _lower_words
from memlane.retrieve.twostage import StageParams, kind_key, rank_sessions, session_key
from memlane.types import Item


def _plain_scores(cands, items, params):
    """Stage one's session scores as the module defines them (no time windows)."""
    turns, intel = {}, {}
    order = []
    for c in cands:
        it = items.get(c.id)
        if it is None:
            continue
        key = session_key(it)
        if key not in turns:
            order.append(key)
            turns[key], intel[key] = [], 0.0
        rel = c.relevance + params.bonus.get(kind_key(it), 0.0)
        if it.kind == "turn" or it.session_id is None:
            turns[key].append(rel)
        else:
            intel[key] = max(intel[key], rel)
    out = {}
    for key in order:
        rel = sorted(turns[key], reverse=True)[: params.depth]
        out[key] = sum(r * params.decay**j for j, r in enumerate(rel)) + params.intel_weight * intel[key]
    return out


def _store(rng: random.Random, n: int):
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    items, cands = {}, []
    for i in range(1, n + 1):
        kind = rng.choice(["turn", "turn", "turn", "summary", "fact"])
        session = rng.choice([None, *range(1, n // 3 + 2)])
        items[i] = Item(i, kind, f"text {i}", t0 + timedelta(minutes=i), session_id=session,
                        role=rng.choice([None, "", "user", "assistant"]) if kind == "turn" else None)
        cands.append(Candidate(id=i, rrf=0.0, relevance=rng.random() * rng.choice([1.0, 1e-9, 3.0])))
    cands.append(Candidate(id=n + 7, rrf=0.0, relevance=0.5))  # an item deleted since
    rng.shuffle(cands)
    return items, cands


def test_rank_sessions_scores_equal_the_plain_definition():
    rng = random.Random(5)
    for trial in range(60):
        items, cands = _store(rng, rng.randint(1, 300))
        params = StageParams(depth=rng.choice([0, 1, 2, 3, 5]), decay=rng.choice([0.3, 0.5, 1.0]),
                             intel_weight=rng.choice([0.0, 0.5]),
                             bonus=rng.choice([{}, {"turn.user": 0.3}, {"turn.user": 0.3, "fact": 0.1}]))
        want = _plain_scores(cands, items, params)
        got = rank_sessions(cands, items, params)
        assert {s.key: s.score for s in got} == want, trial
        assert [s.score for s in got] == sorted(want.values(), reverse=True)
        assert [s.rank for s in got] == list(range(1, len(got) + 1))


def test_lower_words_equals_lowering_each_word():
    word = re.compile(r"\w+")
    texts = ["Hello World, it's ME again_2", "İstanbul ISTANBUL istanbul", "Straße STRASSE",
             "ΣΊΣΥΦΟΣ Σίσυφος", "tab\tnew\nline", "", "   ", "ǅemal ǈubljana", "\u212a (Kelvin) k"]
    for text in texts:
        assert _lower_words(text) == {w.lower() for w in word.findall(text)}, text
    assert _lower_words("İstanbul") == {"i̇stanbul"}  # not split at the combining dot


def test_rank_sessions_ties_keep_the_order_of_their_first_candidates():
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    items = {i: Item(i, "turn", "t", t0, session_id=10 - i, role="user") for i in range(1, 6)}
    cands = [Candidate(id=i, rrf=0.0, relevance=0.5) for i in (3, 1, 5, 2, 4)]
    got = rank_sessions(cands, items, StageParams(bonus={"turn.user": 0.3}))
    assert [s.key for s in got] == [7, 9, 5, 8, 6] and len({s.score for s in got}) == 1
