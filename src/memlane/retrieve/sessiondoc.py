"""The session as a document: stage one's best sessions re-ordered by their whole text.

Stage one scores a session by its best candidate turns (``memlane.retrieve.twostage``), so
a session whose answer is spread over several turns, none of which matches the question
well alone, ranks behind sessions with one turn that shares the question's words. Here
the first ``depth`` sessions of that ranking are scored once more as documents: BM25 of
the query's terms over each session's turns joined into one text, among those sessions
(their term frequencies saturate and their lengths normalise per session, and a term
found in few of them weighs more). A session gains ``weight × best score × doc / best
doc``; the rest of the ranking keeps its order below them.

The documents are built at query time from the turns stage two reads anyway, in an
in-memory FTS5 table with the SQLite store's tokenizer, so they need no index or
migration, are the same on SQLite and PostgreSQL, and are current as soon as a turn is
indexed. Measured in ``docs/retrieval.md`` ("Session 22: the session as a document").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from memlane.retrieve.twostage import SessionScore
from memlane.types import Item

__all__ = ["session_doc_scores", "with_session_docs"]

_TOKENIZE = "porter unicode61 remove_diacritics 2"
"""The SQLite store's ``items_fts`` tokenizer (migration 0007)."""


def session_doc_scores(terms: Sequence[str], docs: Mapping[int, str]) -> dict[int, float]:
    """BM25 (FTS5's, higher is better) of ``terms`` OR-ed over ``docs`` (session id ->
    text), with document frequencies among ``docs`` themselves. Sessions matching no term
    are left out."""
    quoted = ['"' + t.replace("\x00", "").replace('"', '""') + '"'
              for t in terms if t.replace("\x00", "").strip()]
    if not quoted or not docs:
        return {}
    db = sqlite3.connect(":memory:")
    try:
        db.execute(f"CREATE VIRTUAL TABLE d USING fts5(body, tokenize = '{_TOKENIZE}')")
        db.executemany("INSERT INTO d (rowid, body) VALUES (?, ?)", docs.items())
        rows = db.execute("SELECT rowid, bm25(d) FROM d WHERE d MATCH ?",
                          (" OR ".join(quoted),)).fetchall()
    finally:
        db.close()
    return {int(sid): -float(b) for sid, b in rows}


def with_session_docs(sessions: list[SessionScore], turns_of: Mapping[int, Sequence[Item]],
                      terms: Sequence[str], weight: float, depth: int) -> list[SessionScore]:
    """``sessions`` (stage one's ranking, best first) with the first ``depth`` lifted by
    their document score and re-ordered, ranks renumbered; ``turns_of`` holds those
    sessions' turns. Items outside any session keep their score."""
    head = sessions[:depth]
    docs = {s.key: "\n".join(it.text for it in turns_of.get(s.key, ()))
            for s in head if isinstance(s.key, int)}
    scores = session_doc_scores(terms, docs)
    best = max(scores.values(), default=0.0)
    if best <= 0 or not head:
        return sessions
    top = head[0].score if head[0].score > 0 else 1.0
    for s in head:
        s.score += weight * top * scores.get(s.key, 0.0) / best
    head.sort(key=lambda s: -s.score)  # stable: equals keep stage one's order
    out = head + sessions[depth:]
    for r, s in enumerate(out, start=1):
        s.rank = r
    return out
