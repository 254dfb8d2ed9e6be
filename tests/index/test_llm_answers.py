"""What a model answers, through the queue into each store: text no message could hold
(NUL, controls, lone surrogates, names of 50,000 characters) is cleaned the same way for
SQLite and PostgreSQL, so the session is summarized on both and both store the same."""

from __future__ import annotations

import json
import time
import unicodedata
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.testing import memory
from memlane.testing.llm_server import ChatServer

NOW = "2024-06-01T00:00:00Z"
T0 = datetime(2024, 1, 1, 9, 0, tzinfo=UTC)


def _llm_memory(db, srv, **indexing):
    return memory(
        db,
        indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0, **indexing},
        llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                "timeout_seconds": 5, "max_retries": 0}},
    )


def _conversation(mem, scope="s"):
    lines = ["I moved to Lisbon last spring and I drink green tea every morning.",
             "Lisbon is lovely in spring.", "My sister Hana lives in Kyoto.", "Nice!"]
    for i, text in enumerate(lines):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                        T0 + timedelta(minutes=i))
    return mem.close_session(scope)


# a JSON answer as a model sent it: "\u0000" and "\ud800" escapes, raw controls, huge names
ODD = ('{"topic": "Tea\\u0000 and Lisbon\\ud800", "context": "The user\\u0007 moved.",'
       ' "decisions": ["Drink\\u0000 tea", "' + "D" * 30000 + '"],'
       ' "entities": [{"name": "Hana\\u0000", "type": "person\\u001b[31m"},'
       ' {"name": "Lisbon ' + "E" * 50000 + '", "type": "' + "t" * 5000 + '"}],'
       ' "facts": [{"subject": "user", "predicate": "drinks", "object": "green\\u0000 tea",'
       ' "turn": 1}, {"subject": "Hana", "predicate": "lives in", "object": "Kyo\\udc00to",'
       ' "turn": 3}, {"subject": "user", "predicate": "' + "p" * 9000 + '", "object": "'
       + "O" * 50000 + '"}],'
       ' "relations": [{"from": "Hana", "relation": "sister\\u0000 of", "to": "user"}],'
       ' "observations": [{"text": "I drink green tea\\u0000 every morning", "turn": 1}]}')


def test_a_models_odd_text_is_cleaned_and_stored_alike(db_url):
    json.loads(ODD)  # valid JSON: what a real server can send
    with ChatServer() as srv:
        mem = _llm_memory(db_url, srv)
        session = _conversation(mem)
        srv.script(ODD)
        report = mem.index(now=NOW)
        (s,) = mem.sessions()
        assert (report.sessions_summarized, report.sessions_failed) == (1, 0), s.failed_reason
        intel = mem.session_intelligence(session.id)
        stored = json.dumps(intel, ensure_ascii=False)
        assert "\x00" not in stored and "\x07" not in stored and "\x1b" not in stored
        assert intel["summary"]["topic"] == "Tea and Lisbon\ufffd"
        facts = {(f["subject"], f["predicate"], f["object"]) for f in intel["facts"]}
        assert ("user", "drinks", "green tea") in facts
        assert ("Hana", "lives_in", "Kyo\ufffdto") in facts
        assert max(len(f["object"]) for f in intel["facts"]) <= 400
        assert max(len(f["predicate"]) for f in intel["facts"]) <= 100
        assert ("Hana", "person [31m") in {(e["name"], e["type"]) for e in intel["entities"]}
        assert max(len(e["name"]) for e in intel["entities"]) <= 200
        assert max(len(d) for d in intel["summary"]["decisions"]) <= 400
        assert [o["text"] for o in intel["observations"]] == ["I drink green tea every morning"]
        assert mem.search("green tea", kinds=["fact"])
        mem.close()


_ANY = st.text(st.characters(codec=None, categories=None), max_size=600)


@pytest.fixture(scope="module")
def chat_server():
    with ChatServer() as srv:
        yield srv


