"""What migration ``mark_subjects``' step costs for marks read back from their scope's names.

    PYTHONPATH=src python tools/mark_readback_names.py [MARKS] [NODES]

A SQLite file with one scope of ``NODES`` (2000) graph nodes and the subject "C++ team", and
``MARKS`` (200) forgotten facts' marks as a memlane before session 31 left them (keyed
``c team``, no turn, no subject as written: their turns say no name, as a forgotten fact of
the user's "I ..." does not), then ``read_back_marks`` in one transaction. Prints its CPU
seconds and (marks, marks with a subject as written). Session 32 keyed every node again
for every mark (docs/hardening.md, "Session 33: rev33")."""

from __future__ import annotations

import sys
import tempfile
import time

from memlane.store.rekey import read_back_marks
from memlane.testing import memory

marks = int(sys.argv[1]) if len(sys.argv) > 1 else 200
nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
mem = memory(tempfile.mkdtemp() + "/m.db")
s = mem.store
mem.add_fact("C++ team", "lead", "Ana", scope="u")
with s.atomic():
    for k in range(nodes):
        s._run("INSERT INTO entities (scope, name, norm_name, type, context, mentions, first_seen,"
               " last_seen) VALUES ('u', %s, %s, 'thing', '', 1, 0, 0)",
               (f"Project Atlas {k}", f"project atlas {k}"))
    for i in range(marks):
        s._run("INSERT INTO fact_events (fact_id, kind, scope, subject, predicate, object, at)"
               " VALUES (%s, 'forgotten', 'u', 'c team', 'size', '', %s)", (10**6 + i, 1.0e9 + i))
began = time.process_time()
with s.atomic():
    read_back_marks(s.db)
print(f"{marks} marks, {nodes} nodes: {time.process_time() - began:.2f} s CPU")
print(s._run("SELECT count(*), count(written_subject) FROM fact_events WHERE object = ''").fetchone())
mem.close()
