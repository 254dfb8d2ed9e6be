"""The text the MCP tools answer with: short, structured, every object with its id.

An agent pastes these answers into its own context, so each line says what the object is
(``item 17``, ``fact 3``, ``session 5``), where it lives and when, and nothing it does not
need. Kept apart from ``memlane.serve.mcp`` so the server module is only wiring.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from memlane.cursor import cursor_after
from memlane.clip import clip as cut
from memlane.index.facts import FactView
from memlane.pack.packer import Pack
from memlane.retrieve.explain import explain_lines, figure
from memlane.retrieve.text import query_terms, split_words
from memlane.serve.render import fact_key, fact_sentence, place
from memlane.types import Hit, Message, Session

__all__ = [
    "fact_history_text",
    "fact_line",
    "facts_text",
    "hit_text",
    "matched_terms",
    "pack_text",
    "recall_text",
    "session_text",
    "sessions_text",
    "summary_line",
]

HIT_CHARS = 300
"""A recall hit's text is clipped to this."""

ANSWER_CHARS = 60_000
"""The most characters a ``session`` or ``facts`` answer holds (about 15,000 tokens, under
the 25,000-token limit Claude Code puts on one tool's output): a session of 300 long
messages was one 3 MB answer, which a client cuts or refuses and a model cannot read.
What does not fit is said, with how to reach it."""


def when(value: datetime | float | None) -> str:
    """``2024-03-04 09:12`` (UTC)."""
    if value is None:
        return "-"
    dt = value if isinstance(value, datetime) else datetime.fromtimestamp(value, UTC)
    return dt.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def clip(text: str, width: int) -> str:
    return cut(" ".join(text.split()), width)


def matched_terms(query: str, text: str) -> list[str]:
    """The query's content words that the text contains (also as a longer or shorter form
    of the word: ``marathon`` matches ``marathons``)."""
    words = {w.lower() for w in split_words(text)}
    out = []
    for term in query_terms(query):
        t = term.lower()
        if t in words or (len(t) >= 4 and any(
                len(w) >= 4 and (w.startswith(t) or t.startswith(w)) for w in words)):
            out.append(t)
    return out


def _why(hit: Hit, query: str) -> str:
    s = hit.scores
    parts = []
    if "lexical" in s:
        # the raw BM25; one of a word every row of the scope holds is ~1e-6 (SQLite's idf
        # floor): ``figure`` shows it "<0.01", not "0.00" as if no match
        score = f" bm25 {figure(s['lexical'], 2)}" if s["lexical"] else ""
        parts.append(f"words{score} (#{int(s.get('lexical_rank', 0))})")
    if "vector" in s:
        parts.append(f"meaning cosine {figure(s['vector'], 3)} (#{int(s.get('vector_rank', 0))})")
    if s.get("session_rank") and hit.item.session_id:
        parts.append(f"session #{int(s['session_rank'])}")
    if s.get("recency"):
        parts.append(f"recency {figure(s['recency'], 2)}")
    if s.get("confidence"):
        parts.append(f"confidence {figure(s['confidence'], 2)}")
    if hit.item.pinned:
        parts.append("pinned")
    terms = matched_terms(query, hit.item.text)
    if terms:
        parts.append("matched: " + ", ".join(terms))
    return " · ".join(parts) or "ranked by the fused lexical and vector lists"


def hit_text(rank: int, hit: Hit, query: str, *, explain: bool = False) -> str:
    it = hit.item
    kind = f"{it.kind} ({it.role})" if it.role else it.kind
    lines = [f"[{rank}] item {it.id} · {kind} · scope {it.scope or '-'} · {place(it)} · "
             f"{when(it.at)} · score {figure(hit.score, 3)}",
             f"    {clip(it.text, HIT_CHARS)}",
             f"    why: {_why(hit, query)}"]
    if explain:
        lines += [f"      {line}" for line in explain_lines(hit)]
    return "\n".join(lines)


def recall_text(query: str, scope: str | None, hits: Sequence[Hit], *, explain: bool,
                why: str = "") -> str:
    """``why``: what a match is, said when nothing matched (``render.no_match``)."""
    where = f"scope {scope}" if scope else "all scopes"
    if not hits:
        return (f"no memories match {query!r} in {where}{': ' + why if why else ''}. Messages "
                "become searchable once their session closes (after the inactivity gap, or "
                "call summarize).")
    head = f"{len(hits)} hit(s) for {query!r} in {where}, best first:"
    return "\n".join([head, *(hit_text(i, h, query, explain=explain)
                              for i, h in enumerate(hits, start=1))])


def pack_text(pack: Pack) -> str:
    kept = [e for e in pack.entries if e.kept]
    ids = [f"item {e.item_id}" if e.item_id is not None else f"message {e.message_id}"
           for e in kept if e.item_id is not None or e.message_id is not None]
    shares = ", ".join(f"{k} {v:.0%}" for k, v in pack.shares.items())
    journal = f"pack {pack.id} · " if pack.id is not None else ""
    foot = (f"-- {journal}{pack.used}/{pack.budget} tokens ({pack.token_counter}); "
            f"{len(kept)} of {len(pack.entries)} candidates kept")
    lines = [pack.text or f"({pack.notice or 'nothing relevant found in memory'})", "", foot]
    if shares:
        lines.append(f"-- sources: {shares}")
    if ids:
        lines.append("-- from: " + ", ".join(ids))
    return "\n".join(lines)