@settings(max_examples=60, deadline=None)
@given(topic=_ANY, name=_ANY, obj=_ANY, items=st.lists(_ANY, max_size=3))
def test_every_string_a_model_returns_comes_out_storable(chat_server, topic, name, obj, items):
    """Property: whatever characters a model puts in its JSON, what LLMIntelligence hands
    on has no control character, no lone surrogate and stays within its field's length."""
    from memlane.backends.llm import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence
    from memlane.testing import turn_messages

    answer = {"topic": topic, "context": obj, "decisions": items, "topic_tags": items,
              "entities": [{"name": name, "type": obj}],
              "facts": [{"subject": name, "predicate": topic, "object": obj, "turn": 1}],
              "relations": [{"from": name, "relation": topic, "to": obj}],
              "observations": [{"text": obj, "turn": 1}]}
    chat_server.script(json.dumps(answer))
    with OpenAIChat(chat_server.base_url, "m") as chat:
        summary, extraction = LLMIntelligence(chat).summarize(
            "s", turn_messages(["user: I drink tea", "assistant: Nice"]))
    strings = [summary.topic, summary.context, *summary.decisions, *summary.topic_tags,
               *(x for e in extraction.entities for x in (e.name, e.type, e.context)),
               *(x for f in extraction.facts for x in (f.subject, f.predicate, f.object)),
               *(x for r in extraction.relations for x in (r.source, r.relation, r.target)),
               *(o.text for o in extraction.observations)]
    for text in strings:
        assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in text), repr(text)
        assert len(text) <= 2000 and text == text.strip()
        text.encode("utf-8")


GOOD = {"topic": "Moving to Lisbon", "context": "The user moved to Lisbon.",
        "facts": [{"subject": "user", "predicate": "lives in", "object": "Lisbon", "turn": 1}]}


def _backlog(mem, n):
    for k in range(n):
        _conversation(mem, scope=f"s{k}")


def _due_now(mem):
    with mem.store.atomic():
        mem.store.db.execute("UPDATE sessions SET next_attempt_at = 0")


@pytest.mark.parametrize("outage", [
    lambda srv: srv.fail(503, times=10_000),
    lambda srv: srv.fail(429, times=10_000),
    lambda srv: srv.fail(502, times=10_000, headers={"Retry-After": "0"}),
])
def test_an_endpoint_outage_uses_up_no_session_and_stops_the_run(db_url, outage):
    """Six sessions, two attempts each, an endpoint down for four runs: before, every run
    tried every session and the outage used up the backlog's attempts (failed for good,
    nothing summarized when the endpoint came back); now a run stops at the second
    session refused in a row (the first alone could be a session the endpoint cannot
    serve, which the second tells), both keep their attempt, and all six are summarized
    after the outage."""
    with ChatServer() as srv:
        mem = _llm_memory(db_url, srv, max_attempts=2)
        _backlog(mem, 6)
        outage(srv)
        for _ in range(4):
            before = len(srv.chat_requests)
            report = mem.index(now=NOW)
            assert report.sessions_failed == 2 and report.sessions_summarized == 0
            assert len(srv.chat_requests) - before == 2  # two sessions tried (max_retries 0)
            _due_now(mem)
        tried = [s for s in mem.sessions() if s.status == "failed"]
        assert tried and all("model endpoint is unavailable" in s.failed_reason for s in tried)
        assert all(s.attempts == 0 for s in mem.sessions())
        assert mem.stats()["summary_queue"]["pending"] == 6
        srv._failures.clear()
        srv.reply = lambda body: json.dumps(GOOD)
        report = mem.index(now=NOW)
        assert report.sessions_summarized == 6 and report.sessions_failed == 0
        assert {s.status for s in mem.sessions()} == {"summarized"}
        mem.close()


POISON = "Zanzibar"


def _poisoned(mem, scope="poison"):
    """A session whose every request the endpoint answers 500 (srv.fail_when(POISON))."""
    lines = [f"My cousin flew to {POISON} for a week of diving.", "Sounds wonderful.",
             "She is staying in Stone Town near the old fort.", "Enjoy!"]
    for i, text in enumerate(lines):
        mem.add_message(scope, "user" if i % 2 == 0 else "assistant", text,
                        T0 + timedelta(minutes=i))
    return mem.close_session(scope)


def _poison_requests(srv):
    return sum(POISON in json.dumps(r.body) for r in srv.chat_requests)


