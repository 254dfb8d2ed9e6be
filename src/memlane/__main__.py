"""``python -m memlane``: the ``memlane`` command (for an environment whose scripts folder
is not on ``PATH``)."""

from memlane.serve.cli import main

main()
