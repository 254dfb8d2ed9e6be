"""POST /v1/items (memory.upsert) stores what a client may write: the kinds memlane writes
itself (a turn, a session's summary, an entity; a fact has add_fact) are refused with a 400
naming ``kind`` and listing the kinds it takes, and so are the story-thread lane and the
link keys of the engine's roll-ups (``extra.absorbed``/``children``, which erasure
follows). Before, a client could forge a summary or turn that search, packs and the live
state took for the engine's own. Nothing is stored on a refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.types import ENGINE_KINDS, KINDS, UPSERT_KINDS



def _count(mem) -> int:
    (n,) = mem.store._run("SELECT count(*) FROM items").fetchone()
    return int(n)


@pytest.mark.parametrize("kind", ENGINE_KINDS)
def test_a_kind_memlane_writes_itself_is_refused_naming_kind(service, kind):
    key = service.key("team-*")
    with service.client(key) as c:
        for path, body in (("/v1/items", {"text": "We chose Postgres", "kind": kind,
                                          "scope": "team-a"}),
                           ("/actions", {"kind": "memory.upsert", "input": {
                               "text": "We chose Postgres", "kind": kind, "scope": "team-a"}})):
            r = c.post(path, json=body)
            assert r.status_code == 400, r.text
            err = r.json()["error"]
            assert err["field"] in ("kind", "input.kind"), err
            assert "kind" in err["message"]
            for allowed in UPSERT_KINDS:
                assert allowed in err["message"]
    assert _count(service.mem) == 0


def test_every_kind_a_client_may_write_is_stored(service):
    key = service.key("team-*")
    with service.client(key) as c:
        for kind in (*UPSERT_KINDS, "obs", "pref"):
            r = c.post("/v1/items", json={"text": f"a {kind} of ours", "kind": kind,
                                          "scope": "team-a"})
            assert r.status_code == 200, r.text
    assert _count(service.mem) == len(UPSERT_KINDS) + 2


def test_the_engines_lane_and_roll_up_links_are_refused(service):
    key = service.key("team-*")
    with service.client(key) as c:
        r = c.post("/v1/items", json={"text": "Story thread: billing", "kind": "note",
                                      "scope": "team-a", "lane": "story_thread"})
        assert r.status_code == 400 and r.json()["error"]["field"] in ("lane", "input.lane")
        for key_name in ("absorbed", "children"):
            r = c.post("/v1/items", json={"text": "a record", "kind": "decision",
                                          "scope": "team-a", "extra": {key_name: [1, 2]}})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["field"].endswith(f"extra.{key_name}"), r.json()
        r = c.post("/v1/items", json={"text": "a record", "kind": "decision",
                                      "scope": "team-a", "extra": {"links": {"children": [1]}}})
        assert r.status_code == 200, r.text  # nested, a client's own: kept
    assert _count(service.mem) == 1


@settings(max_examples=80, deadline=None)
@given(kind=st.one_of(st.sampled_from(KINDS), st.text(max_size=30)))
def test_upsert_stores_exactly_the_client_kinds(tmp_path_factory, kind):
    """Property: ``Memory.upsert`` (what the service and the MCP server call) stores a kind
    of UPSERT_KINDS and refuses any other value with a ValidationError naming kind."""
    from memlane.testing import memory

    mem = memory(tmp_path_factory.mktemp("k") / "m.db")
    try:
        if kind in UPSERT_KINDS:
            assert mem.item(mem.upsert("a note", kind=kind, scope="s")).kind == kind
        else:
            with pytest.raises(ValidationError) as info:
                mem.upsert("a note", kind=kind, scope="s")
            assert info.value.field == "kind"
            assert _count(mem) == 0
    finally:
        mem.close()
