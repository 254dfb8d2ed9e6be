"""Loading the labelled set, running a backend over it, and the per-field report."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from memlane.bench.summaries.score import FieldScore, is_small_talk, score_field, strip_owner
from memlane.errors import ValidationError
from memlane.index.schema import Entity, Extraction, Fact, SessionSummary
from memlane.types import Message

__all__ = ["DEV_ALL", "FIELDS", "FRESH", "POOL", "SETS", "TRAIN", "Conversation", "EvalReport", "canned_answer", "evaluate",
           "labelled_output", "load_set", "messages_of", "pair_labellings", "score_labelling"]

FIELDS = ("decisions", "rationale", "open_questions", "next_steps", "references", "entities",
          "topics", "facts")
"""The scored fields, in the report's order."""
LISTS = ("decisions", "rationale", "open_questions", "next_steps", "action_items")
"""The summary's list fields that small talk and cross-field repeats are looked for in."""
SETS = ("dev", "heldout", "heldout2", "heldout3", "heldout4")
"""dev: tuned on; heldout: never tuned on, but its misses were read (session 5); heldout2:
written and labelled before anything ran on it, run once after the rules were frozen
(session 6); heldout3: the same for session 7 (the learned sentence classifier); heldout4:
the same for session 8. Since session 9 all five are the development pool (:data:`POOL`)."""
POOL = ("dev", "heldout", "heldout2", "heldout3", "heldout4")
"""The development pool (127 conversations since session 9; the first four, 109, in session
8): ``--set pool`` scores them as one set."""
TRAIN = ("train1", "train2", "train3", "train4", "train5")
"""Conversations written and labelled in session 9 to train the sentence model on (320;
``--set train`` scores them as one set); with the pool, the data it is trained and
cross-validated on."""
FRESH = ("heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11",
         "heldout12", "heldout13", "heldout14", "heldout15", "heldout16",
         "heldout17", "heldout18", "heldout19", "heldout20", "heldout21", "heldout22",
         "heldout23", "heldout24", "heldout25", "heldout26",
         "heldout27", "heldout28", "heldout29", "heldout30", "heldout31", "heldout32",
         "heldout33", "heldout34", "heldout35", "heldout36", "heldout37", "heldout38",
         "heldout39", "heldout40", "heldout41", "heldout42",
         "heldout43", "heldout44", "heldout45", "heldout46", "heldout47",
         "heldout48", "heldout49", "heldout50", "heldout51",
         "heldout52", "heldout53", "heldout54")
"""Each written and labelled before anything ran on it and measured once at the end of its
session (heldout5: session 9, development data since session 10; heldout6: session 10,
development data since session 11, both in :data:`DEV_ALL`; heldout7: session 11,
development data since session 12; heldout8: session 12's first round, development data
for its second; heldout9: session 12's end, development data since session 13; heldout10:
session 13's end, development data since session 14; heldout11: session 14's, development
data since session 15; heldout12: session 15's, development data since session 16;
heldout13: session 16's, development data since session 17; heldout14: session 17's,
development data since session 18; heldout15: session 18's, development data since
session 19; heldout16: session 19's, development data since session 20; heldout17: session
20's, development data since session 21; heldout18: session 21's, development data since
session 22; heldout19: session 22's, development data since session 23; heldout20: session
23's, development data since session 24; heldout21: session 24's, development data since
session 25; heldout22: session 25's, development data since
session 26; heldout23: session 26's, development data since
session 27; heldout24: session 27's, development data since
session 28; heldout25: session 28's, development data since
session 30; heldout26: session 29's, measured in session 30, development data since
session 31; heldout27: session 30's, development data since session 31; heldout28: session
31's, development data since session 32; heldout29: session 32's, labelled again by two
more labellers on their own, ``second/heldout29-a.json`` and ``-b.json``, scored with
``--against``; heldout30: session 34's; heldout31: session 35's; heldout32: session 36's;
heldout33: session 37's; heldout34: session 38's; heldout35: session 39's; heldout36:
session 40's; heldout37: session 41's; heldout38: session 42's;
heldout39: session 43's; heldout40: session 44's;
heldout41: session 45's; heldout42: session 46's;
heldout43: session 47's; heldout44: session 48's;
heldout45: session 49's; heldout46: session 50's;
heldout47: session 51's; heldout48: session 52's;
heldout49: session 53's; heldout50: session 54's;
heldout51: session 55's; heldout52: session 56's;
heldout53: session 57's; heldout54: session 58's); not in ``--set all``."""
DEV_ALL = (*POOL, *TRAIN, "heldout5", "heldout6")
"""Every set that is development data since session 11 (507 conversations; 471 without
heldout6 in session 10): ``--set dev_all``."""
_GROUPS = {"pool": POOL, "train": TRAIN, "dev_all": DEV_ALL}
_START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_NOT_ENTITIES = ("date", "reference")
"""Extracted entity types that are not scored as entities (dates; references are their own field)."""


