"""``memlane bench`` on files of a user's own (session 26): a LongMemEval or LoCoMo file
written by hand, cut short, compressed, re-encoded or with one value wrong.

Every class of bad input is a property over a small valid file this repository ships
(``tests/bench/data``, written for memlane, no benchmark data), mutated by hypothesis: the
loader either refuses the file with a message that starts with the file and names the
record and the field, or the run of what it loaded goes to its end and its rankings are
written. Before, a question id given twice was scored as another question's haystack, an
empty question stopped a run after its earlier questions with "query: must not be empty"
(no file, no question), a LoCoMo conversation without sessions was a ``ValueError``
traceback, a lone surrogate in an id a ``UnicodeEncodeError`` once the run had ended, and
a gzip file named ``.json`` was "cannot read ('utf-8' codec can't decode byte 0x8b …)".
"""

from __future__ import annotations

import bz2
import copy
import gzip
import json
import lzma
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.bench.datasets import DatasetError, DatasetWarning, load_locomo, load_longmemeval
from memlane.bench.locomo import run_locomo
from memlane.bench.longmemeval import run_longmemeval
from memlane.bench.memrun import make_embedder
from memlane.bench.report import write_rankings

DATA = Path(__file__).parent / "data"
LME = DATA / "longmemeval-sample.json"
LOCOMO = DATA / "locomo-sample.json"
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
    st.sampled_from(["", "   ", "\x00", "q1", "D1:1", "user", "User", "system",
                     "2023-05-20 02:21", "2023/02/30 (Thu) 10:00", "20/05/2023",
                     "1:56 pm on 31 February, 2023", "8 May 2023", "noise_q1_0",
                     "q\ud800", "\udc80"]),  # lone surrogates: a JSON "\ud800" escape
    st.text(max_size=6), st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from(["role", "content", "x"]), st.integers(), max_size=2),
)


