"""``memlane.store.rows.item`` builds an ``Item`` by setting its slots: the same object the
dataclass's own constructor builds from the row's values, and just as frozen."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import pytest

from memlane.store.rows import item
from memlane.types import Item


def _row(**over):
    base = dict(id=7, kind="turn", text="hello", at=1.7e9, scope="s", agent=None, project="p",
                session_id=3, message_id=9, seq=2, role="user", keywords="[]", entities="[]",
                source="observed", durability="long", lane="episodic", trust=1.0,
                privacy="private", ttl_seconds=None, parents="[]", children="[]",
                status="active", dedupe_hash=None, extra="{}", pinned=0)
    base.update(over)
    return tuple(base.values())


def test_item_equals_the_constructors():
    rows = [_row(), _row(keywords='["a", "b"]', entities='["Ann"]', parents="[4, 5]",
                         children="[6]", extra='{"speaker": "Ann", "n": 1}', pinned=1,
                         ttl_seconds=60, dedupe_hash="ab", role=None, session_id=None)]
    for r in rows:
        got = item(r)
        want = Item(r[0], r[1], r[2], datetime.fromtimestamp(r[3], UTC), *r[4:11],
                    tuple(json.loads(r[11])), tuple(json.loads(r[12])),
                    *r[13:19], tuple(json.loads(r[19])),
                    tuple(json.loads(r[20])), r[21], r[22],
                    json.loads(r[23]), bool(r[24]))
        assert type(got) is Item and got == want
        assert dataclasses.asdict(got) == dataclasses.asdict(want)
        assert repr(got) == repr(want)
        with pytest.raises(dataclasses.FrozenInstanceError):
            got.text = "changed"  # type: ignore[misc]
        assert dataclasses.replace(got, text="x").text == "x"
