"""``python -m memlane``: the ``memlane`` command, for an environment whose scripts folder is
not on ``PATH`` (it said "No module named memlane.__main__")."""

from memlane.serve.cli import console_main

if __name__ == "__main__":
    console_main()