@dataclass(frozen=True)
class Conversation:
    """One labelled conversation: ``turns`` as ``(speaker, text)`` and the expected fields."""

    id: str
    kind: str
    turns: tuple[tuple[str, str], ...]
    expected: dict[str, Any]


def _conversation(where: str, raw: Any) -> Conversation:
    if not isinstance(raw, dict):
        raise ValidationError(f"{where}: each conversation must be a JSON object")
    cid = raw.get("id")
    turns = raw.get("turns")
    expected = raw.get("expected")
    if not isinstance(cid, str) or not cid:
        raise ValidationError(f"{where}: 'id' must be a non-empty string")
    if not isinstance(turns, list) or not turns:
        raise ValidationError(f"{where} ({cid}): 'turns' must be a non-empty list")
    if not isinstance(expected, dict):
        raise ValidationError(f"{where} ({cid}): 'expected' must be an object")
    parsed = []
    for n, turn in enumerate(turns, 1):
        speaker, sep, text = str(turn).partition(": ")
        if not sep or not speaker.strip() or not text.strip():
            raise ValidationError(f"{where} ({cid}) turn {n}: expected 'Speaker: text', got {turn!r}")
        parsed.append((speaker.strip(), text.strip()))
    unknown = sorted(set(expected) - set(FIELDS))
    if unknown:  # a misspelt field was scored as one with no label, silently
        import difflib

        near = difflib.get_close_matches(unknown[0], FIELDS, 1)
        raise ValidationError(f"{where} ({cid}): expected.{unknown[0]} is no field"
                              + (f" (did you mean {near[0]}?)" if near else "")
                              + f"; the fields are {', '.join(FIELDS)}")
    for name in FIELDS:
        items = expected.get(name, [])
        if not isinstance(items, list):
            raise ValidationError(f"{where} ({cid}): expected.{name} must be a list")
        for n, item in enumerate(items):
            _label(f"{where} ({cid}): expected.{name}[{n}]", name, item)
    return Conversation(cid, str(raw.get("kind", "")), tuple(parsed), expected)


def _label(where: str, name: str, item: Any) -> None:
    """One labelled item: a text, or for ``next_steps`` a text or ``{"text", "owner"}``
    and for ``facts`` ``{"subject", "object"}`` (a string here was an AttributeError)."""
    keys = {"next_steps": ("text", "owner"), "facts": ("subject", "object")}.get(name)
    if isinstance(item, str) and name != "facts":
        if not item.strip():
            raise ValidationError(f"{where} is empty")
        return
    if keys is None or not isinstance(item, dict):
        shape = f"an object with {' and '.join(keys)}" if keys else "a string"
        raise ValidationError(f"{where} must be {shape}"
                              + (" (or a string)" if name == "next_steps" else "")
                              + f", got {type(item).__name__}")
    needed = keys[0] if name == "next_steps" else keys[1]
    for key, value in item.items():
        if key not in keys:
            raise ValidationError(f"{where}: {key!r} is no key; use {' and '.join(keys)}")
        if not (isinstance(value, str) or value is None and key == "owner"):
            raise ValidationError(f"{where}.{key} must be a string, got {type(value).__name__}")
    if not str(item.get(needed) or "").strip():
        raise ValidationError(f"{where}.{needed} is missing or empty")


