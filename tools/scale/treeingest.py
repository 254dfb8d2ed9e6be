# Scripts behind docs/scaling.md (run with the project venv; it starts its own test PostgreSQL).
"""Run another tree's own ``memlane bench ingest`` on SQLite and on a fresh PostgreSQL database.

    python tools/scale/treeingest.py TREE [N]

TREE is an exported copy of a commit (``git archive COMMIT src | tar -x -C TREE``); its
code runs with ``PYTHONPATH=TREE/src`` (its own CLI, ingest and store), against a database
of the test server this tree starts, so old commits that had no ``pgbench.py`` can be
measured with the same command as main (``TREE`` = this checkout). N defaults to 10000.
Prints the bench's JSON.
"""
import os, subprocess, sys

from memlane.testing.postgres import create_database, postgres_server

tree, n = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "10000")
run_cli = "import sys; from memlane.serve.cli import main; sys.argv[0] = 'memlane'; main()"
with postgres_server() as url:
    db = create_database(url, "tree_bench", replace=True)
    out = subprocess.run([sys.executable, "-c", run_cli, "bench", "ingest", "--items", n,
                          "--embedder", "static", "--db", db, "--json"],
                         env=dict(os.environ, PYTHONPATH=os.path.join(tree, "src")),
                         capture_output=True, text=True, check=False)
    sys.stderr.write(out.stderr)
    print(out.stdout[out.stdout.find("["):] if "[" in out.stdout else out.stdout)
    sys.exit(out.returncode)
