"""A turn that says one thing many times (a pasted log, a 100,000-character message) costs
work in proportion to its length (session 22).

Before, each first-person fact of a turn was replaced by every fact the people patterns read
from the same subject, predicate and turn: a message repeating "I moved to Lisbon." 5,263
times made 5,263 x 5,263 facts before they were deduplicated; four such messages (the
largest ``ingest.max_message_chars`` allows) took 449 s and 930 MB to index on SQLite. Now
each key's facts are placed once: 2.8 s a message (docs/hardening.md, "Session 22").
"""

from __future__ import annotations

from memlane.index.offline import OfflineIntelligence
from memlane.index.schema import Fact
from memlane.testing import offline_summary, turn_messages


def test_facts_read_from_a_repeated_sentence_are_placed_once() -> None:
    (msg,) = turn_messages(["user: " + "I moved to Lisbon. " * 300])
    sentence = "I moved to Lisbon."
    facts = [Fact("user", "lives_in", "Lisbon", seq=msg.seq, text=sentence) for _ in range(300)]
    out = OfflineIntelligence._with_people(facts, [], {}, [(msg, sentence)] * 300,
                                           [(msg, sentence)] * 300)
    assert 1 <= len(out) <= 300  # 90,000 before
    assert {(f.subject, f.predicate, f.object) for f in out} == {("user", "lives_in", "Lisbon")}


def test_a_long_repetitive_turn_gives_the_facts_of_a_short_one() -> None:
    short = offline_summary("user: I moved to Lisbon. My sister Maya lives in Porto.", "assistant: ok")
    long = offline_summary("user: " + "I moved to Lisbon. My sister Maya lives in Porto. " * 400,
                           "assistant: ok")
    key = lambda ex: sorted({(f.subject, f.predicate, f.object) for f in ex[1].facts})  # noqa: E731
    assert key(long) == key(short)
