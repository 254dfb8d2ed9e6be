"""The learned facts reader is opt-in (session 49, fct49c): the default configuration writes
no ``stated`` fact, ``summary.facts_model = true`` does (through the real configuration path and
a SQLite store), only with the sentence model on; a bad value is refused by its key; the worker
processes' pickled backend keeps the setting (a conversation written for these tests)."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memlane.backends.registry import make_intelligence
from memlane.config import Config, load_config
from memlane.errors import ConfigError
from memlane.index.offline import OfflineIntelligence
from memlane.testing import add_sessions, memory, turn_messages

NOW = datetime(2025, 6, 2, 12, 0, tzinfo=UTC)
LESSONS = (
    ("user", "I want to plan the lesson rota for next month."),
    ("assistant", "Happy to help. Tell me a bit more?"),
    ("user", "I have been teaching piano for many years."),
    ("user", "My sister Jo moved to Cardiff in March."),
    ("user", "Thanks!"),
    ("assistant", "You are welcome."),
)
SAID = "I have been teaching piano for many years"
# (said "for twelve years" until session 54, when a number in words became a readers' fact, which the
# learned reader then leaves alone: a sentence a fact already covers is not stated twice)


def _stated(mem) -> set[str]:
    return {f.object for f in mem.facts("lessons") if f.predicate == "stated"}


def test_the_default_configuration_writes_no_stated_fact(tmp_path: Path):
    mem = add_sessions(memory(tmp_path / "off.db"), [(0, LESSONS)], now=NOW, scope="lessons")
    try:
        assert not load_config(environ={}).summary.facts_model
        assert _stated(mem) == set()
        assert any(f.predicate == "sister" for f in mem.facts("lessons"))  # the readers' facts stay
    finally:
        mem.close()


def test_summary_facts_model_true_writes_stated_facts(tmp_path: Path):
    mem = add_sessions(memory(tmp_path / "on.db", summary={"facts_model": True}), [(0, LESSONS)],
                       now=NOW, scope="lessons")
    try:
        assert SAID in _stated(mem)
        assert any(f.predicate == "sister" for f in mem.facts("lessons"))
    finally:
        mem.close()


def test_the_reader_runs_only_with_a_sentence_model():
    msgs = turn_messages(f"{who}: {text}" for who, text in LESSONS)
    on = make_intelligence(load_config(environ={"MEMLANE_SUMMARY_FACTS_MODEL": "true"}))
    assert any(f.predicate == "stated" for f in on.summarize("s", msgs)[1].facts)
    off = make_intelligence(load_config(environ={"MEMLANE_SUMMARY_FACTS_MODEL": "true",
                                                 "MEMLANE_SUMMARY_SENTENCE_MODEL": "false"}))
    assert off.summarize("s", msgs) == OfflineIntelligence(None).summarize("s", msgs)
    assert make_intelligence(Config()).summarize("s", msgs) == \
        OfflineIntelligence().summarize("s", msgs)


def test_the_pickled_backend_keeps_the_setting():
    for facts in (False, True):
        again = pickle.loads(pickle.dumps(OfflineIntelligence(facts_model=facts)))
        assert (again.facts_model is not None) is facts
    assert pickle.loads(pickle.dumps(OfflineIntelligence(None, facts_model=True))).facts_model is None


def test_a_facts_model_setting_that_is_no_boolean_is_refused_by_name():
    with pytest.raises(ConfigError, match=r"summary\.facts_model"):
        load_config(environ={"MEMLANE_SUMMARY_FACTS_MODEL": "maybe"})
    with pytest.raises(ConfigError, match=r"summary\.facts_models: .* did you mean facts_model\?"):
        Config().replace(summary={"facts_models": True})
