"""Migrations with a step in Python: what SQL alone cannot compute.

A migration ``NNNN_<name>.sql`` whose ``<name>`` is in :data:`STEPS` runs its step after its
SQL, inside the same transaction, with the ``Database`` that migrates (shared SQL through
``db.portable``): a crash leaves the database as it was before the migration or after it.

``name_keys`` (session 27): who a name is became accent-insensitive
(:func:`memlane.index.normalize.name_key`: "José" and "Jose" are one person), so the stored
keys of facts' subjects, forgotten facts' marks, entities and relations' ends are written
again, and what falls together is merged:

- facts: of each scope, subject and predicate that more than one old key now shares, the
  newest-stated current value (when it was stated or last reinforced) stays current and the
  other current values become its history, superseded by it with a ``superseded`` event at
  the time it was last stated (a value of a multi-valued predicate competes only with the
  same value); a value an ending said after it ends (an ending of the other spelling) is
  ended by it. Nothing is deleted;
- entities: one node per scope and key: the first seen keeps its id and displayed name (the
  spelling the user wrote first, as ``upsert_entity`` keeps it), with every node's mentions
  summed, the first and last seen, a type other than ``name``/``thing`` and the context of
  the last seen; the others are deleted (nothing refers to an entity's id);
- relations: both ends re-keyed; the nodes they name are merged above.

``value_keys`` (session 28): what a fact's value is became accent-insensitive too
(:func:`memlane.index.normalize.normalize_value` is :func:`~memlane.index.normalize.name_key`
without a leading article: "São Paulo" and "Sao Paulo" are one value), so every fact's
``norm_object`` is written again, and of each scope, subject and predicate where one
changed, current values that now share a key are one: the newest-stated stays current, the
others become its history as above (whatever the predicate: the same value twice is one
truth); a current value an ending said after it now ends is ended by it. The value as
written is kept on every row.

``value_symbols`` (session 30): a symbol became part of a value's key (``normalize_value``
keeps signs, ``+``, ``#``, currency and unit signs, emoji: "C++" and "C#", "-5 °C" and
"5 °C" are two values, and no value but an ending's "any value" has the key ``""``; zero-width
characters and variation selectors are dropped), so ``rekey_values`` runs again: every
``norm_object`` written with the new key, current values that now share one settled as
above. A value a statement was wrongly taken to restate before was never stored: nothing
can split it back out.

``name_symbols`` (session 31): a symbol became part of a name's key too (``name_key`` is
the value's key without its article rule: "C++", "C#" and "C" are three subjects and three
graph nodes; zero-width and format characters are dropped, so "Lis\u200bbon" and "Lisbon"
are one), and a space between a number and its unit or currency sign decorates names and
values ("5 °C" is "5°C"). ``rekey_symbols`` writes the ends of relations first (a relation
keeps only its ends' keys: they are read back from a fact of the scope that states the
relation, else each from the entity that had its old key, else re-keyed as it is), then runs
``rekey_names`` (subjects, marks, entities) and ``rekey_values``. What the old key merged
stays merged: the node "C++" that "C#" was a mention of keeps that mention (and every
relation that named either), a value of "C# team" that superseded one of "C++ team" stays
its successor, and a forgotten fact's mark keeps its key (its subject as written is gone:
``mark_subjects`` below reads it back where it can).

``mark_subjects`` (session 32): a forgotten fact's marks keep the subject as written
(``fact_events.written_subject``), which ``rekey_names`` keys them by from then on, so a
forgotten fact stays forgotten whatever rule keys names. ``read_back_marks`` gives the marks
an older memlane left (none has it) the name their turns' words say with their key (today's,
or the one before session 31), else a stored subject's or node's of their scope, but a name
of a kept fact the same turn stated; a name of each key found gives the mark under that key
(the old key held them all). A mark nothing names stays as it is (docs/facts.md, "Session
32: forgotten stays forgotten").

Each step is idempotent: run again it finds every key written and nothing to merge.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from memlane.index.normalize import (SELF_NAMES, _fold_accents, name_key, normalize_name, normalize_value,
                                     subject_key)

__all__ = ["STEPS", "read_back_marks", "rekey_names", "rekey_symbols", "rekey_values", "step_of"]


def _runner(db: Any) -> Callable[..., Any]:
    def run(sql: str, params: Any = ()) -> Any:
        return db.execute(db.portable(sql), params)
    return run


def rekey_names(db: Any) -> None:
    """Write every stored name key again with ``name_key`` and merge what falls together."""
    run = _runner(db)
    now = time.time()
    _rekey_facts(run, now)
    _rekey_marks(db)
    _rekey_entities(run)
    for rid, src, dst in run("SELECT id, source_entity, target_entity FROM relations").fetchall():
        if (name_key(src) or src, name_key(dst) or dst) != (src, dst):
            run("UPDATE relations SET source_entity = %s, target_entity = %s WHERE id = %s",
                (name_key(src) or src, name_key(dst) or dst, rid))


_MARKS = ("FROM fact_events WHERE object = ''"
          " AND NOT EXISTS (SELECT 1 FROM facts WHERE facts.id = fact_events.fact_id)")
"""The marks ``forget_fact`` leaves: the events of a fact no longer stored, without value."""


def _rekey_marks(db: Any) -> None:
    """A forgotten fact's marks are keyed by its subject's key (``forget_fact``): written
    again from the subject as written they keep (session 32), else from the key itself (an
    older mark no migration could read back; before migration ``mark_subjects`` no mark
    has one)."""
    run = _runner(db)
    written = "written_subject" in _columns(db, "fact_events")
    for eid, subject, as_written in run(
            f"SELECT id, subject, {'written_subject' if written else 'NULL'} {_MARKS}").fetchall():
        key = subject_key(as_written) if as_written else subject_key(subject)
        if key and key != subject:
            run("UPDATE fact_events SET subject = %s WHERE id = %s", (key, eid))


def _columns(db: Any, table: str) -> set[str]:
    """The columns ``table`` has now (a step runs at its migration's place in the
    sequence: a later migration's column may not be there yet)."""
    return {d[0] for d in db.execute(db.portable(f"SELECT * FROM {table} LIMIT 0")).description}


def read_back_marks(db: Any) -> None:
    """Migration ``mark_subjects`` (session 32): give the marks an older memlane left the
    subject as written they lack, read back from what the database still says, then key
    every mark by it (see the module)."""
    run = _runner(db)
    groups: dict[tuple[int, str, str, str], list[tuple[int, Any, Any, float, str]]] = {}
    for eid, fid, scope, key, pred, sid, mid, at, kind in run(
            f"SELECT id, fact_id, scope, subject, predicate, session_id, message_id, at, kind {_MARKS}"
            " AND written_subject IS NULL ORDER BY id").fetchall():
        groups.setdefault((int(fid), scope, key, pred), []).append((int(eid), sid, mid, float(at), kind))
    names: dict[str, dict[str, list[str]]] = {}  # a scope's subjects and nodes' names by key
    for (fid, scope, key, pred), events in groups.items():
        found = _turn_names(run, key, events)
        if not found:  # its turns say no name of its key: a subject or node of its scope
            if scope not in names:
                names[scope] = _names_by_key(str(r[0]) for r in run(
                    "SELECT subject FROM facts WHERE scope = %s UNION"
                    " SELECT name FROM entities WHERE scope = %s", (scope, scope)).fetchall())
            found = sorted(names[scope].get(key, ()))
        kept = _still_stated(run, scope, pred, events)
        keys: dict[str, str] = {}
        for name in found:
            if subject_key(name) not in kept:
                keys.setdefault(subject_key(name), name)
        if not keys:
            continue  # nothing says it: keyed as it is (docs/facts.md)
        ids = [e[0] for e in events]
        (first, name), *more = sorted(keys.items())
        for eid in ids:
            run("UPDATE fact_events SET subject = %s, written_subject = %s WHERE id = %s",
                (first, name, eid))
        for other, name in more:  # one mark under each name the old key held
            for eid in ids:
                run("INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object,"
                    " other_id, session_id, message_id, at, written_subject)"
                    " SELECT fact_id, kind, scope, %s, predicate, object, other_id, session_id,"
                    " message_id, at, %s FROM fact_events WHERE id = %s", (other, name, eid))
    _rekey_marks(db)


def _still_stated(run: Callable[..., Any], scope: str, pred: str,
                  events: list[tuple[int, Any, Any, float, str]]) -> set[str]:
    """The subject keys of the stored facts of ``scope`` and ``pred`` that a turn of the
    mark's statements stated too (its message; of no one turn, its session at its time):
    a name the turn said of a fact the user kept is not the forgotten one ("C team" beside
    "C++ team", one key before session 31)."""
    out: set[str] = set()
    for _, sid, mid, at, kind in events:
        if kind not in ("added", "reinforced") or sid is None:
            continue
        turn = ("e.message_id = %s", (mid,)) if mid is not None else (
            "e.at BETWEEN %s AND %s", (at - 0.001, at + 0.001))
        out.update(r[0] for r in run(
            "SELECT f.norm_subject FROM fact_events e JOIN facts f ON f.id = e.fact_id"
            " WHERE f.scope = %s AND f.norm_predicate = %s AND e.kind IN ('added', 'reinforced')"
            f" AND e.session_id = %s AND {turn[0]}", (scope, pred, sid, *turn[1])).fetchall())
    return out


def _fits(name: str, key: str) -> bool:
    """``name`` had the mark's ``key``: today's key, or the key of before session 31
    (``_before_symbols``, the user however written), which a mark keeps after migration
    ``name_symbols`` re-keyed it by itself."""
    return key in _keys_of(name)


def _keys_of(name: str) -> set[str]:
    """The keys a mark of ``name`` may hold (``_fits``)."""
    old = _before_symbols(name)
    return {subject_key(name), "user" if old in SELF_NAMES else old}


def _names_by_key(names: Iterable[str]) -> dict[str, list[str]]:
    """``names`` by each key a mark of them may hold (``_fits``), each name once a key:
    a scope's subjects and nodes are keyed once, not once a mark (session 33: 200 marks of
    a scope of 2,000 nodes took 7.4 s CPU in the migration, ``_fits`` 400,000 times)."""
    out: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        for key in _keys_of(name):
            out.setdefault(key, []).append(name)
    return out


def _turn_names(run: Callable[..., Any], key: str, events: list[tuple[int, Any, Any, float, str]]) -> list[str]:
    """The spans of words of the turns of a mark's statements (their messages; of one of no
    one turn, every message of its session) that had its key, in the order the turns say
    them. A ``superseded`` mark's turn is the replacing statement's: not read."""
    stated = [e for e in events if e[4] in ("added", "reinforced", "forgotten")]
    mids = sorted({int(e[2]) for e in stated if e[2] is not None})
    sids = sorted({int(e[1]) for e in stated if e[2] is None and e[1] is not None})
    texts = [r[0] for mid in mids for r in run("SELECT text FROM messages WHERE id = %s", (mid,))]
    texts += [r[0] for sid in sids for r in run(
        "SELECT text FROM messages WHERE session_id = %s ORDER BY seq", (sid,))]
    width = 2 * len(key.split()) + 2  # a symbol alone is a word of no key ("C + +")
    out: list[str] = []
    for text in map(str, texts):
        if key not in _before_symbols(text) and key not in name_key(text):
            continue  # no span of it can have the key: not read span by span
        words = text.split()
        for i in range(len(words)):
            for j in range(i + 1, min(len(words), i + width) + 1):
                span = " ".join(words[i:j])
                if span not in out and _fits(span, key):
                    out.append(span)
    return out


def rekey_symbols(db: Any) -> None:
    """Write every name and value key again now that a symbol is part of them (migration
    ``name_symbols``, session 31; see the module)."""
    _rekey_relation_ends(_runner(db))
    rekey_names(db)
    rekey_values(db)


def _before_symbols(name: str) -> str:
    """``name_key`` before session 31 (every symbol a space): the keys an older database
    holds."""
    return _fold_accents(normalize_name(name))


def _rekey_relation_ends(run: Callable[..., Any]) -> None:
    """A relation's ends written with the key of the name they were made of: a relation
    keeps only its ends' keys (``c`` for "C++" and for "C#"), so they are read back from a
    fact of the scope with the relation's predicate whose subject and value had those keys
    (the same turn's first, then the newest), unless a fact states the relation with
    today's keys already; else each end from the entity of the scope that had its key
    ("C++", the node "C#" was merged into); else it is re-keyed as it is (``rekey_names``)."""
    nodes = {(scope, norm): name_key(name) or norm
             for scope, name, norm in run("SELECT scope, name, norm_name FROM entities").fetchall()}
    stated: dict[tuple[str, str, str, str], list[tuple[float, Any, str, str]]] = {}
    now: set[tuple[str, str, str, str]] = set()
    for scope, subject, nsub, pred, obj, at, mid in run(
            "SELECT scope, subject, norm_subject, norm_predicate, object, at, message_id FROM facts"
            " WHERE object <> ''").fetchall():
        ends = (subject_key(subject), name_key(obj))
        now.add((scope, ends[0], pred, ends[1]))
        for src in {nsub, _before_symbols(subject)}:
            stated.setdefault((scope, src, pred, _before_symbols(obj)), []).append(
                (float(at), mid, *ends))
    for rid, scope, src, rel, dst, mid in run(
            "SELECT id, scope, source_entity, relation, target_entity, message_id FROM relations"
            " ORDER BY id").fetchall():
        facts = [] if (scope, src, rel, dst) in now else sorted(
            stated.get((scope, src, rel, dst), []), key=lambda f: (mid is not None and f[1] == mid, f[0]))
        new = facts[-1][2:] if facts else (nodes.get((scope, src), src), nodes.get((scope, dst), dst))
        if new != (src, dst):
            run("UPDATE relations SET source_entity = %s, target_entity = %s WHERE id = %s", (*new, rid))


def _rekey_facts(run: Callable[..., Any], now: float) -> None:
    keys: dict[tuple[str, str, str], set[str]] = {}
    for fid, scope, subject, nsub, pred in run(
            "SELECT id, scope, subject, norm_subject, norm_predicate FROM facts ORDER BY id").fetchall():
        key = subject_key(subject) or nsub
        if key != nsub:
            run("UPDATE facts SET norm_subject = %s WHERE id = %s", (key, fid))
        keys.setdefault((scope, key, pred), set()).add(nsub)
    for (scope, key, pred), olds in sorted(keys.items()):
        if len(olds) > 1:
            _merge_facts(run, scope, key, pred, now)


def rekey_values(db: Any) -> None:
    """Write every fact's value key again with ``normalize_value`` and merge the current
    values that fall together (migrations ``value_keys``, session 28, and ``value_symbols``,
    session 30)."""
    run = _runner(db)
    now = time.time()
    changed: set[tuple[str, str]] = set()
    for fid, scope, nsub, obj, nobj in run(
            "SELECT id, scope, norm_subject, object, norm_object FROM facts ORDER BY id").fetchall():
        key = normalize_value(obj) if obj else ""  # an ending of any value keeps ""
        if key != nobj:
            run("UPDATE facts SET norm_object = %s WHERE id = %s", (key, fid))
            changed.add((scope, nsub))
    for scope, nsub in sorted(changed):
        # every predicate of the subject: an ending's key reaches the predicates of its family
        for (pred,) in run("SELECT DISTINCT norm_predicate FROM facts WHERE scope = %s AND norm_subject = %s"
                           " ORDER BY norm_predicate", (scope, nsub)).fetchall():
            _merge_facts(run, scope, nsub, pred, now, by_value=True)


def _merge_facts(run: Callable[..., Any], scope: str, key: str, pred: str, now: float, *,
                 by_value: bool = False) -> None:
    """Settle one key's values after two spellings fell together (see the module).
    ``by_value``: only values of one key compete (two spellings of a value), whatever the
    predicate."""
    from memlane.config import FactsConfig
    from memlane.index.ending import ends, families_of
    from memlane.index.facts import is_single_valued

    cols = "id, at, status, norm_object, session_id, subject, predicate, object"
    rows = {int(r[0]): r for r in run(
        f"SELECT {cols} FROM facts WHERE scope = %s AND norm_subject = %s AND norm_predicate = %s"
        " ORDER BY at, id", (scope, key, pred)).fetchall()}
    current = [i for i, r in rows.items() if r[2] == "current"]
    stated = {i: float(rows[i][1]) for i in current}
    for fid, at in run("SELECT fact_id, at FROM fact_events WHERE kind = 'reinforced' AND fact_id IN"
                       " (SELECT id FROM facts WHERE scope = %s AND norm_subject = %s AND norm_predicate = %s"
                       " AND status = 'current')", (scope, key, pred)).fetchall():
        stated[int(fid)] = max(stated[int(fid)], float(at))

    def supersede(old: int, new: int, at: float, session_id: Any) -> None:
        r = rows[old]
        run("UPDATE facts SET status = 'superseded', superseded_by = %s WHERE id = %s", (new, old))
        run("UPDATE items SET status = 'superseded', updated_at = %s WHERE status = 'active'"
            " AND id = (SELECT item_id FROM facts WHERE id = %s)", (now, old))
        run("INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object, other_id,"
            " session_id, at) VALUES (%s, 'superseded', %s, %s, %s, %s, %s, %s, %s)",
            (old, scope, r[5], r[6], r[7], new, session_id, at))

    rivals: dict[str, list[int]] = {}
    single = not by_value and is_single_valued(pred, FactsConfig())
    for fid in current:
        rivals.setdefault("" if single else rows[fid][3], []).append(fid)
    kept = []
    for group in rivals.values():
        winner = max(group, key=lambda i: (stated[i], i))
        kept.append(winner)
        for fid in sorted(group, key=lambda i: (stated[i], i)):
            if fid != winner:
                supersede(fid, winner, stated[winner], rows[winner][4])
    marks = ", ".join(["%s"] * len(families_of(pred)))
    endings = run(f"SELECT id, at, norm_object, session_id FROM facts WHERE scope = %s AND norm_subject = %s"
                  f" AND norm_predicate IN ({marks}) AND status = 'ended' ORDER BY at, id",
                  (scope, key, *families_of(pred))).fetchall()
    for fid in sorted(kept):
        later = [(float(at), int(eid), sid) for eid, at, norm, sid in endings
                 if float(at) > stated[fid] and ends(norm, rows[fid][3])]
        if later:  # an ending said under the other spelling after this value
            at, eid, sid = max(later)
            supersede(fid, eid, at, sid)


def _rekey_entities(run: Callable[..., Any]) -> None:
    groups: dict[tuple[str, str], list[Any]] = {}
    for r in run("SELECT id, scope, name, norm_name, type, context, mentions, first_seen, last_seen"
                 " FROM entities ORDER BY first_seen, id").fetchall():
        groups.setdefault((r[1], name_key(r[2]) or r[3]), []).append(r)
    changed = []
    for (_scope, key), rows in sorted(groups.items()):
        keep, rest = rows[0], rows[1:]
        for r in rest:
            run("DELETE FROM entities WHERE id = %s", (r[0],))
        if rest or keep[3] != key:
            # a key taken by another row until it is written itself: every changed row first
            # takes a key no name has (a control character and its id: a key drops control
            # characters, and since session 31 may hold "#"), then its own
            run("UPDATE entities SET norm_name = %s WHERE id = %s", (f"\x01{keep[0]}", keep[0]))
            changed.append((keep, rows, key))
    for keep, rows, key in changed:
        type_ = keep[4] if keep[4] not in ("name", "thing") else next(
            (r[4] for r in rows if r[4] not in ("name", "thing")), keep[4])
        last = max(rows, key=lambda r: (float(r[8]), int(r[0])))
        run("UPDATE entities SET norm_name = %s, mentions = %s, first_seen = %s, last_seen = %s,"
            " type = %s, context = %s WHERE id = %s",
            (key, sum(int(r[6]) for r in rows), min(float(r[7]) for r in rows), float(last[8]),
             type_, last[5], keep[0]))


STEPS: dict[str, Callable[[Any], None]] = {"name_keys": rekey_names, "value_keys": rekey_values,
                                           "value_symbols": rekey_values, "name_symbols": rekey_symbols,
                                           "mark_subjects": read_back_marks}
"""The Python step of a migration, by the name after its number."""


def step_of(migration: str) -> Callable[[Any], None] | None:
    """The Python step of migration ``migration`` (``0015_name_keys``), if it has one."""
    return STEPS.get(migration.partition("_")[2])
