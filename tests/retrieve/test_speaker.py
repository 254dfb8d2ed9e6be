"""Speaker focus: a question naming one participant of a conversation reads their turns."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlane.retrieve.speaker import focus_speaker, without_name
from memlane.testing import add_sessions, memory
from memlane.types import Item

NOW = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)

# Two people chat; Ben says Ana's name a lot and talks about his own research, Ana tells
# her news without repeating any word of the question but "research".
CHAT = [
    (9, [("Ana", "I spent the whole week on research into adoption agencies near us."),
         ("Ben", "Ana, that is big news! Ana, you always surprise me."),
         ("Ben", "My research this week was on pottery classes, Ana, for the kids."),
         ("Ana", "Pottery sounds fun, the kids will love it.")]),
    (5, [("Ben", "Ana, how was the weekend? Ana, did you rest?"),
         ("Ana", "We went camping by the lake and I finally slept well."),
         ("Ben", "Ana, I did research on tents, Ana, and bought one.")]),
]


def _chat(path: Path, **retrieval: object):
    return add_sessions(memory(path, retrieval=retrieval), CHAT, now=NOW, speakers=True)


def _turn(text: str, speaker: str | None) -> Item:
    return Item(id=1, kind="turn", text=text, at=NOW,
                extra={"speaker": speaker} if speaker else {})


def test_focus_needs_one_named_speaker_among_several() -> None:
    turns = [_turn("hi", "Ana"), _turn("hello", "Ben Stone")]
    assert focus_speaker(turns, ["Ana", "research"]) == "Ana"
    assert focus_speaker(turns, ["ben", "stone", "tents"]) == "Ben Stone"  # every word, any case
    assert focus_speaker(turns, ["Ben", "tents"]) is None  # half a name is no name
    assert focus_speaker(turns, ["Ana", "Ben", "Stone"]) is None  # both named: no focus
    assert focus_speaker([_turn("hi", "Ana"), _turn("yo", None)], ["Ana"]) is None  # one speaker
    assert without_name(["Ana", "research"], "Ana") == ["research"]
    assert without_name(["Ana"], "Ana") == ["Ana"]  # nothing else to search for
    # a typographic apostrophe stays inside the query word: the possessive still names her
    assert focus_speaker(turns, ["Ana\u2019s", "hobbies"]) == "Ana"
    assert without_name(["Ana\u2019s", "hobbies"], "Ana") == ["hobbies"]


def test_a_question_about_one_speaker_ranks_their_own_turns_first(tmp_path: Path) -> None:
    q = "What did Ana research?"
    m = _chat(tmp_path / "on.db")
    try:
        hits = m.search(q, scope="chat", k=4, now=NOW)
        assert "adoption agencies" in hits[0].item.text
        assert hits[0].item.extra["speaker"] == "Ana"
        assert "other_speaker" not in hits[0].scores
        # the other speaker's turns say why they went down
        hits = m.search(q, scope="chat", k=12, now=NOW)
        bens = [h for h in hits if h.item.kind == "turn" and h.item.extra.get("speaker") == "Ben"]
        assert bens and all(h.scores["other_speaker"] == 0.6 for h in bens)
    finally:
        m.close()
    off = _chat(tmp_path / "off.db", speaker_factor=1.0)
    try:  # without the focus Ben's research, which says "Ana" twice, comes first
        top = off.search(q, scope="chat", k=4, now=NOW)[0]
        assert top.item.extra["speaker"] == "Ben"
        assert "other_speaker" not in top.scores
    finally:
        off.close()


def test_memories_without_speakers_are_not_affected(tmp_path: Path) -> None:
    def run(path: Path, factor: float) -> list[str]:
        m = memory(path, retrieval={"speaker_factor": factor})
        try:
            for days, turns in CHAT:
                for i, (who, text) in enumerate(turns):
                    m.add_message("chat", "user" if who == "Ana" else "assistant", text,
                                  at=NOW - timedelta(days=days, minutes=-i))
                m.close_session("chat")
            m.index(now=NOW)
            return [h.item.text for h in m.search("What did Ana research?", scope="chat",
                                                   k=6, now=NOW)]
        finally:
            m.close()

    assert run(tmp_path / "a.db", 0.6) == run(tmp_path / "b.db", 1.0)


def test_bad_settings_name_their_key() -> None:
    import pytest

    from memlane.config import load_config
    from memlane.errors import ConfigError

    with pytest.raises(ConfigError, match="retrieval.speaker_factor"):
        load_config(environ={}, overrides={"retrieval": {"speaker_factor": 1.5}})
    with pytest.raises(ConfigError, match="retrieval.meaning_window"):
        load_config(environ={}, overrides={"retrieval": {"meaning_window": -1}})
