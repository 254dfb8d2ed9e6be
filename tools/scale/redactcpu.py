# Scripts behind docs/hardening.md (run with the project venv).
"""CPU time of one ``redact`` over the example conversations' texts (20,000 calls, best of
three), the part of ``add_message`` that grows with the secret formats.

    python tools/scale/redactcpu.py LABEL

Compare two trees with ``PYTHONPATH=OTHER/src python tools/scale/redactcpu.py other``.
"""
import json, sys, time

from memlane.ingest.redact import redact
from memlane.testing import example_files

label = sys.argv[1] if len(sys.argv) > 1 else "this tree"
texts = [json.loads(line)["text"] for f in example_files() for line in open(f) if line.strip()]
texts = (texts * (20000 // len(texts) + 1))[:20000]
runs = []
for _ in range(3):
    c = time.process_time()
    for t in texts:
        redact(t)
    runs.append((time.process_time() - c) / len(texts) * 1e6)
print(f"{label}: CPU {min(runs):.1f} us a redact (runs {', '.join(f'{r:.1f}' for r in runs)})")
