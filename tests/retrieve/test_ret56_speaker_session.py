"""A question naming one of a conversation's speakers and asking for one thing weighs the
session signal more (``retrieval.speaker_session_weight``; docs/retrieval.md, "Session 56"):
the answer is a further turn of the best session, which another session's best turn
outscored by a little. A question asking for several things is left as it was."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memlane.config import load_config
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
ANSWER = "Trail running up in the hills, mostly on weekends."
ELSEWHERE = "My brother needs shoes for his big wedding day."
SESSIONS = [
    (30, [("Ivan", "I got new shoes this week, bright purple ones."),
          ("Omar", "Nice new shoes! What are they for?"),
          ("Ivan", ANSWER),
          ("Omar", "Sounds fun, the hills are lovely."),
          ("Ivan", "The new shoes feel light and they grip well."),
          ("Omar", "Purple shoes suit you, new shoes are the best."),
          ("Ivan", "Thanks, new shoes always cheer me up.")]),
    (10, [("Ivan", ELSEWHERE)]),
]


def _hits(tmp_path: Path, weight: float, query: str) -> list[tuple[str, float]]:
    m = memory(tmp_path / f"w{weight}.db", retrieval={"speaker_session_weight": weight})
    try:
        add_sessions(m, SESSIONS, now=NOW, speakers=True)
        return [(h.item.text, h.score) for h in m.search(query, scope="chat", k=8, now=NOW)
                if h.item.kind == "turn"]
    finally:
        m.close()


def _texts(hits: list[tuple[str, float]]) -> list[str]:
    return [text for text, _ in hits]


def test_the_best_sessions_answer_passes_another_sessions_turn(tmp_path: Path) -> None:
    query = "What are Ivan's new shoes for?"
    off = _texts(_hits(tmp_path, 0.0, query))
    assert off.index(ELSEWHERE) < off.index(ANSWER)
    assert load_config(environ={}).retrieval.speaker_session_weight == 0.3
    on = _texts(_hits(tmp_path, 0.3, query))
    assert on.index(ANSWER) < on.index(ELSEWHERE)


def test_a_question_asking_for_several_things_is_unchanged(tmp_path: Path) -> None:
    query = "What kinds of shoes does Ivan wear?"
    assert _hits(tmp_path, 0.0, query) == _hits(tmp_path, 0.3, query)
