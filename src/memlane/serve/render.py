"""Plain-data views of memlane objects, for ``--json`` output with stable keys."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from typing import Any

from memlane.types import Hit, Item, Message, Session

__all__ = ["dumps", "hit_dict", "item_dict", "message_dict", "session_dict", "to_plain"]


def to_plain(obj: Any) -> Any:
    if isinstance(obj, datetime):
        return obj.isoformat().replace("+00:00", "Z")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_plain(v) for v in obj]
    return obj


def session_dict(s: Session) -> dict[str, Any]:
    return to_plain(s)


def message_dict(m: Message) -> dict[str, Any]:
    return to_plain(m)


def item_dict(i: Item) -> dict[str, Any]:
    return to_plain(i)


def hit_dict(h: Hit) -> dict[str, Any]:
    return {
        "score": h.score,
        "scores": h.scores,
        "item": item_dict(h.item),
        "session": session_dict(h.session) if h.session else None,
    }


def dumps(obj: Any) -> str:
    return json.dumps(to_plain(obj), ensure_ascii=False, indent=2, sort_keys=False)
