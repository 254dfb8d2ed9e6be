"""Importing a prefix of a file, then the whole file, stores what importing the whole file
once stores (session 33; docs/hardening.md, "Session 33: qa33").

A file cut after a label (a shorter file, imported whole: not a stopped import) ends the
label there, and its ``closed`` closes the label's session. Imported whole afterwards, the
unlabelled lines that follow the label found that session closed: an ``explicit`` close is
a boundary, so they opened a session of their own, where one import of the whole file
joins them to the label's session (within the gap), which the label's ``closed`` closes
only at its end (the next label or the end of the file).

The property: any file of unlabelled runs and labels (session 32's generator: labels older
than the scope's live session or newer, open or closed in the file for any reason), into
a scope with or without a live session, cut at any line; the prefix imported, then the
whole file, in batches of any size: each session's messages, whether it is open and how it
ended are those one import of the whole file gives (and the rule's, session 32's model);
a third import changes nothing. Both stores.
"""

from __future__ import annotations

import io
import itertools
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memlane.ingest import importer
from memlane.ingest.importer import import_jsonl
from memlane.testing import memory
from tests.ingest.test_import_mixed_labels_property import LIVE, build, labelled, stored, unlabelled


def _prepared(mem: Any, scope: str, live_n: int) -> None:
    """A session closed long before, then ``live_n`` messages of a live session."""
    mem.add_message(scope, "user", "before", at=LIVE - timedelta(days=90))
    mem.close_session(scope)
    for i in range(live_n):
        mem.add_message(scope, "user", f"live {i}", at=LIVE + timedelta(minutes=i))


def _text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def _import(mem: Any, text: str) -> Any:
    report = import_jsonl(mem.store, mem.config.ingest, io.StringIO(text))
    assert not report.errors, report
    return report


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_prefix_then_the_whole_file_stores_what_the_whole_file_stores(
        request: pytest.FixtureRequest, tmp_path: Path, backend: str) -> None:
    counter = itertools.count()
    url = str(tmp_path / "m.db") if backend == "sqlite" else str(request.getfixturevalue("pg_url"))

    @settings(max_examples=60 if backend == "sqlite" else 25, deadline=None, database=None,
              derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(segments=st.lists(st.one_of(unlabelled, labelled), min_size=1, max_size=5),
           live_n=st.integers(0, 3), batch=st.integers(1, 4), cut=st.integers(0, 64),
           with_ids=st.booleans())
    # session 32's case: a closed label, cut right after it, then unlabelled lines in its gap
    @example(segments=[("l", 1, 1, "explicit"), ("u", [1])], live_n=0, batch=4, cut=1,
             with_ids=False)
    @example(segments=[("l", 2, 1, "gap"), ("u", [1, 1])], live_n=1, batch=1, cut=3,
             with_ids=True)
    def run(segments: list[Any], live_n: int, batch: int, cut: int, with_ids: bool) -> None:
        n = next(counter)
        once, twice = f"w{n}", f"p{n}"
        lines, want = build(segments, live_n, twice, with_ids)
        want = sorted([*want, (("before",), False, "explicit")])  # stored before: kept
        cut %= len(lines) + 1  # any line, the whole file (nothing left) and none included
        was, importer.BATCH = importer.BATCH, batch  # a label's lines over several batches
        try:
            with memory(url) as mem:
                _prepared(mem, once, live_n)
                _prepared(mem, twice, live_n)
                _import(mem, _text([{**x, "scope": once} for x in lines]))
                whole = stored(mem, once)
                _import(mem, _text(lines[:cut]))  # a shorter file, imported whole
                report = _import(mem, _text(lines))
                assert report.lines == len(lines)
                assert report.imported == len(lines) - cut, report
                assert stored(mem, twice) == whole == want
                again = _import(mem, _text(lines))
                assert again.imported == 0 and again.skipped_duplicates == len(lines)
                assert stored(mem, twice) == whole  # nothing new, nothing moved
        finally:
            importer.BATCH = was

    run()
