"""The lower-case names of well-known software packages that an English word spells but
no module of Python's standard library uses: the 1000 most downloaded packages of PyPI (a
snapshot of its ranking) that are words of Debian's English word lists (wamerican-large,
wbritish-large) and no word of the standard library's sources (its tests left out), which
is the vocabulary of code ("build", "retry", "schema", "requests", "six" are left out;
"pandas", "tenacity", "celery" stay). Written by ``tools/software_names.py``
(docs/summary-eval.md, session 19); not from the labelled sets."""

SOFTWARE_WORDS = frozenset((
    "cryptography pandas pillow greenlet tenacity wrapt hatchling ruff docker keyring tabulate flask "
    "dill alembic blinker mako cycler transformers marshmallow anthropic babel datasets tornado "
    "markdown playwright watchdog torch narwhals poetry pendulum lark shapely bleach faker triton ray "
    "humanize selenium celery astroid inflection vine synchronicity billiard cohere ply tox thrift "
    "peewee envier hypothesis patsy ninja stripe twine stevedore agate hyperlink holidays griffe "
    "weasel alabaster inflect leather bandit daff watchtower spacy catalogue confection pathos "
).split())
"""71 names, most downloaded first."""
