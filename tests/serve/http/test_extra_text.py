"""``extra`` (POST /v1/items, memory.upsert, MCP remember) holds text a response can carry:
a lone surrogate anywhere in it, key or value, is refused with a 400 naming ``extra``.

Found by driving the service: ``{"extra": {"k": "\\ud800"}}`` (JSON's escape of a lone
surrogate) passed the check, because the check read ``json.dumps`` of the dict, whose
ASCII escapes hide the surrogate. The item was stored, the answer was a 500, and every
later search or pack of the scope that reached the item failed (the connection reset):
one request poisoned the tenant's reads. A NUL in a key or value is stored on both
stores (PostgreSQL's jsonb cannot hold one) and read back."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.testing import memory


def _post_raw(c, path: str, body: str):
    return c.post(path, content=body.encode("ascii"), headers={"content-type": "application/json"})


def _count(mem) -> int:
    (n,) = mem.store._run("SELECT count(*) FROM items").fetchone()
    return int(n)


@pytest.mark.parametrize("extra", [
    '{"k": "\\ud800"}',                 # a value
    '{"a\\udfff": "v"}',                # a key
    '{"k": ["ok", {"deep": "x\\udbff"}]}',  # nested
])
def test_a_lone_surrogate_in_extra_is_a_400_and_nothing_is_stored(service, extra):
    key = service.key("team-*")
    with service.client(key) as c:
        for path, body in (
                ("/v1/items", f'{{"text": "a note", "kind": "note", "scope": "team-a", '
                              f'"extra": {extra}}}'),
                ("/actions", f'{{"kind": "memory.upsert", "input": {{"text": "a note", '
                             f'"kind": "note", "scope": "team-a", "extra": {extra}}}}}')):
            r = _post_raw(c, path, body)
            assert r.status_code == 400, r.text
            err = r.json()["error"]
            assert err["field"] in ("extra", "input.extra"), err
            assert "surrogate" in err["message"]
        assert _count(service.mem) == 0
        # the scope's reads still answer
        r = c.post("/v1/search", json={"query": "a note", "scope": "team-a"})
        assert r.status_code == 200, r.text


def test_a_nul_in_extra_is_stored_and_read_back(service):
    key = service.key("team-*")
    with service.client(key) as c:
        r = _post_raw(c, "/v1/items", '{"text": "a note", "kind": "note", "scope": "team-a", '
                                      '"extra": {"k\\u0000": "v\\u0000w"}}')
        assert r.status_code == 200, r.text
        assert r.json()["item"]["extra"] == {"k\u0000": "v\u0000w"}
        got = c.post("/v1/search", json={"query": "a note", "scope": "team-a"})
        assert got.status_code == 200, got.text
        assert got.json()["hits"][0]["item"]["extra"] == {"k\u0000": "v\u0000w"}


@settings(max_examples=60, deadline=None)
@given(extra=st.dictionaries(st.text(max_size=5),
                             st.one_of(st.text(max_size=5), st.lists(st.text(max_size=3),
                                                                     max_size=3)),
                             max_size=3))
def test_upsert_extra_is_refused_or_read_back_as_json(tmp_path_factory, extra):
    """Property: any dict of text (surrogates included) given as ``extra`` is either
    refused with a ValidationError naming extra, or stored and read back as JSON that
    encodes to UTF-8 (what every answer of the service is)."""
    mem = memory(tmp_path_factory.mktemp("x") / "m.db")
    try:
        try:
            item_id = mem.upsert("a note", scope="s", extra=extra)
        except ValidationError as e:
            assert e.field == "extra"
            return
        got = mem.item(item_id).extra
        json.dumps(got, ensure_ascii=False).encode("utf-8")
        assert mem.search("a note", scope="s")
    finally:
        mem.close()
