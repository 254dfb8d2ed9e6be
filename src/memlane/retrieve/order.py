"""Total orders for ranking: equal scores are broken by the item's id.

Every ordering of retrieval and packing that decides what a user sees is total: two
items at the same score come out in the same order whatever order they came in. A sort
on the score alone is stable, so it kept a tie in the order rows came from the database,
and that differs between stores (and may between two runs of one): a turn and a summary
of the same session at 0.21 each were packed in opposite orders on SQLite and on
PostgreSQL (session 36). The tie-break is the item's id, smaller first: both stores hold
the same ids for the same rows (``memlane copy`` keeps them), an id never changes, and the
smaller one is the item written first (a session's turns before its summary, which the
index writes after them). A NaN score sorts after every number. A scored hit that a floor
or a cap set to a score other hits share has a key between the two: the score it earned
on its own (``by_score``, session 37).

Scores are compared exactly: the scores that tie are exactly equal on both stores,
because the one signal two stores compute apart, a vector's cosine, is kept to
``COSINE_DIGITS`` decimals before it enters a score (``search._steady``).
"""

from __future__ import annotations

import math
from typing import Any


def _descending(value: float) -> float:
    """``value`` as a key of an ascending sort that puts higher first, a NaN last."""
    return -value if value == value else math.inf


def best_first(score: float, item_id: int) -> tuple[float, int]:
    """The sort key of an item at ``score``: higher first, equal scores by smaller id,
    a NaN after every number."""
    return (_descending(score), item_id)


def by_relevance(c: Any) -> tuple[float, int]:
    """The sort key of a search candidate (``.relevance``, ``.id``), best first."""
    return best_first(c.relevance, c.id)


def by_score(x: Any) -> tuple[float, float, int]:
    """The sort key of a scored hit (``.score``, ``.id``, and ``.earned`` when it has one),
    best first; equal scores by what each hit earned on its own, then by id.

    A floor or a cap sets many hits to one score: a session's opener and the turn that
    continues its best hit are both lifted to 0.9 × that hit, every hit of a session a
    gathering question added is capped under the shortlisted sessions' best. ``earned`` is
    the score the hit's own signals gave it before that (``search._Scored``); among the
    hits at one score, the one with more evidence of its own comes first, and a hit no
    floor raised (its score all earned) before one a floor raised to the same score. The
    earned score is the same sum of the same signals as every score, so it is as alike on
    two stores as the scores themselves; a hit without one keeps its score as both keys.
    """
    earned = getattr(x, "earned", None)
    return (_descending(x.score), _descending(x.score if earned is None else earned), x.id)


def session_order(key: Any) -> tuple[int, int]:
    """A total order of session keys: sessions by id, then the items outside any session
    (``("item", id)``) by id."""
    return (1, key[1]) if isinstance(key, tuple) else (0, key)


def by_session(s: Any) -> tuple[float, tuple[int, int]]:
    """The sort key of a ranked session (``.score``, ``.key``), best first, equal scores
    by ``session_order``."""
    return (best_first(s.score, 0)[0], session_order(s.key))
