"""Words of likelihood leave the lexical query: a question asking for an inference ("What
would Rosa likely study?") is answered by what Rosa told of herself, which does not say
"likely", and the rare word pulled in a turn that does (``retrieval.hedge_words``;
docs/retrieval.md, "Session 54")."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from memlane.config import load_config
from memlane.retrieve.search import question_terms
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
TOLD = ("I spend every weekend at the tide pools with my cousin, and after school I want to "
        "study marine biology at university.")
COUSIN = "My cousin works at the aquarium."
RAIN = "Rain is likely."
SESSIONS = [
    (30, [("Rosa", RAIN), ("Omar", "Then we stay in."),
          ("Rosa", "I repainted the kitchen blue."), ("Omar", "Blue is calm.")]),
    (20, [("Rosa", TOLD), ("Omar", "That suits you."), ("Rosa", COUSIN), ("Omar", "Nice.")]),
]
QUERY = "What would Rosa likely study?"


def _turns(tmp_path: Path, hedges: bool) -> list[str]:
    m = memory(tmp_path / f"h{hedges}.db", retrieval={"hedge_words": hedges})
    try:
        add_sessions(m, SESSIONS, now=NOW, speakers=True)
        return [h.item.text for h in m.search(QUERY, scope="chat", k=8, now=NOW)
                if h.item.kind == "turn"]
    finally:
        m.close()


def test_the_told_session_goes_before_the_hedge(tmp_path: Path) -> None:
    off = _turns(tmp_path, False)
    assert off[0] == TOLD and off.index(RAIN) < off.index(COUSIN)  # "likely" pulls the rain in
    assert load_config(environ={}).retrieval.hedge_words
    on = _turns(tmp_path, True)
    assert on[0] == TOLD and on.index(COUSIN) < on.index(RAIN)


def test_hedge_words_leave_the_terms_only_when_asked() -> None:
    assert "likely" in question_terms(QUERY)
    assert "likely" not in question_terms(QUERY, hedges=True)
    assert question_terms("Likely?", hedges=True) == ["Likely"]  # nothing else left: kept