def _at(obj: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def _has(obj: Any, path: tuple[Any, ...]) -> bool:
    """Whether ``path`` leads somewhere in ``obj`` (another record may be shorter)."""
    try:
        _at(obj, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


@st.composite
def mutated(draw: Any, original: list[Any]) -> tuple[list[Any], int, tuple[Any, ...]]:
    """The records with one change in record ``i`` at ``path`` (walked down from the
    record, stopping at each level a third of the time): a value deleted, replaced, emptied
    or given the value of the same place in another record or of a sibling (an id twice)."""
    records = copy.deepcopy(original)
    i = draw(st.integers(0, len(records) - 1))
    path: tuple[Any, ...] = ()
    value = records[i]
    while isinstance(value, (dict, list)) and value and (not path or draw(st.integers(0, 2))):
        key = draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        path, value = (*path, key), value[key]
    parent, key = _at(records[i], path[:-1]), path[-1]
    how = draw(st.sampled_from(["delete", "replace", "copy", "empty"]))
    if how == "delete" and isinstance(parent, dict):
        del parent[key]
    elif how == "empty":
        parent[key] = type(value)() if isinstance(value, (str, list, dict)) else draw(VALUES)
    elif how == "copy":  # another record's, or a sibling's, value: ids given twice
        j = draw(st.integers(0, len(records) - 1))
        if isinstance(parent, list) and len(parent) > 1:
            parent[key] = copy.deepcopy(parent[draw(st.integers(0, len(parent) - 1))])
        elif j != i and _has(records[j], path):
            parent[key] = copy.deepcopy(_at(records[j], path))
        else:
            parent[key] = draw(VALUES)
    else:
        parent[key] = draw(VALUES)
    return records, i, path


def _change(original: Path, i: int, path: tuple[Any, ...], value: Any) -> tuple[list[Any], int,
                                                                                 tuple[Any, ...]]:
    """One change made by hand: the classes found before the property ran (examples)."""
    records = json.loads(original.read_text())
    _at(records[i], path[:-1])[path[-1]] = value
    return records, i, path


def _refused_or_runs(path: Path, records: list[Any], i: int, where: tuple[Any, ...],
                     load: Any, run: Any, original: list[Any]) -> None:
    path.write_text(json.dumps(records))
    try:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", DatasetWarning)
            loaded = load(path)
        for warning in said:  # a repeated turn id is read, and said naming record and field
            assert f"{path}: record {i}" in str(warning.message), (where, warning.message)
    except DatasetError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: record "), message
        assert f"record {i}" in message, (where, message)  # the record (or where it came first)
        field = str(where[0])
        assert field in message or "record is not an object" in message, (where, message)
        return
    changed = [x for n, x in enumerate(loaded) if records[n] != original[n]]
    done = run(changed or loaded[:1])  # what loaded runs to its end: no stop hours into a run
    for system in done.systems.values():  # and its rankings are written (ids as UTF-8)
        for kind, ranked in (("session", system.session_rankings), ("turn", system.turn_rankings)):
            write_rankings(path.with_suffix(f".{kind}.jsonl"), ranked, list(ranked))


@FUZZ
@given(change=mutated(json.loads(LME.read_text())), now=st.sampled_from(["question", "latest"]))
@example(change=_change(LME, 1, ("question_id",), "q1"), now="question")  # scored as q2's
@example(change=_change(LME, 0, ("question",), " "), now="question")  # stopped the run
@example(change=_change(LME, 0, ("haystack_session_ids", 2), "noise_q1_0"), now="question")
@example(change=_change(LME, 0, ("haystack_sessions", 0, 0, "role"), "User"), now="question")
@example(change=_change(LME, 0, ("haystack_session_ids", 0), "s\ud800"), now="question")
def test_a_longmemeval_file_with_one_value_wrong_is_refused_naming_it_or_runs(
        tmp_path: Path, change: tuple[list[Any], int, tuple[Any, ...]], now: str) -> None:
    records, i, where = change
    embedder = make_embedder("hashing")
    _refused_or_runs(tmp_path / "mine.json", records, i, where, load_longmemeval,
                     lambda qs: run_longmemeval(qs, embedder=embedder, now_mode=now),
                     json.loads(LME.read_text()))


@FUZZ
@given(change=mutated(json.loads(LOCOMO.read_text())))
@example(change=_change(LOCOMO, 0, ("conversation", "session_2", 0, "dia_id"), "D1:1"))
@example(change=_change(LOCOMO, 0, ("qa", 0, "question"), ""))  # stopped the run
def test_a_locomo_file_with_one_value_wrong_is_refused_naming_it_or_runs(
        tmp_path: Path, change: tuple[list[Any], int, tuple[Any, ...]]) -> None:
    records, i, where = change
    embedder = make_embedder("hashing")
    _refused_or_runs(tmp_path / "mine.json", records, i, where, load_locomo,
                     lambda convs: run_locomo(convs, embedder=embedder),
                     json.loads(LOCOMO.read_text()))


def _compress(data: bytes, kinds: list[str]) -> bytes:
    for kind in kinds:
        data = {"gzip": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress}[kind](data)
    return data


@FUZZ
@given(kinds=st.lists(st.sampled_from(["gzip", "xz", "bz2"]), max_size=2),
       bom=st.booleans(), name=st.sampled_from(["mine.json", "mine.json.gz", "mine.json.xz",
                                                  "mine.bin"]),
       cut=st.one_of(st.none(), st.integers(0, 400)),
       junk=st.one_of(st.none(), st.tuples(st.integers(0, 400), st.binary(min_size=1, max_size=3))),
       dataset=st.sampled_from(["longmemeval", "locomo"]))
def test_a_file_compressed_cut_or_re_encoded_loads_the_same_or_is_refused_naming_it(
        tmp_path: Path, kinds: list[str], bom: bool, name: str, cut: int | None,
        junk: tuple[int, bytes] | None, dataset: str) -> None:
    source, load = (LME, load_longmemeval) if dataset == "longmemeval" else (LOCOMO, load_locomo)
    plain = (b"\xef\xbb\xbf" if bom else b"") + source.read_bytes()
    data = _compress(plain, kinds)
    if junk is not None:
        at, extra = junk
        data = data[:at] + extra + data[at:]
    if cut is not None:
        data = data[:cut]
    path = tmp_path / name
    path.write_bytes(data)
    try:
        loaded = load(path)
    except DatasetError as exc:
        message = str(exc)
        assert junk is not None or cut is not None, message  # whole files load, whatever the name
        assert message.startswith(f"{path}: ") and message.count(str(path)) == 1, message
        if kinds and junk is None and cut is not None and cut >= 6:  # names what it reads first
            assert f"{path}: the {kinds[-1]}" in message and "cut short" in message, message
        return
    if junk is None and cut is None:
        assert loaded == load(source)  # compression told by the bytes, never the name


@pytest.mark.parametrize("data, said", [
    (b"\xef\xbb\xbf[]", "the array holds no records"),
    ('[{"question_id": "q"}]'.encode("utf-16"), r"not valid UTF-8 \(byte 0xff at offset 0\); "
     "the file is UTF-16"),
    ("[\"caf\u00e9\"]".encode("latin-1"), r"not valid UTF-8 \(byte 0xe9 at offset 5\)"),
])
def test_an_empty_utf16_or_latin1_file_names_what_it_is(tmp_path: Path, data: bytes,
                                                         said: str) -> None:
    path = tmp_path / "mine.json"
    path.write_bytes(data)
    with pytest.raises(DatasetError, match=said):
        load_longmemeval(path)


def test_a_record_with_no_session_is_refused_naming_it(tmp_path: Path) -> None:
    """Before: LongMemEval ran it, ranked nothing and left it out of the means unsaid;
    LoCoMo stopped with ``ValueError: max() arg is an empty sequence``."""
    records = json.loads(LME.read_text())
    records[2].update(haystack_sessions=[], haystack_dates=[], haystack_session_ids=[])
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(records))
    with pytest.raises(DatasetError, match=r"record 2 \(question_id q3\): field "
                       "'haystack_sessions' is empty"):
        load_longmemeval(path)
    convs = json.loads(LOCOMO.read_text())
    for key in [k for k in convs[0]["conversation"] if k.startswith("session_")]:
        del convs[0]["conversation"][key]
    path.write_text(json.dumps(convs))
    with pytest.raises(DatasetError, match=r"record 0 \(sample_id conv-9\): the conversation "
                       "has no session_<N> with turns"):
        load_locomo(path)


def _shipped_labels() -> list[Any]:
    """The first conversations of the labelled set the package ships (development data)."""
    from importlib import resources

    text = (resources.files("memlane.bench.summaries") / "dev.json").read_text("utf-8")
    return json.loads(text)[:3]


@FUZZ
@given(change=mutated(_shipped_labels()))
@example(change=(_shipped_labels() + [_shipped_labels()[0]], 3, ("id",)))  # an id twice
@example(change=([dict(_shipped_labels()[0], expected={"decisons": ["x"]})], 0, ("expected",)))
@example(change=([dict(_shipped_labels()[0], expected={"facts": ["PostgreSQL"]})], 0,
                 ("expected",)))
def test_a_labels_file_with_one_value_wrong_is_refused_naming_it_or_scored(
        tmp_path: Path, change: tuple[list[Any], int, tuple[Any, ...]]) -> None:
    """``bench summaries --labels``: before, a fact written as a string was an
    AttributeError traceback, a misspelt field (``decisons``) was scored as no label, an
    id given twice mixed two conversations' misses, and an empty list scored nothing."""
    from memlane.bench.summaries import run as evalrun
    from memlane.errors import ValidationError

    records, i, where = change
    path = tmp_path / "labels.json"
    path.write_text(json.dumps(records))
    try:
        convs = evalrun.load_set(path=path)
    except ValidationError as exc:
        message = str(exc)
        assert message.startswith(f"{path} item "), message
        assert f"item {i + 1}" in message, (where, message)  # 1-based, as the file is read
        return
    assert len({c.id for c in convs}) == len(convs)
    evalrun.run_backend("offline", None, [("labels", convs)], model=None)


def test_a_turn_id_given_twice_is_read_with_a_warning_naming_it(tmp_path: Path) -> None:
    """A repeated turn id is a glitch an upstream file may carry: the run goes on, as before
    these checks, and the warning names the record and the field."""
    records = json.loads(LOCOMO.read_text())
    conv = records[0]["conversation"]
    second = conv["session_2"][0]
    second["dia_id"] = conv["session_1"][0]["dia_id"]
    second["text"] = "Another turn under the same id."
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(records))
    with pytest.warns(DatasetWarning, match=r"record 0 .*session_2\[0\]\.dia_id .* again"):
        loaded = load_locomo(path)
    assert [t.text for s in loaded[0].sessions for t in s.turns].count(second["text"]) == 1

    lme = json.loads(LME.read_text())
    rec = lme[0]
    rec["haystack_session_ids"].append(rec["haystack_session_ids"][0])
    rec["haystack_dates"].append(rec["haystack_dates"][0])
    rec["haystack_sessions"].append([{"role": "user", "content": "Other turns, same id."}])
    path = tmp_path / "dup-lme.json"
    path.write_text(json.dumps(lme))
    with pytest.warns(DatasetWarning, match=r"haystack_session_ids\[\d+\] .* again .*other turns"):
        questions = load_longmemeval(path)
    assert len(questions[0].sessions) == len(rec["haystack_sessions"])
