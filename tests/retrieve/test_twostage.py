"""Two-stage retrieval on a small synthetic memory: ordering, time, explain, presets."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.errors import ConfigError, ValidationError
from memlane.retrieve.explain import explain, explain_lines
from memlane.retrieve.rerank import SIGNALS
from memlane.testing import add_sessions, memory

NOW = datetime(2024, 6, 20, 12, 0, tzinfo=UTC)
SESSIONS = [
    # (days before NOW, [(role, text), ...])
    (40, [("user", "I adopted a rescue dog called Rex from the shelter"),
          ("assistant", "Congratulations on adopting Rex! Rescue dogs are wonderful."),
          ("user", "Rex is a three year old beagle and loves long walks"),
          ("assistant", "Beagles need plenty of exercise and a good harness.")]),
    (9, [("user", "Rex has a vet appointment for his vaccinations on Friday"),
         ("assistant", "Bring his vaccination record to the vet appointment."),
         ("user", "The vet also wants to check Rex's teeth and weight"),
         ("assistant", "Dental checks are common for beagles at his age.")]),
    (3, [("user", "I baked sourdough bread with a new starter this morning"),
         ("assistant", "Sourdough needs a lively starter; feed it twice a day."),
         ("user", "The crust came out dark and the crumb was dense"),
         ("assistant", "Try a longer proof and a lower oven temperature next time.")]),
]


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[object]:
    m = _filled(memory(tmp_path / "m.db"))
    yield m
    m.close()


def _filled(m):
    """``m`` with SESSIONS added, each closed, and indexed as of NOW."""
    return add_sessions(m, SESSIONS, now=NOW)


def test_hits_come_session_by_session_after_the_head(mem) -> None:
    hits = mem.search("Rex vet appointment vaccinations", scope="chat", k=40, now=NOW,
                      top_sessions=1, turns_per_session=2)
    head = hits[:2]
    assert {h.item.session_id for h in head} == {head[0].item.session_id}
    assert all(h.scores["session_rank"] == 1.0 for h in head)
    assert "vet appointment" in head[0].item.text
    assert [h.scores["turn_rank"] for h in head if h.item.kind == "turn"] == [1.0, 2.0]
    tail_ranks = [h.scores["session_rank"] for h in hits[2:]]
    assert tail_ranks == sorted(tail_ranks)  # the rest follows stage one's order
    assert [h.scores["rank"] for h in hits] == [float(i) for i in range(1, len(hits) + 1)]


def test_flat_ranking_has_no_session_stage(mem) -> None:
    hits = mem.search("Rex vet appointment", scope="chat", k=5, now=NOW, session_aware=False)
    assert hits and all("session_rank" not in h.scores for h in hits)
    assert all("candidate_rank" in h.scores for h in hits)


def test_relative_dates_rank_the_matching_session_first_without_filtering(tmp_path: Path) -> None:
    m = memory(tmp_path / "t.db")
    text = "We cooked a mushroom risotto for dinner"
    for days in (60, 8):
        m.add_message("c", "user", text, at=NOW - timedelta(days=days))
        m.close_session("c")
    m.index(now=NOW)
    hits = [h for h in m.search("what did we cook last week", scope="c", k=10, now=NOW,
                                explain=True) if h.item.kind == "turn"]
    m.close()
    assert len(hits) == 2  # both sessions stay: now is not a filter
    assert (NOW - hits[0].item.at).days == 8
    assert hits[0].scores["time"] == 1.0 and hits[1].scores["time"] < 0.01


def test_explain_reports_every_signal_and_stage(mem) -> None:
    hit = mem.search("Rex vaccinations", scope="chat", k=3, now=NOW, explain=True)[0]
    for name in SIGNALS:
        assert name in hit.scores and f"contrib.{name}" in hit.scores
    e = explain(hit)
    assert set(e) == {"score", "signals", "ranks"}
    assert {"session_rank", "turn_rank", "rank"} <= set(e["ranks"])
    total = sum(v["contribution"] for v in e["signals"].values())
    assert total == pytest.approx(hit.score)
    assert explain_lines(hit)[0].startswith("ranks: ")


def test_arawn_preset_is_its_blend(mem) -> None:
    hits = mem.search("Rex beagle", scope="chat", k=5, now=NOW, preset="arawn")
    for h in hits:
        s = h.scores
        assert h.score == pytest.approx(0.4 * s["cosine"] + 0.3 * s["graph"] + 0.3 * s["confidence"])
    assert all("session_rank" not in h.scores for h in hits)  # arawn is flat


def test_unknown_preset_names_the_known_ones(mem) -> None:
    with pytest.raises(ValidationError, match="unknown preset 'nope'.*arawn"):
        mem.search("Rex", preset="nope")
    with pytest.raises(ValidationError, match="top_sessions"):
        mem.search("Rex", top_sessions=0)


def test_config_validation_names_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="retrieval.preset"):
        memory(tmp_path / "a.db", retrieval={"preset": "fastest"})
    with pytest.raises(ConfigError, match="retrieval.kind_bonuses"):
        memory(tmp_path / "b.db", retrieval={"kind_bonuses": ["widget:1"]})
    with pytest.raises(ConfigError, match="retrieval.hyde_service"):
        memory(tmp_path / "c.db", retrieval={"hyde": True})
    with pytest.raises(ConfigError, match="retrieval.recency_weight"):
        memory(tmp_path / "d.db", retrieval={"recency_weight": -1})


def test_mmr_search_keeps_the_same_hits(mem) -> None:
    plain = mem.search("Rex beagle vet", scope="chat", k=30, now=NOW)
    diverse = mem.search("Rex beagle vet", scope="chat", k=30, now=NOW, mmr=True)
    assert {h.item.id for h in plain} == {h.item.id for h in diverse}


def test_weekday_and_month_words_find_turns_through_their_keys(mem) -> None:
    # The sourdough session was on Monday 17 June 2024; its text names no day.
    hits = mem.search("Monday", scope="chat", k=10, now=NOW, preset="lexical", kinds=["turn"])
    monday = (NOW - timedelta(days=3)).date()
    assert len(hits) == 4 and all(h.item.at.date() == monday for h in hits)
    assert all("monday" not in h.item.text.lower() for h in hits)


def test_kinds_filter_holds_in_stage_two(mem) -> None:
    hits = mem.search("Rex vet appointment", scope="chat", k=10, now=NOW, kinds=["summary"])
    assert hits and {h.item.kind for h in hits} == {"summary"}


def test_stage_two_reads_the_session_when_candidates_are_few(tmp_path: Path) -> None:
    m = _filled(memory(tmp_path / "few.db", retrieval={"candidates": 1}))
    hits = m.search("Rex vet appointment teeth", scope="chat", k=3, now=NOW, top_sessions=1,
                    turns_per_session=3, kinds=["turn"])
    m.close()
    assert len(hits) == 3 and len({h.item.session_id for h in hits}) == 1
    assert sorted(h.scores["turn_rank"] for h in hits) == [1.0, 2.0, 3.0]
    # stage two ranks the session's turns with the user-turn bonus, as stage one does
    by_turn_rank = sorted(hits, key=lambda h: h.scores["turn_rank"])
    assert all(h.item.role == "user" for h in by_turn_rank[:2])


def test_turns_said_inside_the_named_dates_rank_first_by_default(tmp_path: Path) -> None:
    """``time_weight`` (0.4 by default): a turn said inside the dates the question names
    outranks a turn of another time that matches its words better ("What did I buy for the
    competition last week?" against "Which bike should I buy for a competition?")."""
    sessions = ((60, ["I want to buy a bike to race in the city bike competition.",
                      "Which bike should I buy for a competition?"]),
                (8, ["I'm entering a sculpture competition next month.",
                     "I got myself a set of carving tools and a wire cutter."]))
    order = {}
    for tw in (None, 0.0):
        # min_similarity off: the carving turn's vector rank came from a cosine of 0.02 on
        # the test embedder, below the floor (session 31); this test is about time_weight
        floor = {"min_similarity": -1}
        m = memory(tmp_path / f"{tw}.db", retrieval=floor if tw is None else {"time_weight": tw, **floor})
        for days, turns in sessions:
            for i, text in enumerate(turns):
                m.add_message("c", "user", text, at=NOW - timedelta(days=days, minutes=-i))
            m.close_session("c")
        m.index(now=NOW)
        hits = m.search("What did I buy for the competition last week?", scope="c", k=6,
                        now=NOW, explain=True)
        m.close()
        order[tw] = [h for h in hits if h.item.kind == "turn"]
    assert all((NOW - h.item.at).days < 10 for h in order[None][:2])  # said 8 days ago
    assert order[None][0].scores["contrib.time"] == pytest.approx(0.4)
    assert "carving tools" in order[None][1].item.text
    assert order[0.0][0].item.text == "Which bike should I buy for a competition?"
