"""Conversations between people: a matching question lifts its answer, and the best hit's
own words bring the evidence that shares them (feedback)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlane.retrieve.feedback import feedback_terms
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

CHAT = [
    (30, [("Ben", "Ana, what breed is your new dog? Ana, tell me!"),
          ("Ana", "She is a mutt, half beagle and half something fluffy."),
          ("Ben", "Fluffy is the best kind."),
          ("Ana", "I also started a pottery class on Mondays.")]),
    (20, [("Ben", "How was the pottery class, Ana?"),
          ("Ana", "Messy but fun, I made a bowl for my sister."),
          ("Ben", "My sister never liked bowls, Ana."),
          ("Ana", "Ha, everyone likes bowls.")]),
    (10, [("Ana", "Work has been busy, the quarterly report is due."),
          ("Ben", "Good luck with the report, Ana."),
          ("Ana", "Thanks, the coffee keeps me going."),
          ("Ben", "Coffee is the answer, Ana.")]),
]

DOGS = [
    (40, [("Ben", "Ana, any news?"),
          ("Ana", "I adopted dogs! They are all mutts: two are Jack Russell mixes, two are "
                  "Chihuahua mixes."),
          ("Ben", "Four at once, Ana, wow.")]),
    (25, [("Ben", "Ana, how is the garden?"),
          ("Ana", "The tomatoes finally came in, and the basil too."),
          ("Ben", "Fresh basil is great, Ana.")]),
    (15, [("Ben", "Ana, what did you do on Sunday?"),
          ("Ana", "Took Pepper and Panda to the park, my Jack Russell mixes and the other "
                  "mutts ran all day."),
          ("Ben", "Sounds tiring, Ana.")]),
    (5, [("Ben", "Ana, how was the week?"),
         ("Ana", "Quiet week, I read a novel about sailors."),
         ("Ben", "Sailors and novels, Ana, nice.")]),
]


def _chat(path: Path, sessions: list, **retrieval: object):
    return add_sessions(memory(path, retrieval=retrieval), sessions, now=NOW, speakers=True)


def _rank(hits, needle: str) -> int:
    return next((i for i, h in enumerate(hits) if h.item.kind == "turn"
                 and needle in h.item.text), len(hits))


def test_a_matching_question_lifts_its_answer(tmp_path: Path) -> None:
    q = "What breed is Ana's dog?"
    m = _chat(tmp_path / "on.db", CHAT)
    try:
        hits = m.search(q, scope="chat", k=6, now=NOW)
        answer = hits[_rank(hits, "half beagle")]
        asked = hits[_rank(hits, "what breed")]
        assert answer.scores["lifted_from"] == asked.item.id  # the question carried it
        assert _rank(hits, "half beagle") < _rank(hits, "what breed")  # Ana's turn first
    finally:
        m.close()
    off = _chat(tmp_path / "off.db", CHAT, reply_lift=0.0)
    try:
        hits = off.search(q, scope="chat", k=12, now=NOW)
        assert all("lifted_from" not in h.scores for h in hits if "half beagle" in h.item.text)
    finally:
        off.close()


def test_turns_without_speakers_lift_no_reply(tmp_path: Path) -> None:
    m = memory(tmp_path / "plain.db")
    try:
        for i, (role, text) in enumerate([("user", "What breed is a good first dog?"),
                                          ("assistant", "A labrador is friendly and calm.")]):
            m.add_message("chat", role, text, at=NOW - timedelta(days=1, minutes=-i))
        m.close_session("chat")
        m.index(now=NOW)
        hits = m.search("What breed is a good first dog?", scope="chat", k=6, now=NOW)
        reply = next(h for h in hits if "labrador" in h.item.text)
        assert "lifted_from" not in reply.scores
    finally:
        m.close()


def test_feedback_terms_are_the_best_hits_content_words() -> None:
    got = feedback_terms(["They're all mutts: two Jack Russell mixes, 2 of them old.",
                          "Mutts again and Chihuahua mixes"], ["dogs", "breeds"], drop=["Ana"])
    assert got == ["mutts", "Jack", "Russell", "mixes", "Chihuahua"]
    assert feedback_terms(["the dogs of Ana"], ["dogs"], drop=["Ana"]) == []
    assert len(feedback_terms(["alpha bravo charlie delta echo foxtrot"], [], limit=3)) == 3


def test_feedback_brings_the_turn_that_shares_the_best_hits_words(tmp_path: Path) -> None:
    q = "What are the breeds of Ana's dogs?"
    m = _chat(tmp_path / "fb.db", DOGS)
    try:
        hits = m.search(q, scope="chat", k=12, now=NOW)
        assert "Chihuahua" in hits[0].item.text  # the turn the question's words find
        later = hits[_rank(hits, "Pepper and Panda")]
        assert later.scores["feedback_rank"] >= 1  # found by "mutts", "Jack", "mixes"
    finally:
        m.close()
    off = _chat(tmp_path / "nofb.db", DOGS, feedback_weight=0.0)
    try:
        hits = off.search(q, scope="chat", k=12, now=NOW)
        assert all("feedback_rank" not in h.scores for h in hits)
    finally:
        off.close()