def load_set(name: str = "dev", path: str | Path | None = None) -> list[Conversation]:
    """The labelled conversations of the packaged set ``name`` (a name of :data:`SETS`,
    :data:`FRESH` or :data:`TRAIN`; ``pool``: dev to heldout4 together; ``train``: train1 to train5
    together; ``dev_all``: pool, train, heldout5 and heldout6 together), or of a JSON file at ``path`` in the
    same format."""
    if path is None and name in _GROUPS:
        return [conv for part in _GROUPS[name] for conv in load_set(part)]
    if path is None:
        if name not in SETS and name not in TRAIN and name not in FRESH:
            known = ", ".join((*SETS, *FRESH, *TRAIN, *_GROUPS))
            raise ValidationError(f"unknown set {name!r}; use one of {known}")
        text = (resources.files("memlane.bench.summaries") / f"{name}.json").read_text("utf-8")
        where = f"{name}.json"
        data = json.loads(text)
    else:  # read as the benchmark files are: compressed, a BOM, what is not UTF-8 named
        from memlane.bench.datasets import read_json

        where = str(path)
        data = read_json(path)
    if not isinstance(data, list):
        raise ValidationError(f"{where}: expected a JSON list of conversations")
    if not data:
        raise ValidationError(f"{where}: the list holds no conversations")
    out, first = [], {}
    for i, raw in enumerate(data, 1):
        conv = _conversation(f"{where} item {i}", raw)
        if conv.id in first:  # misses are listed by id: two conversations under one mixed
            raise ValidationError(f"{where} item {i}: id {conv.id!r} again (first in item "
                                  f"{first[conv.id]}): ids must be unique")
        first[conv.id] = i
        out.append(conv)
    return out


def messages_of(conv: Conversation) -> list[Message]:
    """The conversation as stored messages: speaker ``assistant`` is the assistant, ``user``
    the user, any other name a user with that speaker name; one minute apart."""
    out = []
    for i, (speaker, text) in enumerate(conv.turns):
        role = "assistant" if speaker == "assistant" else "user"
        out.append(Message(id=i + 1, session_id=1, scope=conv.id, role=role, text=text,
                           at=_START + timedelta(minutes=i), seq=i + 1,
                           speaker=None if speaker in ("user", "assistant") else speaker))
    return out


def _steps(expected: dict[str, Any]) -> tuple[list[str], list[str]]:
    texts, owners = [], []
    for item in expected.get("next_steps", []):
        if isinstance(item, dict):
            texts.append(str(item.get("text", "")))
            owners.append(str(item.get("owner") or ""))
        else:
            texts.append(str(item))
            owners.append("")
    return texts, owners


def canned_answer(conv: Conversation) -> dict[str, Any]:
    """The labels as the JSON answer an LLM backend expects (``SUMMARY_SCHEMA``): what the
    scripted loopback model answers, so that prompt, parsing and mapping are all that is
    measured. Steps with an owner become ``Owner: text`` action items."""
    e = conv.expected
    texts, owners = _steps(e)
    return {
        "topic": (e.get("topics") or [""])[0],
        "context": "",
        "decisions": list(e.get("decisions", [])),
        "rationale": list(e.get("rationale", [])),
        "open_questions": list(e.get("open_questions", [])),
        "next_steps": [t for t, o in zip(texts, owners, strict=True) if not o],
        "action_items": [f"{o}: {t}" for t, o in zip(texts, owners, strict=True) if o],
        "references": list(e.get("references", [])),
        "entities": [{"name": n, "type": "thing"} for n in e.get("entities", [])],
        "facts": [{"subject": f.get("subject", ""), "predicate": "related_to",
                   "object": f.get("object", "")} for f in e.get("facts", [])],
        "topic_tags": list(e.get("topics", [])),
    }


