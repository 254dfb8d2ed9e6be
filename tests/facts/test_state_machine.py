"""A Hypothesis state machine of add / reinforce / supersede / access / expire / forget,
checked against a plain model: recall never returns a superseded or expired memory, and
history never loses a value."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from memlane.testing import memory

SUBJECTS = ["user", "ana"]
PREDICATES = ["lives_in", "api_key", "likes"]  # two single-valued, one multi-valued
VALUES = ["lisbon", "porto", "rome", "jazz", "k1", "k2"]
DAY = 86_400


class FactMachine(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.dir = tempfile.TemporaryDirectory()
        self.mem = memory(Path(self.dir.name) / "sm.db")
        self.clock = 1_700_000_000
        self.current: dict[tuple[str, str], list[str]] = {}
        self.history: dict[tuple[str, str], list[str]] = {}
        self.notes: dict[int, int] = {}  # item id -> expiry time

    def teardown(self) -> None:
        self.mem.close()
        self.dir.cleanup()

    def _tick(self, days: int = 1) -> None:
        self.clock += days * DAY

    @rule(subject=st.sampled_from(SUBJECTS), predicate=st.sampled_from(PREDICATES),
          value=st.sampled_from(VALUES))
    def add(self, subject: str, predicate: str, value: str) -> None:
        self._tick()
        out = self.mem.add_fact(subject, predicate, value, scope="s", at=self.clock)
        key = (subject, predicate)
        cur = self.current.setdefault(key, [])
        if value in cur:
            assert out.action == "reinforced"
            return
        self.history.setdefault(key, []).append(value)
        if predicate == "likes":
            cur.append(value)
            assert out.action == "added"
        else:
            assert out.action == ("superseded" if cur else "added")
            cur[:] = [value]

    @rule(query=st.sampled_from(VALUES))
    def access(self, query: str) -> None:
        self._tick()
        hits = self.mem.search(query, kinds=["fact"], k=50)
        current = {(s, p, v) for (s, p), vs in self.current.items() for v in vs}
        for h in hits:
            e = h.item.extra
            assert (e["subject"], e["predicate"], e["object"]) in current, "recall returned a stale fact"

    @precondition(lambda self: any(self.current.values()))
    @rule(data=st.data())
    def forget(self, data: st.DataObject) -> None:
        facts = self.mem.facts("s")
        f = data.draw(st.sampled_from(facts))
        self.mem.forget_fact(f.id)
        self.current[(f.subject, f.predicate)].remove(f.object)
        history = self.history[(f.subject, f.predicate)]
        # a current fact is the latest statement of its value (porto, lisbon, porto: the last)
        del history[len(history) - 1 - history[::-1].index(f.object)]

    @rule(ttl_days=st.integers(1, 3))
    def note_with_ttl(self, ttl_days: int) -> None:
        item_id = self.mem.upsert(f"temporary note {len(self.notes)}", scope="s", at=self.clock,
                                  ttl_seconds=ttl_days * DAY, lane="ephemeral")
        self.notes[item_id] = self.clock + ttl_days * DAY

    @rule(days=st.integers(1, 4))
    def expire(self, days: int) -> None:
        self._tick(days)
        report = self.mem.gc(now=self.clock)
        gone = [i for i, exp in self.notes.items() if exp <= self.clock]
        assert report.expired == len(gone)
        for i in gone:
            del self.notes[i]

    @invariant()
    def facts_match_the_model(self) -> None:
        if not hasattr(self, "mem"):
            return
        got = sorted((f.subject, f.predicate, f.object) for f in self.mem.facts("s"))
        want = sorted((s, p, v) for (s, p), vs in self.current.items() for v in vs)
        assert got == want

    @invariant()
    def history_keeps_every_value(self) -> None:
        if not hasattr(self, "mem"):
            return
        for (s, p), values in self.history.items():
            got = [h["object"] for h in self.mem.fact_history(s, p, "s")]
            assert got == values

    @invariant()
    def expired_notes_are_never_recalled(self) -> None:
        if not hasattr(self, "mem"):
            return
        hits = self.mem.search("temporary note", kinds=["note"], k=100)
        assert {h.item.id for h in hits} <= set(self.notes)


TestFacts = FactMachine.TestCase
TestFacts.settings = settings(max_examples=25, stateful_step_count=20, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
