"""Column lists and row converters shared by the PostgreSQL store's modules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from memlane.store.rows import (  # noqa: F401  (the store's modules import them from here)
    FACT_COLS,
    ITEM_COLS,
    MESSAGE_COLS,
    SESSION_COLS,
    dt,
    fact,
    message,
    session,
)
from memlane.types import Item, StoredEntity

ENTITY_COLS = "id, scope, name, type, context, mentions, first_seen, last_seen"


def item(r: Sequence[Any]) -> Item:
    return Item(
        id=r[0], kind=r[1], text=r[2], at=dt(r[3]), scope=r[4], agent=r[5], project=r[6],
        session_id=r[7], message_id=r[8], seq=r[9], role=r[10],
        keywords=tuple(json.loads(r[11])), entities=tuple(json.loads(r[12])), source=r[13],
        durability=r[14], lane=r[15], trust=r[16], privacy=r[17], ttl_seconds=r[18],
        parents=tuple(json.loads(r[19])), children=tuple(json.loads(r[20])), status=r[21],
        dedupe_hash=r[22], extra=json.loads(r[23]), pinned=bool(r[24]),
    )


def entity(r: Sequence[Any]) -> StoredEntity:
    return StoredEntity(r[0], r[1], r[2], r[3], r[4], r[5], dt(r[6]), dt(r[7]))


def vec(v: Any) -> np.ndarray:
    return np.asarray(v, dtype=np.float32)
