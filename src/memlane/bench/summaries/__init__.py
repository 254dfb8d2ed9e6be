"""The project's own labelled set of conversations and the scorer of summaries against it.

``dev.json`` (tuned on) and ``heldout.json`` (never tuned on) hold short conversations
written for memlane — team decisions, personal facts, plans, support threads, coding
sessions, small talk — each with the summary a careful person would write. See
docs/summary-eval.md for the format and the matching rule, and
``memlane bench summaries`` for the command.
"""

from memlane.bench.summaries.run import (
    FIELDS,
    Conversation,
    EvalReport,
    canned_answer,
    evaluate,
    load_set,
    messages_of,
)

__all__ = ["FIELDS", "Conversation", "EvalReport", "canned_answer", "evaluate", "load_set",
           "messages_of"]