def test_a_session_the_endpoint_always_refuses_fails_while_the_others_are_served(db_url):
    """A session the endpoint answers 500 every time (too long for the model's context, or
    content that crashes the server) while it answers every other one: session 18 took
    each 500 for an outage, gave the attempt back and stopped the run, so the session was
    retried for ever, first in every run that found it due. Now the session after it
    tells: answered, the 500 was the session's own and counts; after max_attempts it
    fails for good and is asked no more, and the others are summarized."""
    with ChatServer(reply=lambda body: json.dumps(GOOD)) as srv:
        mem = _llm_memory(db_url, srv, max_attempts=3)
        poison = _poisoned(mem)  # the lowest id: first in every run once due
        srv.fail_when(POISON, status=500)
        for run in range(6):  # steady traffic: a new session every run
            _conversation(mem, scope=f"s{run}")
            _due_now(mem)
            mem.index(now=NOW)
        p = mem.session(poison.id)
        assert p.status == "failed" and p.attempts == 3, p.failed_reason
        assert "HTTP 500" in p.failed_reason and "counted" in p.failed_reason
        assert _poison_requests(srv) == 3  # asked max_attempts times, then no more
        assert mem.stats()["summary_queue"]["failed"] == 1
        assert mem.stats()["summary_queue"]["pending"] == 0
        others = [s for s in mem.sessions() if s.id != poison.id]
        assert len(others) == 6 and {s.status for s in others} == {"summarized"}
        mem.close()


def test_a_refused_session_after_an_answered_one_counts_and_the_run_goes_on(db_url):
    """The endpoint answered the session before: a 500 now is this session's, not an
    outage. Session 18 stopped the run there and the sessions after it waited a run;
    now they are summarized in the same run."""
    with ChatServer(reply=lambda body: json.dumps(GOOD)) as srv:
        mem = _llm_memory(db_url, srv, max_attempts=3)
        _conversation(mem, scope="a")
        poison = _poisoned(mem)
        _conversation(mem, scope="b")
        _conversation(mem, scope="c")
        srv.fail_when(POISON, status=503)
        report = mem.index(now=NOW)
        assert (report.sessions_summarized, report.sessions_failed) == (3, 1)
        p = mem.session(poison.id)
        assert (p.status, p.attempts, p.deferrals) == ("failed", 1, 0)
        mem.close()


def test_a_suspect_is_given_back_while_the_next_session_tells(db_url):
    """The session refused first in a run is given back at once, not held leased while the
    next session's model call runs (a worker killed then would have left it leased, its
    attempt spent); the next session answered, the attempt counts after all."""
    seen = []

    def reply(body):
        if POISON not in json.dumps(body):  # the next session: where is the suspect now?
            p = mem.store.get_session(poison.id)  # this server thread's own connection
            seen.append((p.status, p.attempts, p.deferrals))
        return json.dumps(GOOD)

    with ChatServer(reply=reply) as srv:
        mem = _llm_memory(db_url, srv, max_attempts=3)
        poison = _poisoned(mem)
        _conversation(mem, scope="after")
        srv.fail_when(POISON, status=500)
        report = mem.index(now=NOW)
        assert (report.sessions_summarized, report.sessions_failed) == (1, 1)
        assert seen == [("failed", 0, 1)]  # given back while the next one was tried
        p = mem.session(poison.id)
        assert (p.status, p.attempts, p.deferrals) == ("failed", 1, 0)
        assert "counted as this session's attempt" in p.failed_reason
        mem.close()


def test_a_lone_refused_session_is_given_back_at_most_max_deferrals_times(db_url):
    """With nothing else queued to tell an outage from a bad session, the attempt is given
    back, but at most indexing.max_deferrals times (waiting longer each time); then the
    500s count, and the session fails for good instead of being asked for ever."""
    with ChatServer(reply=lambda body: json.dumps(GOOD)) as srv:
        mem = _llm_memory(db_url, srv, max_attempts=2, max_deferrals=2, retry_base_seconds=1)
        poison = _poisoned(mem)
        srv.fail_when(POISON, status=500)
        waits = []
        for _ in range(8):
            before = time.time()
            mem.index(now=NOW)
            after = time.time()
            (due,) = mem.store._run("SELECT next_attempt_at FROM sessions").fetchone()
            waits.append((due - after, due - before))  # the wait, bounded by the run's span
            _due_now(mem)
        p = mem.session(poison.id)
        assert (p.status, p.attempts, p.deferrals) == ("failed", 2, 2)
        assert "max_deferrals" in p.failed_reason
        assert _poison_requests(srv) == 4  # 2 given back + 2 counted, then no more
        # a given-back attempt waits longer each time (1 s, then 2 s), however slow the run
        for (low, high), wait in zip(waits[:2], (1, 2), strict=True):
            assert low - 0.05 <= wait <= high + 0.05, (low, high, wait)
        mem.close()


