"""A memory moved between databases comes back the same (session 28).

``memlane export | memlane --db other.db import -`` (SQLite to SQLite, SQLite to
PostgreSQL and back): a drawn history (messages in several scopes, one of them not ASCII;
sessions closed by the gap, by ``close_session``, by idleness, by the late-message rule,
some left open; late messages; forgotten turns; ids as strings, as integers (an import's)
and none; non-ASCII and multi-line texts, the same text twice at one time) is exported, imported into a fresh database and
exported again: the two exports are equal, and every session comes back with the same
messages (text, role, speaker, time, order, id), the same open or closed state and the same
reason it was closed for. Before session 28 the export did not say how a session ended: an
import closed every session but the last by its own rule (``explicit``) and left the last
open, so a session closed by the gap, by idleness or by the late rule came back closed as if
by hand (a later message in the gap between two of them no longer joined them), and a last
session closed by hand or by idleness came back open (the next message joined it). A
message stored without an id was exported without one, so it came back with the import's
content id (the second export differed from the first), or not at all: one with the scope,
role, time and text of a message an import had stored without an id took that message's
content id and was skipped as its duplicate (session 23's "not every message once").
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.ingest import importer
from memlane.ingest.importer import import_jsonl
from memlane.memory import Memory
from memlane.serve.cli_export import export_id, export_lines
from memlane.testing import HashingEmbedder
from tests.test_erase import NOW, OVERRIDES

BASE = NOW - timedelta(days=3)
SCOPES = ("chat", "café-東京")
TEXTS = ("hello", "I moved to Lisbon", "naïve café 東京 🙂", "line one\nline two\n  indented",
         "ends with a newline\n", "tab\there", "Ωμέγα", "hello")
AGENTS = ((None, None), ("x", "p"), ("y", None), (None, "café-q"))


def _open(url: str) -> Memory:
    return Memory(url, config=load_config(environ={}, overrides=OVERRIDES),
                  embedder=HashingEmbedder(dim=64))


def listing(mem: Memory) -> list[Any]:
    """Every session, as its scope, whether it is open, why it was closed, its span and
    count and its messages in order (a message stored without an id by the id its export gives it), sessions in the
    export's order (a scope's by start)."""
    sessions = sorted(mem.store.list_sessions(limit=100_000), key=lambda s: (s.started_at, s.id))
    by_session = mem.store.sessions_messages([s.id for s in sessions])
    return [(s.scope, s.status == "open", s.closed_reason, s.started_at, s.ended_at,
             s.message_count, s.agent, s.project, s.participants, tuple((m.text, m.role, m.speaker, m.at.isoformat(), m.seq, export_id(m))
                   for m in by_session[s.id]))
            for s in sessions]


def export_text(mem: Memory) -> str:
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in export_lines(mem))


# each message some minutes after or before its scope's last one (the gap is 30)
step = st.one_of(
    # (a late message of another agent, project or speaker is the session's earliest: the
    # session's own agent, project and participants order are the first-arriving one's)
    st.tuples(st.just("add"), st.integers(0, 1), st.integers(-90, 50), st.integers(0, 7),
              st.sampled_from([None, "str", "ann", "bo"]), st.sampled_from(AGENTS)),
    # lines of a file without session labels (the gap rule): integer ids or none (the
    # line's content id: a message added later with the same scope, role, time and text
    # and no id was exported without one and imported as a duplicate of it, session 23)
    st.tuples(st.just("import"), st.integers(0, 1), st.lists(
        st.tuples(st.integers(-40, 45), st.integers(0, 7), st.booleans()), min_size=1,
        max_size=4)),
    st.tuples(st.just("close"), st.integers(0, 1)),
    st.tuples(st.just("idle"), st.integers(0, 60)),
    st.tuples(st.just("index"),),
    st.tuples(st.just("forget"), st.integers(0, 10**6)),
)


def _build(mem: Memory, steps: list[Any]) -> None:
    texts = itertools.count()
    last = [60, 60]  # (room before a scope's first message for a later one)
    for op in steps:
        if op[0] == "add":
            i = next(texts)
            last[op[1]] = minute = max(0, last[op[1]] + op[2])
            mem.add_message(SCOPES[op[1]], "user" if i % 2 == 0 else "assistant",
                            TEXTS[op[3]] if op[3] % 2 == 0 else f"{TEXTS[op[3]]} {i}",
                            at=BASE + timedelta(minutes=minute),
                            speaker={"ann": "Zoë", "bo": "Bo"}.get(op[4]),
                            id=f"s-{i}" if op[4] == "str" else None,
                            agent=op[5][0], project=op[5][1])
        elif op[0] == "import":
            lines = []
            for delta, k, with_id in op[2]:
                i = next(texts)
                last[op[1]] = minute = max(0, last[op[1]] + delta)
                at = (BASE + timedelta(minutes=minute)).isoformat()
                line = {"scope": SCOPES[op[1]], "role": "user", "text": TEXTS[k], "at": at}
                lines.append(json.dumps({**line, "id": i} if with_id else line))
            report = mem.import_file(io.StringIO("\n".join(lines)))
            assert not report.errors, report
        elif op[0] == "close":
            mem.close_session(SCOPES[op[1]])
        elif op[0] == "idle":
            mem.close_idle(BASE + timedelta(minutes=max(last) + op[1]))
        elif op[0] == "index":
            mem.index(now=BASE + timedelta(days=2))
        else:
            turns = [t for s in mem.sessions(limit=10_000)
                     for t in mem.store.session_items(s.id, kind="turn")]
            if turns:
                mem.forget_item(turns[op[1] % len(turns)].id)


def _moved(here: str, there: str, steps: list[Any], batch: int, strict: bool) -> int:
    with _open(here) as mem:
        _build(mem, steps)
        want = listing(mem)
        first = export_text(mem)
    with _open(there) as fresh, _batches_of(batch):
        report = import_jsonl(fresh.store, fresh.config.ingest, io.StringIO(first),
                              strict=strict)
        assert not report.errors and report.imported == first.count("\n"), report
        assert listing(fresh) == want
        assert export_text(fresh) == first
        again = import_jsonl(fresh.store, fresh.config.ingest, io.StringIO(first))
        assert again.imported == 0 and not again.errors, again
        assert listing(fresh) == want
    return first.count("\n")


@contextmanager
def _batches_of(size: int) -> Iterator[None]:
    """Imports written in batches of ``size`` lines (a label's lines over several)."""
    was, importer.BATCH = importer.BATCH, size
    try:
        yield
    finally:
        importer.BATCH = was


@pytest.mark.parametrize("route", ["sqlite-sqlite", "sqlite-postgres", "postgres-sqlite"])
def test_a_memory_moved_comes_back_the_same(request: pytest.FixtureRequest, tmp_path: Any,
                                             route: str) -> None:
    counter = itertools.count()
    server = "" if route == "sqlite-sqlite" else str(request.getfixturevalue("postgres_server_url"))

    def url(kind: str, n: int, side: str) -> str:
        if kind == "sqlite":
            return str(tmp_path / f"{side}{n}.db")
        from memlane.testing.postgres import create_database

        made.append(f"moved_{side}_{n}")
        return create_database(server, made[-1])

    made: list[str] = []

    @settings(max_examples=40 if route == "sqlite-sqlite" else 12, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(steps=st.lists(step, min_size=2, max_size=20),
           batch=st.sampled_from([1000, 1, 2, 3]), strict=st.booleans())
    def run(steps: list[Any], batch: int, strict: bool) -> None:
        n = next(counter)
        source, target = route.split("-")
        ran.append(_moved(url(source, n, "a"), url(target, n, "b"), steps, batch, strict))

    ran: list[int] = []
    try:
        run()
    finally:
        from memlane.testing.postgres import drop_database

        for name in made:
            drop_database(server, name)
    assert len(ran) >= 10 and sum(ran) > 0, ran


def _lines(rows: list[dict[str, Any]]) -> io.StringIO:
    return io.StringIO("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def test_sessions_closed_by_the_gap_stay_joinable_and_a_closed_last_one_stays_closed(
        db_url: str, tmp_path: Any) -> None:
    """The two shapes named: two sessions the gap cut (a message later dated between them,
    within the gap of both, joins them in the memory and in its copy: they came back closed
    ``explicit`` before, a boundary no message crosses), and a last session closed by hand
    (the next message, within the gap, opens a session of its own in both: it came back
    open before and took the message)."""
    def then(mem: Memory) -> list[Any]:
        mem.add_message("chat", "user", "between", at=BASE + timedelta(minutes=35))
        mem.add_message("chat", "user", "after the close", at=BASE + timedelta(minutes=215))
        return listing(mem)

    with _open(db_url) as mem:
        for text, minute in [("m0", 0), ("m1", 10), ("m2", 60), ("m3", 80), ("m4", 200)]:
            mem.add_message("chat", "user", text, at=BASE + timedelta(minutes=minute))
        mem.close_session("chat")
        text = export_text(mem)
        assert [json.loads(x).get("closed") for x in text.splitlines()] == ["gap"] * 4 + [
            "explicit"]
        want = then(mem)
    assert [len(s[-1]) for s in want] == [5, 1, 1]  # the two joined; after the close: its own
    with _open(str(tmp_path / "copy.db")) as fresh:
        fresh.import_file(io.StringIO(text))
        assert then(fresh) == want


def test_a_file_without_closed_imports_as_before(db_url: str) -> None:
    """An older export (no ``closed``): each label's session is closed ``explicit`` when the
    next label starts, the last one stays open."""
    rows = [{"scope": "chat", "role": "user", "text": f"m{i}", "id": i, "session": i // 2,
             "at": (BASE + timedelta(minutes=i)).isoformat()} for i in range(5)]
    with _open(db_url) as mem:
        mem.import_file(_lines(rows))
        got = [(s[1], s[2], len(s[-1])) for s in listing(mem)]
    assert got == [(False, "explicit", 2), (False, "explicit", 2), (True, None, 1)]


bad_closed = st.one_of(
    st.text(max_size=12).filter(lambda v: v not in ("explicit", "gap", "idle", "late")),
    st.integers(), st.booleans(), st.lists(st.just("gap"), max_size=1),
    st.sampled_from(["Gap", " idle", "closed", "open"]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=bad_closed, strict=st.booleans(), where=st.integers(0, 2))
def test_a_bad_closed_is_an_error_naming_the_line_and_field(tmp_path: Any, value: Any,
                                                             strict: bool, where: int) -> None:
    rows: list[dict[str, Any]] = [
        {"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}", "session": 1,
         "closed": "gap", "at": (BASE + timedelta(minutes=i)).isoformat()} for i in range(3)]
    rows[where]["closed"] = value
    db = tmp_path / f"bad{abs(hash((repr(value), strict, where)))}.db"
    with _open(str(db)) as mem:
        report = mem.import_file(_lines(rows), strict=strict)
        assert report.error_field == "closed" and report.errors[0][0] == where + 1, report
        assert "closed:" in report.errors[0][1], report
        stored = [m.ext_id for s in mem.sessions(limit=10) for m in mem.messages(s.id)]
    assert stored == ([] if strict else [f"m{i}" for i in range(where)])


def test_closed_without_a_session_label_is_an_error(tmp_path: Any) -> None:
    row = {"scope": "chat", "role": "user", "text": "hi", "at": BASE.isoformat(),
           "closed": "gap"}
    with _open(str(tmp_path / "m.db")) as mem:
        report = mem.import_file(_lines([row]))
    assert report.error_field == "closed" and report.imported == 0, report
    assert "only with a session label" in report.errors[0][1]


def test_a_message_like_one_imported_without_an_id_is_moved_too(db_url: str,
                                                                 tmp_path: Any) -> None:
    """Session 23's lead ("an export imported into a fresh file did not list every message
    once"): a message imported without an id (stored under its content id) and one added
    without an id with the same scope, role, time and text. The export wrote the second
    without an id; the import gave it the first's content id and skipped it as its
    duplicate: one message of two came back."""
    line = {"scope": "chat", "role": "user", "text": "hello", "at": BASE.isoformat()}
    with _open(db_url) as mem:
        mem.import_file(_lines([line]))
        mem.add_message("chat", "user", "hello", at=BASE)
        text = export_text(mem)
        want = listing(mem)
    with _open(str(tmp_path / "copy.db")) as fresh:
        report = fresh.import_file(io.StringIO(text))
        assert report.imported == 2 and report.skipped_duplicates == 0, report
        assert listing(fresh) == want and export_text(fresh) == text


def test_a_file_mended_after_a_bad_line_and_an_idle_close_gives_what_one_import_gives(
        db_url: str, tmp_path: Any) -> None:
    """A file stopped by a bad line inside a label closed by hand (its session left open,
    as an interrupted import leaves it), an index run that closes that session as idle,
    then the file mended: the session ends as the file
    says (``explicit``: a message later in the gap opens its own), not as the index run
    closed it (``idle``: the message would join it)."""
    rows = [{"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}", "session": 1,
             "closed": "explicit", "at": (BASE + timedelta(minutes=i)).isoformat()}
            for i in range(3)]
    with _open(str(tmp_path / "one.db")) as mem:
        mem.import_file(_lines(rows))
        want = listing(mem)
    with _open(db_url) as mem:
        stopped = mem.import_file(_lines([*rows[:2], {**rows[2], "role": "robot"}]))
        assert stopped.imported == 2 and stopped.error_field == "role", stopped
        mem.close_idle(BASE + timedelta(days=1))
        mem.import_file(_lines(rows))
        assert listing(mem) == want


def test_a_late_first_message_of_another_agent_leaves_the_session_its_own(
        db_url: str, tmp_path: Any) -> None:
    """qa28e's Left: agent ``x`` with Bo at 00:10, then a late message of agent ``y`` with
    Ann at 00:05. The session is agent ``x``'s, between Bo and Ann; its copy was agent
    ``y``'s, between Ann and Bo (an import starts a label's session with its first line's,
    the earliest): after ``index`` in the copy, a search for agent ``x`` found nothing."""
    def indexed(mem: Memory) -> list[Any]:
        mem.close_session("chat")
        mem.index(now=BASE + timedelta(days=2))
        hits = mem.search("Lisbon bakery", agent="x", now=BASE + timedelta(days=2))
        return [*listing(mem), sorted({h.item.kind for h in hits})]

    with _open(db_url) as mem:
        for minute, text in [(10, "I moved to Lisbon last week"), (12, "I opened a bakery"),
                             (14, "The bakery in Lisbon sells pastel de nata")]:
            mem.add_message("chat", "user", text, at=BASE + timedelta(minutes=minute),
                            speaker="Bo", agent="x", project="p")
        mem.add_message("chat", "assistant", "Welcome to Lisbon, Bo!",
                        at=BASE + timedelta(minutes=5), speaker="Ann", agent="y")
        text = export_text(mem)
        want = indexed(mem)
    assert want[0][6:9] == ("x", "p", ("Bo", "Ann")) and "summary" in want[-1], want
    with _open(str(tmp_path / "copy.db")) as fresh:
        fresh.import_file(io.StringIO(text))
        assert indexed(fresh) == want


bad_own = st.one_of(
    st.tuples(st.sampled_from(["session_agent", "session_project"]), st.one_of(
        st.integers(), st.booleans(), st.lists(st.just("x"), max_size=1),
        st.sampled_from(["", " ", "a\u200bb", "x" * 300]))),
    st.tuples(st.just("participants"), st.one_of(
        st.just([]), st.just("Bo"), st.integers(), st.just(["Bo", "Bo", "Ann"]),
        st.just(["Carl"]), st.just(["Bo", 3]), st.just(["Bo", None]))),
    # one line of the label disagreeing with the others (a value, or none where they say one)
    st.tuples(st.just("disagree"), st.sampled_from(
        ["session_agent", "session_project", "participants"])))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bad=bad_own, strict=st.booleans(), where=st.integers(0, 2))
def test_a_bad_session_field_is_an_error_naming_the_line_and_field(
        tmp_path: Any, bad: tuple[str, Any], strict: bool, where: int) -> None:
    """``session_agent``, ``session_project`` (a session's own, where not its first line's)
    and ``participants`` (its order): a value of the wrong kind, a list not naming the
    line's speaker, or one line of a label saying other than the rest, is an error naming
    the line and the field; the lines before stay stored (none with ``--strict``)."""
    own = {"session_agent": "x", "session_project": None, "participants": ["Bo", "Ann"]}
    rows: list[dict[str, Any]] = [
        {"scope": "chat", "role": "user", "text": f"m{i}", "id": f"m{i}", "session": 1,
         "speaker": "Ann" if i == 0 else "Bo", "agent": "y",
         "at": (BASE + timedelta(minutes=i)).isoformat(), **own} for i in range(3)]
    field, value = bad
    if field == "disagree":
        field = value
        if where == 0:  # the first line sets the label's: the next one disagrees
            where = 1
        if rows[where].pop(field) is None:
            rows[where][field] = "z"
    else:
        rows[where][field] = value
    db = tmp_path / f"own{abs(hash((repr(bad), strict, where)))}.db"
    with _open(str(db)) as mem:
        report = mem.import_file(_lines(rows), strict=strict)
        assert report.error_field == field and report.errors[0][0] == where + 1, report
        assert f": {field}:" in report.errors[0][1], report
        stored = [m.ext_id for s in mem.sessions(limit=10) for m in mem.messages(s.id)]
    assert stored == ([] if strict else [f"m{i}" for i in range(where)])


def test_session_fields_without_a_session_label_are_an_error(tmp_path: Any) -> None:
    for field, value in [("session_agent", "x"), ("session_project", None),
                         ("participants", ["user"])]:
        row = {"scope": "chat", "role": "user", "text": "hi", "at": BASE.isoformat(),
               field: value}
        with _open(str(tmp_path / f"{field}.db")) as mem:
            report = mem.import_file(_lines([row]))
        assert report.error_field == field and report.imported == 0, report
        assert "only with a session label" in report.errors[0][1]


def test_a_file_without_session_fields_imports_as_before(db_url: str) -> None:
    """An older export (no ``session_agent``, ``session_project``, ``participants``): each
    label's session takes its first line's agent and project, its speakers in time order."""
    rows = [{"scope": "chat", "role": "user", "text": f"m{i}", "id": i, "session": 1,
             "speaker": ["Ann", "Bo"][i % 2], "agent": ["y", "x"][i % 2],
             "at": (BASE + timedelta(minutes=i)).isoformat()} for i in range(3)]
    with _open(db_url) as mem:
        mem.import_file(_lines(rows))
        got = [s[6:9] for s in listing(mem)]
    assert got == [("y", None, ("Ann", "Bo"))]