def fact_line(f: FactView) -> str:
    state = ("current" if f.status == "current" else "ended (said to no longer hold)" if f.status == "ended"
             else f"superseded by fact {f.superseded_by}")
    return (f"fact {f.id} · {fact_sentence(f.subject, f.predicate, f.object)} · "
            f"{fact_key(f.subject, f.predicate)} · confidence "
            f"{figure(f.confidence, 2)} ({f.source}, said {f.reinforcements + 1}×, {when(f.at)}"
            + (f", session {f.session_id}" if f.session_id else "") + f") · {state}")


def _read_on(reader: str, offset: int, last: Any, cursor: str | None) -> str:
    """How to ask for what follows ``last`` (the last row shown): ``reader`` ("call facts
    with") and the offset and cursor to pass, or the cursor alone on a page read by cursor
    (``cursor``: that page's, named again when no row was shown)."""
    after = f'cursor "{cursor_after(last) if last is not None else cursor}"'
    return f"{reader} {after}" if cursor else f"{reader} offset {offset} or {after}"


def _read_back(what: str, reader: str, prev: str | None) -> list[str]:
    """The line that names the ``before`` of the page before (``prev``), if there is one."""
    return [f'… {what} come before: {reader} before "{prev}"'] if prev else []


def facts_text(scope: str | None, facts: Sequence[FactView], *, subject: str | None,
               offset: int = 0, more: bool = False,
               reader: str = "call facts with", cursor: str | None = None,
               before: str | None = None, prev: str | None = None) -> str:
    """``facts`` (a page of them from position ``offset``, after ``cursor`` or just before
    ``before``; ``more``: others follow it; ``prev``: the ``before`` of the page before it)
    within ``ANSWER_CHARS``. Whatever is left out, past the answer's length or past the
    page, is said, with the offset and cursor to read on from (``reader`` says how): a
    scope's facts past the store's 1,000 were left out without a word."""
    where = f"scope {scope}" if scope else "all scopes"
    about = f" about {subject!r}" if subject else ""
    side = "before" if before else "after"
    cursor = cursor or before  # a page back reads on by cursor too
    if not facts:
        return (f"no facts{about} in {where} {side} the cursor" if cursor else
                f"no facts{about} in {where}" if not offset else
                f"no facts{about} in {where} from offset {offset} (there are {offset} or fewer)")
    head = (f"{len(facts)} fact(s){about} in {where} {side} the cursor"
            + (", more follow" if more else ", the last") if cursor else
            f"{len(facts)} fact(s){about} in {where}" if not offset and not more else
            f"facts {offset + 1}-{offset + len(facts)}{about} in {where}"
            + (", more follow" if more else ", the last"))
    lines = [head + ":", *_read_back("earlier facts", reader, prev)]
    used = sum(len(line) + 1 for line in lines)
    for shown, f in enumerate(facts):
        line = fact_line(f)
        if used + len(line) + 1 > ANSWER_CHARS - 300:
            lines.append(f"… {len(facts) - shown}{'+' if more else ''} more fact(s) not shown "
                         f"(this answer stops at {ANSWER_CHARS:,} characters): "
                         f"{_read_on(reader, offset + shown, facts[shown - 1] if shown else None, cursor)}"
                         ", or pass subject to list fewer")
            break
        lines.append(line)
        used += len(line) + 1
    else:
        if more:
            lines.append("… more facts follow: "
                         + _read_on(reader, offset + len(facts), facts[-1], cursor))
    return "\n".join(lines)


def fact_history_text(subject: str, predicate: str, scope: str | None,
                      rows: Sequence[dict[str, Any]]) -> str:
    where = f"scope {scope}" if scope else "all scopes"
    if not rows:
        return f"no facts for {subject!r} {predicate!r} in {where}"
    head = (f"{rows[0]['subject']} · {rows[0]['predicate']} in {where}: "
            f"{len(rows)} value(s), oldest first")
    blocks = []
    for f in rows:
        state = "current" if f["status"] == "current" else (
            f"superseded by fact {f['superseded_by']}" if f["superseded_by"] else
            "ended (said to no longer hold)" if f["status"] == "ended" else f["status"])
        origin = f"from session {f['session_id']}" if f["session_id"] else "added directly"
        block = [f"fact {f['id']} · {f['object']} · {state} · {origin} · {when(f['at'])} · "
                 f"confidence {figure(f['confidence'], 2)} · scope {f['scope']}"]
        for e in f["events"]:
            other = f" → fact {e['other_id']}" if e.get("other_id") else ""
            block.append(f"    {when(e['at'])} {e['kind']}{other}")
        blocks.append("\n".join(block))
    # within ANSWER_CHARS, the newest values kept (1,500 values were a 265,000-character answer)
    kept: list[str] = []
    used = len(head) + 300
    for block in reversed(blocks):
        if used + len(block) + 1 > ANSWER_CHARS:
            break
        kept.append(block)
        used += len(block) + 1
    left = len(blocks) - len(kept)
    cut = ([f"… {left} older value(s) not shown (this answer stops at {ANSWER_CHARS:,} "
            "characters)"] if left else [])
    return "\n".join([head, *cut, *reversed(kept)])


