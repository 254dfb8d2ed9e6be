"""A Hypothesis state machine of add / reinforce / supersede / access / expire / forget,
statements of a session's turn read again, and re-keyings of names, checked against a plain
model: recall never returns a superseded or expired memory, history never loses a value, and
a forgotten statement read again stays forgotten, whatever keyed its marks (session 32:
marks keyed as before session 31, read back by migration ``mark_subjects``; names keyed
again by ``rekey_names``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from memlane.config import FactsConfig
from memlane.index.facts import apply_fact
from memlane.index.normalize import _fold_accents, fact_text, normalize_name, normalize_predicate
from memlane.store.rekey import read_back_marks, rekey_names
from memlane.testing import memory

SUBJECTS = ["user", "ana", "C++ team", "C team"]  # the last two were one key before session 31
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
        self.said: dict[int, list[tuple[str, str, str, float, int, int]]] = {}  # fact id -> its turns' statements
        self.forgotten: list[tuple[str, str, str, float, int, int]] = []  # statements of forgotten facts

    def teardown(self) -> None:
        self.mem.close()
        self.dir.cleanup()

    def _tick(self, days: int = 1) -> None:
        self.clock += days * DAY

    @rule(subject=st.sampled_from(SUBJECTS), predicate=st.sampled_from(PREDICATES),
          value=st.sampled_from(VALUES))
    def add(self, subject: str, predicate: str, value: str) -> None:
        self._tick()
        self._model_add(subject, predicate, value,
                        self.mem.add_fact(subject, predicate, value, scope="s", at=self.clock).action)

    def _model_add(self, subject: str, predicate: str, value: str, action: str) -> None:
        key = (subject, predicate)
        cur = self.current.setdefault(key, [])
        if value in cur:
            assert action == "reinforced"
            return
        self.history.setdefault(key, []).append(value)
        if predicate == "likes":
            cur.append(value)
            assert action == "added"
        else:
            assert action == ("superseded" if cur else "added")
            cur[:] = [value]

    def _state(self, statement: tuple[str, str, str, float, int, int]) -> str:
        """``statement`` as the pipeline stores a fact a turn states (``apply_fact``)."""
        subject, predicate, value, at, session_id, message_id = statement
        store, pred = self.mem.store, normalize_predicate(predicate)

        def make_item() -> int:
            (item_id,) = store.insert_items([{
                "kind": "fact", "text": fact_text(subject, pred, value), "at": at, "scope": "s",
                "session_id": session_id, "message_id": message_id, "lane": "semantic",
                "source": "stated", "keywords": [pred],
                "extra": {"subject": subject, "predicate": pred, "object": value}}])
            return item_id

        with store.atomic():
            out = apply_fact(store, FactsConfig(), scope="s", subject=subject, predicate=predicate,
                             obj=value, source="stated", at=at, session_id=session_id,
                             message_id=message_id, make_item=make_item)
        if out.action != "forgotten":
            self.said.setdefault(out.fact_id, []).append(statement)
        return out.action

    @rule(subject=st.sampled_from(SUBJECTS), predicate=st.sampled_from(PREDICATES),
          value=st.sampled_from(VALUES))
    def say(self, subject: str, predicate: str, value: str) -> None:
        """A session whose turn states the fact (as the pipeline reads it)."""
        self._tick()
        self.mem.add_message("s", "user", f"{subject} {predicate} {value}.", at=self.clock)
        session = self.mem.close_session("s")
        assert session is not None
        turn = self.mem.messages(session.id)[0]
        self._model_add(subject, predicate, value,
                        self._state((subject, predicate, value, float(self.clock), session.id, turn.id)))

    @precondition(lambda self: self.forgotten)
    @rule(data=st.data())
    def read_again(self, data: st.DataObject) -> None:
        """A forgotten fact's turn read again (a re-summary) states it again: forgotten."""
        assert self._state(data.draw(st.sampled_from(self.forgotten))) == "forgotten"

    @rule()
    def marks_of_before(self) -> None:
        """Every mark as a memlane before session 31 left it (keyed by the old key, no
        subject as written), then migration ``mark_subjects``'s step."""
        store = self.mem.store
        with store.atomic():
            for eid, subject in store._run("SELECT id, written_subject FROM fact_events"
                                           " WHERE object = '' AND written_subject IS NOT NULL").fetchall():
                old = _fold_accents(normalize_name(subject))
                store._run("UPDATE fact_events SET subject = %s, written_subject = NULL WHERE id = %s",
                           ("user" if old in ("user", "i", "me") else old, eid))
            read_back_marks(store.db)

    @rule()
    def names_keyed_again(self) -> None:
        """A re-keying of names (``rekey_names``, as a migration runs it)."""
        with self.mem.store.atomic():
            rekey_names(self.mem.store.db)

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
        self.forgotten += self.said.pop(f.id, [])
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
