"""Hits a floor or cap set to one score go by the score each earned on its own, then by id
(session 37, ``memlane.retrieve.order.by_score``).

In LongMemEval's a89d7624 (a request for things to do on a coming trip to a city) the
evidence turn that continues the session's best user turn (a candidate,
relevance 0.73) and the session's opener (no candidate, relevance 0) were both lifted to
0.9 × that best turn, 1.13225406125447 each; tie36's id put the opener first and the
evidence turn out of the first 10. The chat below has the same shape on both stores.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
Q = "Any suggestions on what to do in Denver? I'm planning a trip there soon."
OPENER = "I'm looking for some music recommendations, I have been to three concerts lately."
CONTINUED = "I'm also planning to find a good BBQ place near Red Rocks Amphitheater."
CHATS = [
    (30, [("user", OPENER),
          ("assistant", "Try the new indie albums."),
          ("user", "On my last visit to Denver I loved the city and its parks, a great trip."),
          ("assistant", "Denver has lovely parks."),
          ("user", CONTINUED),
          ("assistant", "Red Rocks is a wonderful venue.")]),
    (20, [("user", "I'm planning a trip to California and want to pack lightly."),
          ("assistant", "Roll your clothes.")]),
    (25, [("user", "Any suggestions for planning a trip to Japan in spring?"),
          ("assistant", "See the cherry blossoms.")]),
    (15, [("user", "I'm planning a weekend trip to the coast, what to pack?"),
          ("assistant", "A raincoat.")]),
    (12, [("user", "My sister is planning her trip to Paris soon."),
          ("assistant", "Paris is lovely in May.")]),
    (11, [("user", "We are planning a road trip with friends next month."),
          ("assistant", "Plan your stops."),
          ("user", "The trip planning spreadsheet is getting long."),
          ("assistant", "Split it by day.")]),
    (9, [("user", "I'm planning my budget for a trip abroad."),
         ("assistant", "Save a bit each week.")]),
    (10, [("user", "What should I cook for dinner tonight?"),
          ("assistant", "A risotto.")]),
]

def _earned(h) -> float:
    """A hit's score before a floor raised it or a cap lowered it, from its explanation."""
    s = h.scores
    return h.score - s.get("opener", 0.0) - s.get("continues", 0.0) + s.get("below_top", 0.0)


@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_a_continued_turn_with_evidence_goes_before_its_sessions_opener_at_one_floor(
        where, tmp_path, request):
    """The opener (the smaller id, no query word) and the turn that continues the session's
    best user turn (a candidate) are lifted to exactly one floor; the continued turn earned
    more on its own and comes first. On ``c09decf5`` the opener came first, by id."""
    db = request.getfixturevalue("pg_url") if where == "postgres" else tmp_path / "m.db"
    m = add_sessions(memory(db), CHATS, now=NOW)
    try:
        hits = m.search(Q, scope="chat", k=12, now=NOW, explain=True)
        text = {h.item.id: h.item.text for h in hits}
        by_text = {h.item.text: h for h in hits}
        opener, continued = by_text[OPENER], by_text[CONTINUED]
        assert opener.item.id < continued.item.id
        assert opener.score == continued.score  # one floor: 0.9 × the session's best turn
        assert opener.scores["opener"] > 0 and continued.scores["continues"] > 0
        assert continued.scores["relevance"] > 0 == opener.scores["relevance"]
        assert _earned(continued) > _earned(opener)
        order = [h.item.id for h in hits]
        assert order.index(continued.item.id) == order.index(opener.item.id) - 1, [
            text[i] for i in order]
        for a, b in zip(hits, hits[1:], strict=False):  # every tie, by earned then id
            assert a.score >= b.score
            if a.score == b.score:
                assert (_earned(a), -a.item.id) > (_earned(b), -b.item.id), (a, b)
    finally:
        m.close()