def test_an_outage_starting_mid_run_costs_one_attempt_at_most(db_url):
    """The endpoint answers a session, then goes down: the next session's 503 counts (the
    endpoint had just answered), the one after it is given back and the run stops; the
    backlog behind keeps every attempt."""
    with ChatServer() as srv:
        mem = _llm_memory(db_url, srv, max_attempts=3)
        _backlog(mem, 5)
        calls = []

        def down_after_first(body):
            calls.append(1)
            if len(calls) > 1:
                raise RuntimeError("endpoint went down")  # the test server answers 500
            return json.dumps(GOOD)

        srv.reply = down_after_first
        report = mem.index(now=NOW)
        assert (report.sessions_summarized, report.sessions_failed) == (1, 2)
        assert sorted(s.attempts for s in mem.sessions()) == [0, 0, 0, 1, 1]
        mem.close()


def test_a_retry_after_puts_the_session_off_that_long(tmp_path):
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path / "m.db", srv, retry_base_seconds=1)
        _conversation(mem)
        srv.fail(429, times=10, headers={"Retry-After": "3600"})
        mem.index(now=NOW)
        (s,) = mem.sessions()
        assert s.status == "failed" and "Retry-After 3600s" in s.failed_reason
        (due,) = mem.store.db.execute("SELECT next_attempt_at FROM sessions").fetchone()
        assert due >= time.time() + 3500  # not the 1 s backoff
        mem.close()


def test_a_bad_answer_still_uses_up_attempts(tmp_path):
    """A session whose answers are never valid JSON fails for good after max_attempts,
    and the run goes on to the next session: that failure is the session's."""
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path / "m.db", srv, max_attempts=1)
        _backlog(mem, 2)
        srv.reply = lambda body: "no json here"
        report = mem.index(now=NOW)
        assert report.sessions_failed == 2
        assert all(s.attempts == 1 and "LLMBadResponse" in s.failed_reason for s in mem.sessions())
        mem.close()


class _Broken:
    """An intelligence backend with a bug (set as tests/index/test_queue_truth.py sets its
    hanging one)."""

    name = "broken"

    def summarize(self, scope, messages):
        return None.topic  # AttributeError, as a plugin's bug raises


def test_a_backends_bug_fails_the_session_naming_it_and_the_run_goes_on(tmp_path):
    """Before, an AttributeError escaped index(): the run stopped, the session stayed
    leased, and after max_attempts it was failed as 'the worker stopped during
    summarization' (killed or crashed), which it was not."""
    mem = memory(tmp_path / "m.db", indexing={"max_attempts": 1})
    mem._intelligence = _Broken()
    _backlog(mem, 2)
    report = mem.index(now=NOW)
    assert report.sessions_failed == 2
    for s in mem.sessions():
        assert s.status == "failed" and s.failed_reason.startswith("AttributeError: ")
        assert s.attempts == 1
    assert mem.stats()["counters"].get("sessions_abandoned", 0) == 0
    mem.close()


def test_facts_about_people_the_session_never_mentions_are_left_out(tmp_path, caplog):
    answer = {
        "topic": "Moving to Lisbon", "context": "The user moved to Lisbon.",
        "entities": [{"name": "Barack Obama", "type": "person"}, {"name": "Hana", "type": "person"}],
        "facts": [
            {"subject": "Barack Obama", "predicate": "lives in", "object": "Paris", "turn": 2},
            {"subject": "Hana", "predicate": "lives in", "object": "Kyoto", "turn": 3},
            {"subject": "user", "predicate": "drinks", "object": "green tea", "turn": 1},
            {"subject": "the user's sister", "predicate": "name", "object": "Hana", "turn": 3},
        ],
        "relations": [{"from": "Barack Obama", "relation": "friend of", "to": "user"},
                      {"from": "user", "relation": "sister", "to": "Hana"}],
    }
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path / "m.db", srv)
        session = _conversation(mem)
        srv.script_json(answer)
        with caplog.at_level("WARNING", logger="memlane.index"):
            assert mem.index(now=NOW).sessions_summarized == 1
        intel = mem.session_intelligence(session.id)
        facts = {(f["subject"], f["predicate"], f["object"]) for f in intel["facts"]}
        assert facts == {("Hana", "lives_in", "Kyoto"), ("user", "drinks", "green tea"),
                         ("the user's sister", "name", "Hana")}
        assert {e["name"] for e in intel["entities"]} == {"Hana"}
        assert [tuple(r) for r in intel["relations"]] == [("user", "sister", "hana")]
        assert not mem.facts(subject="Barack Obama")
        assert "never mentions" in caplog.text and "'Barack Obama'" in caplog.text
        mem.close()