def labelled_output(conv: Conversation) -> tuple[SessionSummary, Extraction]:
    """The labels of ``conv`` as a backend's summary and extraction, what
    :func:`score_labelling` scores one labelling against another with: each field's items
    as labelled, a step with an owner as ``Owner: text`` (as :func:`canned_answer` writes
    its action item, so the owner-aware scoring reads the owner), entities and facts'
    objects as extracted.

    Every step is a next step, in the labels' order, not split into next steps and action
    items: the matching's greedy tie-break takes the items in order, and a labelling read
    in its own order on both sides is what makes A against B the mirror of B against A
    (split, ``deploy``/``ship`` against ``Ana: budget deploy``/``ship deploy`` matched two
    steps one way and one the other).

    A step of no owner whose text starts as an owner would ("Call Dana about the deposit:
    asap", what the scoring cuts off a backend's step as its owner) is written after an
    owner of no words (``-: Call Dana about the deposit: asap``), so that the text compared
    is the label's whole text, as it is on the reference's side (session 33: it was compared
    as "asap", and a labelling scored against itself missed the step)."""
    e = conv.expected
    texts, owners = _steps(e)
    summary = SessionSummary(
        topic=(e.get("topics") or [""])[0], context="",
        decisions=tuple(e.get("decisions", [])), rationale=tuple(e.get("rationale", [])),
        open_questions=tuple(e.get("open_questions", [])),
        next_steps=tuple(_labelled_step(t, o) for t, o in zip(texts, owners, strict=True)),
        references=tuple(e.get("references", [])), entities=tuple(e.get("entities", [])),
        topic_tags=tuple(e.get("topics", [])), turn_count=len(conv.turns), model="labels")
    extraction = Extraction(
        entities=tuple(Entity(name, "thing") for name in e.get("entities", [])),
        facts=tuple(Fact(str(f.get("subject", "")), "related_to", str(f.get("object", "")))
                    for f in e.get("facts", [])))
    return summary, extraction


_NO_OWNER = "-"
"""The owner :func:`labelled_output` writes before a step of no owner that would otherwise
lose its first words as an owner (``strip_owner``): no word, so nothing else is scored
differently (small talk, repeats, owners)."""


def _labelled_step(text: str, owner: str) -> str:
    """A labelled step as a backend's next step whose compared text (``strip_owner``) is
    ``text``: ``Owner: text``, or ``text`` itself, or after ``_NO_OWNER``."""
    if owner:
        return f"{owner}: {text}"
    return text if strip_owner(text) == text else f"{_NO_OWNER}: {text}"


