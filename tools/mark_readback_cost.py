"""What migration ``mark_subjects``' step (session 32; docs/facts.md) costs on a SQLite file.

    PYTHONPATH=src python tools/mark_readback_cost.py [N]

``N`` (1000) sessions in one scope, each a turn of 16 words stating a fact ("The C++ team7
has 7 people and …", every other one a name without a symbol) and a reply; each fact
forgotten (``forget_fact``) and its marks turned into an older memlane's (the key of before
session 31, no subject as written); then ``read_back_marks`` twice, each in one transaction:
the first reads every mark back from its turn, the second finds nothing to do. Prints CPU
and wall seconds of each and (marks, marks with a subject as written)."""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

from memlane.index.normalize import _fold_accents, normalize_name
from memlane.store.rekey import read_back_marks
from memlane.testing import memory

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
mem = memory(tempfile.mkdtemp() + "/c.db")
t0 = datetime(2024, 1, 1, tzinfo=UTC)
s = mem.store
for i in range(n):
    at = t0 + timedelta(hours=i)
    name = f"C++ team{i}" if i % 2 else f"Zq{i} group"
    for k, text in enumerate([f"The {name} has {i} people and a long sentence about many other things today.", "Noted."]):
        mem.add_message("u", "user" if k == 0 else "assistant", text, at=at + timedelta(minutes=k))
    sess = mem.close_session("u")
    turn = mem.messages(sess.id)[0]
    fid = mem.add_fact(name, "size", str(i), scope="u", at=turn.at).fact_id
    with s.atomic():
        s._run("UPDATE facts SET session_id = %s, message_id = %s WHERE id = %s", (sess.id, turn.id, fid))
        s._run("UPDATE fact_events SET session_id = %s, message_id = %s WHERE fact_id = %s", (sess.id, turn.id, fid))
    mem.forget_fact(fid)
with s.atomic():
    for eid, w in s._run("SELECT id, written_subject FROM fact_events WHERE object = ''").fetchall():
        s._run("UPDATE fact_events SET subject = %s, written_subject = NULL WHERE id = %s", (_fold_accents(normalize_name(w)), eid))
marks = s._run("SELECT count(*) FROM fact_events WHERE object = ''").fetchone()[0]
for r in range(2):
    began = time.process_time(); wall = time.perf_counter()
    with s.atomic():
        read_back_marks(s.db)
    print(f"run {r + 1}: {n} forgotten facts, {marks} marks: {time.process_time() - began:.2f} s CPU, {time.perf_counter() - wall:.2f} s wall")
print(s._run("SELECT count(*), count(written_subject) FROM fact_events WHERE object = ''").fetchone())
mem.close()