def summary_line(summary: dict[str, Any] | None) -> str:
    """The gist of a structured summary on one line (topic, decisions, next steps)."""
    if not summary:
        return "(no summary yet)"
    parts = []
    for key, label in (("topic", "topic"), ("decisions", "decided"),
                       ("open_questions", "open"), ("next_steps", "next")):
        value = summary.get(key)
        if value:
            value = "; ".join(value) if isinstance(value, list) else str(value)
            parts.append(f"{label}: {clip(value, 160)}")
    return " · ".join(parts) or "(empty summary)"


def _session_head(s: Session) -> str:
    reason = f" ({s.closed_reason})" if s.closed_reason else ""
    return (f"session {s.id} · scope {s.scope} · {s.status}{reason} · {when(s.started_at)} → "
            f"{when(s.ended_at)} · {s.message_count} message(s)")


def sessions_text(scope: str | None, rows: Iterable[tuple[Session, dict[str, Any] | None]],
                  *, offset: int = 0, more: bool = False, cursor: str | None = None,
                  before: str | None = None, prev: str | None = None) -> str:
    """Sessions from position ``offset`` (0 the newest), after ``cursor`` or just newer
    than ``before``; ``more``: older ones follow, and the answer names the offset and
    cursor to ask for them; ``prev``: the ``before`` of the newer ones."""
    rows = list(rows)
    where = f"scope {scope}" if scope else "all scopes"
    since = (" before the cursor" if before else " after the cursor" if cursor else
             f" from offset {offset}" if offset else "")
    cursor = cursor or before  # a page back reads on by cursor too
    if not rows:
        return f"no sessions in {where}{since}"
    lines = [f"{len(rows)} session(s) in {where}, newest first{since}:",
             *_read_back("newer sessions", "call sessions with", prev)]
    for s, summary in rows:
        lines.append(_session_head(s))
        lines.append(f"    {summary_line(summary)}")
    if more:
        lines.append("… older sessions follow: "
                     + _read_on("call sessions with", offset + len(rows), rows[-1][0], cursor))
    return "\n".join(lines)


def session_text(s: Session, messages: Sequence[Message], intel: dict[str, Any], *,
                 from_turn: int = 1, reader: str = "call session") -> str:
    """The session whole, its messages from turn ``from_turn`` on, within ``ANSWER_CHARS``:
    the messages that do not fit are named with the turn to ask for next (``reader`` says
    how, e.g. "call session with from_turn")."""
    lines = [_session_head(s) + (f" · participants: {', '.join(s.participants)}"
                                 if s.participants else "")]
    if s.failed_reason:
        lines.append(f"last failure (attempt {s.attempts}): {s.failed_reason}")
    summary = intel.get("summary")
    if summary:
        lines.append("summary:")
        for key in ("topic", "context", "decisions", "rationale", "open_questions", "next_steps",
                    "action_items", "references", "topic_tags"):
            value = summary.get(key)
            if value:
                value = "; ".join(value) if isinstance(value, list) else value
                lines.append(f"  {key.replace('_', ' ')}: {value}")
    if intel.get("facts"):
        lines.append("facts:")
        for f in intel["facts"]:
            turn = f" (turn {f['seq']})" if f.get("seq") else ""
            lines.append(f"  fact {f['id']} · {fact_sentence(f['subject'], f['predicate'], f['object'])} · "
                         f"{f['status']}{turn}")
    if intel.get("entities"):
        lines.append("entities: " + ", ".join(f"{e['name']} ({e['type']})"
                                              for e in intel["entities"]))
    shown = [m for m in messages if m.seq >= from_turn]
    lines.append("messages:" if from_turn <= 1 else f"messages from turn {from_turn}:")
    used = sum(len(line) + 1 for line in lines)
    for i, m in enumerate(shown):
        line = f"  {m.seq}. message {m.id} · {when(m.at)} · {m.speaker or m.role}: {m.text}"
        room = ANSWER_CHARS - 300 - used  # room for the line saying what is left
        if len(line) + 1 > room:
            if i == 0:  # one message longer than the answer: its start, and what is cut
                cut = max(room - 200, 1000)
                lines.append(f"{line[:cut]}… ({len(line) - cut:,} more characters of this "
                             "message not shown)")
                i += 1
            if i < len(shown):
                lines.append(f"… {len(shown) - i} more message(s), turns {shown[i].seq}-"
                             f"{shown[-1].seq}, not shown (this answer stops at "
                             f"{ANSWER_CHARS:,} characters): {reader} {shown[i].seq}")
            break
        lines.append(line)
        used += len(line) + 1
    if not shown and messages:
        lines.append(f"  (none: the last turn is {messages[-1].seq})")
    return "\n".join(lines)