def test_a_hung_endpoint_costs_one_session_a_run_not_the_backlog(tmp_path):
    """An endpoint that accepts and never answers: each session cost timeout × attempts and
    the run went through the whole backlog (hours at the defaults), using up an attempt of
    each; now the run stops at the first timeout, whose attempt counts (a long session
    can be what makes a model slow), and the rest wait untried."""
    with ChatServer() as srv:
        mem = memory(tmp_path / "m.db",
                     indexing={"backend": "llm", "service": "local", "retry_base_seconds": 0},
                     llm_services={"local": {"base_url": srv.base_url, "model": "test-model",
                                             "timeout_seconds": 0.2, "max_retries": 0}})
        _backlog(mem, 3)
        srv.delay(30, times=3)
        report = mem.index(now=NOW)
        assert (report.sessions_failed, report.sessions_summarized) == (1, 0)
        assert len(srv.chat_requests) == 1
        attempts = sorted(s.attempts for s in mem.sessions())
        assert attempts == [0, 0, 1]
        (failed,) = [s for s in mem.sessions() if s.status == "failed"]
        assert "LLMTimeout" in failed.failed_reason
        mem.close()


def test_a_session_written_by_another_worker_meanwhile_is_not_written_again(db_url):
    """A model call outlasting indexing.lease_seconds: a second worker claims the session
    and both write it. The writing did not duplicate (the second replaced the first) but
    the session was counted summarized twice and its entity mentioned twice; now the
    worker whose lease ran out drops its answer and says so."""
    import multiprocessing

    def slow(body):
        time.sleep(1.5)
        return json.dumps(GOOD | {"entities": [{"name": "Lisbon", "type": "place"}]})

    with ChatServer(reply=slow) as srv:
        cfg = {"indexing": {"backend": "llm", "service": "local", "lease_seconds": 0.5},
               "llm_services": {"local": {"base_url": srv.base_url, "model": "test-model",
                                          "timeout_seconds": 10, "max_retries": 0}}}
        mem = memory(db_url, **cfg)
        _conversation(mem)
        mem.close()

        def work(delay, out):
            time.sleep(delay)
            m = memory(db_url, **cfg)
            r = m.index(now=NOW)
            out.put((r.sessions_summarized, r.sessions_failed))
            m.close()

        fork = multiprocessing.get_context("fork")
        out = fork.Queue()
        procs = [fork.Process(target=work, args=(d, out)) for d in (0.0, 0.8)]
        for p in procs:
            p.start()
        reports = sorted(out.get(timeout=60) for _ in procs)
        for p in procs:
            p.join(30)
        assert len(srv.chat_requests) == 2  # both asked: the first one's lease ran out
        assert reports == [(0, 0), (1, 0)]
        mem = memory(db_url, **cfg)
        assert mem.stats()["counters"]["sessions_summarized"] == 1
        (lisbon,) = [e for e in mem.store.scope_entities("s") if e.name == "Lisbon"]
        assert lisbon.mentions == 1
        (s,) = mem.sessions()
        assert s.status == "summarized"
        assert len(mem.store.session_items(s.id, kind="summary")) == 1
        mem.close()