@dataclass
class EvalReport:
    """Per-field scores, small talk and cross-field repeats of one backend on one set."""

    backend: str
    set_name: str
    conversations: int = 0
    fields: dict[str, FieldScore] = field(default_factory=lambda: {f: FieldScore() for f in FIELDS})
    small_talk: list[dict[str, str]] = field(default_factory=list)
    repeats: list[dict[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self, misses: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "backend": self.backend, "set": self.set_name, "conversations": self.conversations,
            "fields": {k: v.to_dict() for k, v in self.fields.items()},
            "small_talk": self.small_talk, "cross_field_repeats": self.repeats,
            "seconds": round(self.seconds, 3), "notes": self.notes,
        }
        if misses:
            out["misses"] = {k: v.misses for k, v in self.fields.items() if v.misses}
        return out


def scored_steps(summary: SessionSummary) -> tuple[str, ...]:
    """What the ``next_steps`` field is scored on: the next steps and the action items."""
    return (*summary.next_steps, *summary.action_items)


def scored_entities(extraction: Extraction) -> list[str]:
    """What the ``entities`` field is scored on: the extracted names but dates and references."""
    return [x.name for x in extraction.entities if x.type not in _NOT_ENTITIES]


def _add(report: EvalReport, conv: Conversation, summary: SessionSummary,
         extraction: Extraction) -> None:
    e = conv.expected
    f = report.fields
    for name in ("decisions", "rationale", "open_questions"):
        score_field(f[name], conv.id, getattr(summary, name), [str(x) for x in e.get(name, [])])
    steps = scored_steps(summary)
    texts, owners = _steps(e)
    score_field(f["next_steps"], conv.id, steps, texts, owners=owners,
                compare=[strip_owner(s) for s in steps])
    score_field(f["references"], conv.id, summary.references, e.get("references", []), by_name=True)
    score_field(f["entities"], conv.id, scored_entities(extraction), e.get("entities", []), by_name=True)
    score_field(f["topics"], conv.id, summary.topic_tags, e.get("topics", []))
    objects = [x.object for x in extraction.facts]
    score_field(f["facts"], conv.id, objects, [str(x.get("object", "")) for x in e.get("facts", [])])
    seen: dict[str, str] = {}
    for name in LISTS:
        for item in getattr(summary, name):
            if is_small_talk(item):
                report.small_talk.append({"conversation": conv.id, "field": name, "text": item})
            key = strip_owner(item).strip().lower()
            if key in seen and seen[key] != name:
                report.repeats.append({"conversation": conv.id, "fields": f"{seen[key]}+{name}",
                                       "text": item})
            seen.setdefault(key, name)


def evaluate(
    summarize: Callable[[str, Sequence[Message]], tuple[SessionSummary, Extraction]],
    conversations: Sequence[Conversation],
    *,
    backend: str,
    set_name: str,
) -> EvalReport:
    """Run ``summarize(scope, messages)`` on every conversation and score it."""
    import time

    report = EvalReport(backend, set_name)
    t0 = time.perf_counter()
    for conv in conversations:
        summary, extraction = summarize(conv.id, messages_of(conv))
        _add(report, conv, summary, extraction)
        report.conversations += 1
    report.seconds = time.perf_counter() - t0
    return report


def pair_labellings(reference: Sequence[Conversation], other: Sequence[Conversation],
                    *, reference_name: str, other_name: str) -> dict[str, Conversation]:
    """``other``'s conversations by id, checked to be ``reference``'s: the same ids and,
    for each, the same turns. Raises :class:`ValidationError` naming the first id missing
    from ``other``, then the first extra one, then the first conversation whose turns
    differ (and the first differing turn, 1-based as the loader counts them)."""
    by_id = {c.id: c for c in other}
    ours = {c.id for c in reference}
    missing = [c.id for c in reference if c.id not in by_id]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise ValidationError(f"{other_name}: no conversation {missing[0]!r}{more}, which "
                              f"{reference_name} holds; a second labelling must label the "
                              "same conversations")
    extra = [c.id for c in other if c.id not in ours]
    if extra:
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        raise ValidationError(f"{other_name}: conversation {extra[0]!r}{more} is not in "
                              f"{reference_name}; a second labelling must label the same "
                              "conversations")
    for conv in reference:
        theirs = by_id[conv.id].turns
        if theirs == conv.turns:
            continue
        n = next((k for k, (a, b) in enumerate(zip(conv.turns, theirs, strict=False), 1)
                  if a != b), min(len(conv.turns), len(theirs)) + 1)
        said = (lambda turns: _short(": ".join(turns[n - 1])) if n <= len(turns)
                else "no such turn")
        raise ValidationError(
            f"{other_name}: conversation {conv.id!r} turn {n} differs from {reference_name}'s "
            f"({said(theirs)!r} against {said(conv.turns)!r}; {len(theirs)} turns against "
            f"{len(conv.turns)}); both labellings must be of the same turns")
    return by_id


def score_labelling(sets: Sequence[tuple[str, Sequence[Conversation]]],
                    other: Sequence[Conversation], *, label: str,
                    other_name: str | None = None) -> list[EvalReport]:
    """Score ``other``, a second labelling of the conversations of ``sets`` (paired by id:
    :func:`pair_labellings` over the sets together), on each named set as a backend's output
    is scored: each conversation's ``other`` labels become its summary
    (:func:`labelled_output`) and go through :func:`evaluate`, the same matching rule and
    counts. Each report's backend is ``labels: <label>``; ``other_name`` (default
    ``label``) names ``other`` in the pairing's errors. Swapping the two labellings swaps
    precision and recall and keeps F1 (the one-to-one Dice matching is symmetric)."""
    reference = [conv for _, convs in sets for conv in convs]
    by_id = pair_labellings(reference, other, reference_name=" + ".join(n for n, _ in sets),
                            other_name=other_name or label)
    return [evaluate(lambda scope, _messages: labelled_output(by_id[scope]), convs,
                     backend=f"labels: {label}", set_name=name) for name, convs in sets]


def _short(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most - 1] + "\u2026"


def render(reports: Sequence[EvalReport], show_misses: bool = False) -> str:
    """The per-field table of each report (one block per backend and set)."""
    lines: list[str] = []
    for r in reports:
        lines.append(f"{r.backend} on {r.set_name} ({r.conversations} conversations, "
                     f"{r.seconds:.2f} s)")
        lines.append(f"  {'field':<15} {'P':>6} {'R':>6} {'F1':>6} {'tp':>4} {'pred':>5} "
                     f"{'gold':>5}  owners")
        for name, s in r.fields.items():
            owners = "" if s.owner_accuracy is None else f"{s.owner_accuracy:.2f}"
            lines.append(f"  {name:<15} {s.precision:6.3f} {s.recall:6.3f} {s.f1:6.3f} "
                         f"{s.tp:4d} {s.predicted:5d} {s.expected:5d}  {owners}")
        lines.append(f"  small talk in a field: {len(r.small_talk)}; "
                     f"sentences in two fields: {len(r.repeats)}")
        for x in r.small_talk:
            lines.append(f"    small talk [{x['conversation']}] {x['field']}: {x['text']}")
        for note in r.notes:
            lines.append(f"  note: {note}")
        if show_misses:
            for x in r.repeats:
                lines.append(f"    repeat [{x['conversation']}] {x['fields']}: {x['text']}")
            for name, s in r.fields.items():
                for m in s.misses:
                    extra = f" (owner {m['owner']})" if m["kind"] == "owner" else ""
                    lines.append(f"    {name} {m['kind']} [{m['conversation']}] {m['text']}{extra}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def session_speed(path: str | Path, limit: int | None = None,
                  model: Any = "shipped", jobs: int = 1, facts_model: bool = False) -> dict[str, Any]:
    """Offline summarization speed over the distinct haystack sessions of a LongMemEval
    file: summary and extraction alone (no store), one process; ``model`` as
    :class:`memlane.index.offline.OfflineIntelligence` takes it (None: the patterns alone);
    ``facts_model``: the learned facts reader joins it (``summary.facts_model``). ``jobs`` above one: then also the same sessions through the worker's pool of that many
    processes (``indexing.jobs``, :mod:`memlane.index.pool`), answers taken in order as the
    worker takes them: wall-clock sessions per second (the processes' start-up apart), the
    CPU seconds of every process (start-up included) and of this one while it sent the
    sessions and took the answers, and whether every answer equals the one process's."""
    import time

    from memlane.bench.datasets import load_longmemeval
    from memlane.index.offline import OfflineIntelligence

    sessions: dict[str, list[Message]] = {}
    for q in load_longmemeval(path):
        for s in q.sessions:
            if s.id in sessions or not s.turns:
                continue
            sessions[s.id] = [
                Message(id=t.index, session_id=1, scope=s.id, role=t.role, text=t.content,
                        at=s.date + timedelta(seconds=t.index), seq=t.index)
                for t in s.turns
            ]
            if limit is not None and len(sessions) >= limit:
                break
        if limit is not None and len(sessions) >= limit:
            break
    backend = OfflineIntelligence(model, facts_model=facts_model)
    runs = list(sessions.items())
    turns = sum(len(m) for _, m in runs)
    t0, c0 = time.perf_counter(), time.process_time()
    answers = [backend.summarize(sid, msgs) for sid, msgs in runs]
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    # CPU time too: on a shared machine the wall clock measures the neighbours as well.
    out = {"sessions": len(runs), "turns": turns, "seconds": round(seconds, 3),
           "cpu_seconds": round(cpu, 3),
           "sessions_per_s": round(len(runs) / seconds, 1) if seconds else None,
           "turns_per_s": round(turns / seconds, 1) if seconds else None,
           "sessions_per_cpu_s": round(len(runs) / cpu, 1) if cpu else None}
    if jobs > 1:
        out.update(_pool_speed(backend, runs, answers, jobs))
    return out


def _pool_speed(backend: Any, runs: list[tuple[str, list[Message]]], answers: list[Any],
                jobs: int) -> dict[str, Any]:
    """The sessions through a pool of ``jobs`` processes, two a process in flight, as the
    worker's ``process_queue`` sends them."""
    import resource
    import time
    from collections import deque

    from memlane.index.pool import SummaryPool

    def cpu(who: int) -> float:
        # RUSAGE_CHILDREN: the processes ended (the pool's, at close)
        used = resource.getrusage(who)
        return used.ru_utime + used.ru_stime

    c0, t0 = cpu(resource.RUSAGE_SELF) + cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
    pool = SummaryPool(backend, jobs)
    try:
        for f in [pool.submit("warm-up", runs[0][1]) for _ in range(jobs)]:
            f.result()  # every process started and its backend read
        started = time.perf_counter() - t0
        t1, p1 = time.perf_counter(), cpu(resource.RUSAGE_SELF)
        got: list[Any] = []
        ahead: deque[Any] = deque()
        for sid, msgs in runs:
            ahead.append(pool.submit(sid, msgs))
            if len(ahead) >= 2 * jobs:
                got.append(ahead.popleft().result()[0])
        got.extend(f.result()[0] for f in ahead)
        seconds, sending = time.perf_counter() - t1, cpu(resource.RUSAGE_SELF) - p1
    finally:
        pool.close()
    total = time.perf_counter() - t0
    return {"jobs": jobs, "jobs_start_seconds": round(started, 3),
            "jobs_seconds": round(seconds, 3),
            "jobs_sessions_per_s": round(len(runs) / seconds, 1) if seconds else None,
            "jobs_sessions_per_s_with_start": round(len(runs) / total, 1) if total else None,
            "jobs_cpu_seconds": round(cpu(resource.RUSAGE_SELF) + cpu(resource.RUSAGE_CHILDREN)
                                      - c0, 3),
            "jobs_parent_cpu_seconds": round(sending, 3),
            "jobs_identical": got == answers}


def run_backend(
    backend: str, service: str | None, sets: Sequence[tuple[str, Sequence[Conversation]]],
    model: Any = "shipped", config_path: str | None = None, facts_model: bool = False,
) -> list[EvalReport]:
    """Score ``backend`` (offline | llm) on each named set. ``llm`` without ``service``
    runs against a scripted model on a loopback server that answers each conversation with
    its own labels; the report then notes whether every turn reached the prompt. ``model``:
    the sentence model joining the offline backend's patterns ("shipped": the default, the
    package's own; None: the patterns alone); ``facts_model``: the learned facts reader joins
    it (``summary.facts_model``; its label then says so)."""
    if backend == "offline":
        from memlane.index.offline import OfflineIntelligence
        from memlane.index.sentmodel import shipped_vectors

        off = OfflineIntelligence(model, facts_model=facts_model)
        vectors = shipped_vectors(off.model)
        label = ("offline, patterns alone" if off.model is None else "offline"
                 if vectors == "static" else "offline, meaning sentence vectors"
                 if vectors == "meaning" else "offline + sentence classifier")
        if off.facts_model is not None:
            label += ", learned facts reader"
        return [evaluate(off.summarize, convs, backend=label, set_name=name)
                for name, convs in sets]
    from memlane.backends.llm.openai import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence

    if service:
        from memlane.config import load_config

        config = load_config(config_path)
        llm = LLMIntelligence(OpenAIChat.from_config(config.llm_service(service)),
                              max_input_tokens=config.indexing.max_input_tokens)
        try:
            return [evaluate(llm.summarize, convs, backend=f"llm:{service}", set_name=name)
                    for name, convs in sets]
        finally:
            llm.close()
    return _scripted(sets)


def _scripted(sets: Sequence[tuple[str, Sequence[Conversation]]]) -> list[EvalReport]:
    from memlane.backends.llm.openai import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence
    from memlane.testing.llm_server import ChatServer

    by_scope = {c.id: c for _, convs in sets for c in convs}

    def reply(body: dict[str, Any]) -> str:
        user = next((m.get("content", "") for m in body.get("messages", [])
                     if m.get("role") == "user"), "")
        scope = str(user).partition("Conversation scope: ")[2].split("\n", 1)[0].strip()
        conv = by_scope.get(scope)
        return json.dumps(canned_answer(conv)) if conv else "{}"

    reports = []
    with ChatServer(reply=reply) as srv, OpenAIChat(srv.base_url, "scripted",
                                                    backoff_base=0) as chat:
        llm = LLMIntelligence(chat)
        for name, convs in sets:
            before = len(srv.chat_requests)
            report = evaluate(llm.summarize, convs, backend="llm (scripted loopback)",
                              set_name=name)
            prompts = [r.messages[-1].get("content", "") for r in srv.chat_requests[before:]]
            turns = sum(len(c.turns) for c in convs)
            shown = sum(1 for c, p in zip(convs, prompts, strict=False)
                        for _, text in c.turns if text in p)
            report.notes.append(
                f"the model is scripted to answer each conversation with its labels: this "
                f"measures prompt rendering, parsing and mapping, not a model; "
                f"{shown}/{turns} turns were in the prompts, {len(prompts)} requests")
            reports.append(report)
    return reports
