"""What compaction writes never ends inside a character (session 27).

A weekly roll-up lists its sessions' topics cut to 100 characters, and a decision record
names a summary without a topic by its text cut to 80: both cut at a code point, so a flag,
an emoji family or a letter with its accents was left half in the stored record, as the
cuts ``memlane.clip`` replaced in session 26 did. They are ``clip``'s now.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.clip import MARK
from memlane.testing import memory
from tests.pack.test_pack_session26 import GRAPHEMES

NOW = datetime(2024, 9, 2, tzinfo=UTC)
MONDAY = datetime(2024, 8, 19, 9, tzinfo=UTC)


def _whole(cut: str, text: str) -> bool:
    """``cut`` is ``text``, or a beginning of its graphemes followed by the cut's mark."""
    if cut == text:
        return True
    head = regex.findall(r"\X", cut.removesuffix(MARK))
    return cut.endswith(MARK) and head == regex.findall(r"\X", text)[:len(head)]


text_of = st.lists(st.sampled_from([g for g in GRAPHEMES if g != " "]), min_size=60,
                   max_size=140).map("".join)


def test_a_compaction_cuts_topics_and_texts_at_whole_graphemes(tmp_path: Path) -> None:
    scopes = itertools.count()
    with memory(tmp_path / "m.db") as mem:

        @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(topic=text_of, text=text_of)
        def run(topic: str, text: str) -> None:
            scope = f"s{next(scopes)}"
            rows = [{"kind": "summary", "text": text if i == 0 else f"summary {i}",
                     "at": (MONDAY + timedelta(days=i)).timestamp(), "scope": scope,
                     "lane": "episodic", "keywords": ["topic:t"],
                     # the first names no topic: a decision record names it by its text
                     "extra": {"summary": {} if i == 0 else {"topic": topic}}}
                    for i in range(3)]
            mem.store.insert_items(rows)
            # the roll-up of the week first (compaction folds topics before it writes weeks)
            assert mem.compact(scope=scope, now=NOW).weekly_rollups == 1
            (week,) = [s for s in mem.store.items_of_kind("summary", scope)
                       if s.extra.get("rollup") == "week"]
            topics = week.text.split("Topics: ", 1)[1].split("\n")[0].split("; ")
            assert len(topics) == 3 and all(_whole(t, topic) for t in topics[1:]), week.text
            assert mem.compact(scope=scope, topic="t", now=NOW).decision_records == 1
            (record,) = mem.store.items_of_kind("decision", scope)
            narrative = record.text.split("Narrative (3 sessions): ", 1)[1]
            first = narrative.split("; ")[0].split(": ", 1)[1]
            assert _whole(first, text), record.text

        run()


WORDS = ["mental", "health", "東京", "café", "Q3", "billing", "naïve", "ß", "İstanbul", "x2"]


def test_a_topic_is_found_however_it_is_spelled(tmp_path: Path) -> None:
    """``compact --topic``: a session summary's topic is its first tag as the summarizer
    wrote it ("mental health", "東京"). The request was slugged ("mental-health") and
    compared as it was, so a topic of two words was never folded, and one of another
    script was refused ("topics: '東京' has no letters or digits", naming a field the
    command does not have). Any spelling of the topic (case, separators) folds it now,
    and a topic nothing holds says so in ``notice``."""
    scopes = itertools.count()
    with memory(tmp_path / "m.db") as mem:

        @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
               sep=st.sampled_from([" ", "-", " / ", "_", ", "]), upper=st.booleans())
        def run(words: list[str], sep: str, upper: bool) -> None:
            scope = f"s{next(scopes)}"
            topic = " ".join(words)
            mem.store.insert_items([{
                "kind": "summary", "text": f"summary {i}", "scope": scope, "lane": "episodic",
                "at": (MONDAY + timedelta(days=i)).timestamp(), "keywords": [topic, "other"],
                "extra": {"summary": {"topic": f"{topic} — summary {i}"}}} for i in range(2)])
            asked = sep.join(words)
            r = mem.compact(scope=scope, topic=asked.upper() if upper else asked, now=NOW)
            assert (r.decision_records, r.summaries_absorbed, r.notice) == (1, 2, ""), (topic, r)
            (record,) = mem.store.items_of_kind("decision", scope)
            assert record.keywords == (f"topic:{topic}",)
            again = mem.compact(scope=scope, topic=asked, now=NOW)
            assert again.decision_records == 0 and "no active summary holds it" in again.notice

        run()