def test_common_loose_shapes_are_taken_as_meant_without_a_repair(tmp_path):
    """A small local model writes "turn": "3", "turn": null, "type": null, a number as
    a fact's value and null for an empty list: each was a schema violation sent back for repair, and a model that
    always writes so failed every session after three requests."""
    answer = {
        "topic": "Moving to Lisbon", "context": "The user moved to Lisbon.",
        "entities": [{"name": "Hana", "type": None, "context": None}],
        "facts": [{"subject": "Hana", "predicate": "lives in", "object": "Kyoto", "turn": "3"},
                  {"subject": "user", "predicate": "drinks", "object": "green tea",
                   "source": None, "turn": None},
                  {"subject": "user", "predicate": "cups a day", "object": 2, "turn": "[1]"}],
        "observations": [{"text": "I drink green tea every morning", "turn": "turn 1"}],
        "decisions": None, "relations": None, "topic_tags": None, "references": None,
    }
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path / "m.db", srv)
        session = _conversation(mem)
        srv.script_json(answer)
        assert mem.index(now=NOW).sessions_summarized == 1
        assert len(srv.chat_requests) == 1  # no repair turn
        intel = mem.session_intelligence(session.id)
        facts = {(f["subject"], f["predicate"], f["object"], f["seq"]) for f in intel["facts"]}
        assert facts == {("Hana", "lives_in", "Kyoto", 3), ("user", "drinks", "green tea", None),
                         ("user", "cups_a_day", "2", 1)}
        assert [(e["name"], e["type"]) for e in intel["entities"]] == [("Hana", "thing")]
        assert [(o["text"], o["seq"]) for o in intel["observations"]] == [
            ("I drink green tea every morning", 1)]
        mem.close()


def test_a_string_for_a_list_and_bare_names_are_taken_as_meant_without_a_repair(tmp_path):
    """A small model writes one string where a list is asked ("decisions": "…", tags as
    "a, b"), a name alone for an entity and a text alone for an observation: each was a
    schema violation sent back for repair, and a model that always writes so failed every
    session after three requests."""
    answer = {
        "topic": "Moving to Lisbon", "context": "The user moved to Lisbon.",
        "decisions": "Move to Lisbon, not Porto", "next_steps": "Visit Hana in Kyoto",
        "topic_tags": "Relocation, tea; family",
        "entities": ["Hana", {"name": "Lisbon", "type": "place"}],
        "observations": ["I drink green tea every morning"],
    }
    with ChatServer() as srv:
        mem = _llm_memory(tmp_path / "m.db", srv)
        session = _conversation(mem)
        srv.script_json(answer)
        assert mem.index(now=NOW).sessions_summarized == 1
        assert len(srv.chat_requests) == 1  # no repair turn
        intel = mem.session_intelligence(session.id)
        summary = intel["summary"]
        assert summary["decisions"] == ["Move to Lisbon, not Porto"]
        assert summary["next_steps"] == ["Visit Hana in Kyoto"]
        assert summary["topic_tags"] == ["relocation", "tea", "family"]
        assert sorted((e["name"], e["type"]) for e in intel["entities"]) == [
            ("Hana", "thing"), ("Lisbon", "place")]
        assert [o["text"] for o in intel["observations"]] == ["I drink green tea every morning"]
        mem.close()


def test_an_embeddings_outage_during_summaries_uses_up_no_session(tmp_path):
    """The summaries' vectors come from an embeddings endpoint: while it answered 503, each
    run failed every session (an attempt each) on the vectors of its summary; now, as for a
    model endpoint, the run stops at the first and the attempt is given back."""
    from memlane.backends.embed.openai import OpenAIEmbedder
    from memlane.config import load_config
    from memlane.memory import Memory
    from memlane.testing.openai_server import OpenAICompatServer

    db = str(tmp_path / "m.db")
    with OpenAICompatServer(dim=32) as srv:
        def open_memory(**indexing):
            config = load_config(environ={}, overrides={"db": db, "indexing": indexing})
            embedder = OpenAIEmbedder(srv.base_url, "hash-embed", max_retries=0, backoff=0)
            return Memory(config=config, embedder=embedder)

        mem = open_memory(enabled=False)  # turns indexed while the endpoint is up
        _backlog(mem, 3)
        mem.index(now=NOW)
        mem.close()
        mem = open_memory(max_attempts=1)
        srv.fail_next(status=503, times=1000)
        report = mem.index(now=NOW)
        assert (report.sessions_failed, report.sessions_summarized) == (1, 0)
        assert sorted(s.attempts for s in mem.sessions()) == [0, 0, 0]
        (failed,) = [s for s in mem.sessions() if s.status == "failed"]
        assert "EmbeddingError" in failed.failed_reason and "HTTP 503" in failed.failed_reason
        srv._failures.clear()
        _due_now(mem)
        assert mem.index(now=NOW).sessions_summarized == 3
        mem.close()
