"""Speed edits of ``memlane.retrieve`` give what the plain definitions give, to the bit:
``rank_sessions``' session scores (the sum of each session's decayed best turns, the bonus
of each item's kind), and the lowercased words of a text (``_lower_words``)."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

from memlane.retrieve.candidates import Candidate, fuse_lists
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


def test_rank_sessions_ties_go_by_session_id_not_by_their_first_candidates():
    """Until session 36 tied sessions kept the order of their first candidates (7, 9, 5, 8,
    6 here), which is each store's own order: now by session id (``retrieve/order.py``)."""
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    items = {i: Item(i, "turn", "t", t0, session_id=10 - i, role="user") for i in range(1, 6)}
    cands = [Candidate(id=i, rrf=0.0, relevance=0.5) for i in (3, 1, 5, 2, 4)]
    got = rank_sessions(cands, items, StageParams(bonus={"turn.user": 0.3}))
    assert [s.key for s in got] == [5, 6, 7, 8, 9] and len({s.score for s in got}) == 1


def _plain_fuse(lexical, vector, weights, rrf_k, hyde=(), hyde_weight=0.0):
    """``fuse_lists`` as first written: ``rrf`` of the lists, then each list's score and
    rank looked up per fused id."""
    from memlane.retrieve.fuse import rrf

    lists, w = [lexical, vector], [weights[0], weights[1]]
    if hyde and hyde_weight > 0:
        lists.append(hyde)
        w.append(hyde_weight)
    fused = rrf(lists, w, k=rrf_k)
    best = sum(x for x, lst in zip(w, lists, strict=True) if lst) / (rrf_k + 1) or 1.0
    lex = {i: (r, s) for r, (i, s) in enumerate(lexical, start=1)}
    vec = {i: (r, s) for r, (i, s) in enumerate(vector, start=1)}
    hy = {i: r for r, (i, _s) in enumerate(hyde, start=1)}
    return [Candidate(int(i), score, min(1.0, score / best),
                      lex[i][1] if i in lex else None, lex[i][0] if i in lex else None,
                      vec[i][1] if i in vec else None, vec[i][0] if i in vec else None,
                      hy.get(i)) for i, score in fused]


def test_fuse_lists_equals_rrf_and_lookups():
    rng = random.Random(9)

    def ranked(n, pool):
        # scores as a store returns them, ids drawn from a pool (overlaps, some repeated)
        return [(rng.choice(pool), rng.random() * 10) for _ in range(n)]

    for trial in range(300):
        pool = list(range(1, rng.randint(2, 400)))
        lexical = ranked(rng.randint(0, 200), pool)
        vector = ranked(rng.randint(0, 200), pool)
        if rng.random() < 0.5:  # most lists hold each id once
            lexical = list({i: (i, s) for i, s in lexical}.values())
            vector = list({i: (i, s) for i, s in vector}.values())
        hyde = ranked(rng.randint(0, 50), pool) if rng.random() < 0.4 else []
        weights = (rng.choice([0.0, 0.5, 1.0, 1.7]), rng.choice([0.0, 1.0, 0.3]))
        hyde_weight = rng.choice([0.0, 1.0, 0.4])
        rrf_k = rng.choice([1, 60])
        got = fuse_lists(lexical, vector, weights, rrf_k, hyde, hyde_weight)
        want = _plain_fuse(lexical, vector, weights, rrf_k, hyde, hyde_weight)
        assert got == want, trial
        assert [repr(c.rrf) for c in got] == [repr(c.rrf) for c in want]


def test_the_short_first_person_pattern_finds_what_the_long_one_finds():
    from memlane.retrieve.search import SPEAKS_OF_SELF

    # the pattern as first written, every apostrophe form listed
    listed = re.compile(
        r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|our|us)\b", re.IGNORECASE)

    words = ["i", "I", "i'm", "I'M", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we",
             "We're", "we've", "our", "us", "US", "im", "ive", "mee", "mys", "wee", "ours", "usa",
             "it", "hi", "ı", "İ", "i’m", "x", "the", "camp", "2", "_", "é", "I2", "_i", "we_"]
    seps = [" ", "", "'", ",", ".", "\n", "-", "’", "_", "é", "?"]
    rng = random.Random(3)
    texts = ["", "I", "mine!", "i'mx", "xi'm", "we'", "'us'", "ﬀi", "K"]
    for _ in range(20000):
        texts.append("".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(1, 5))))
    found = 0
    for text in texts:
        want = listed.search(text) is None
        assert (SPEAKS_OF_SELF.search(text) is None) == want, text
        found += not want
    assert 0 < found < len(texts)  # both outcomes are tested
