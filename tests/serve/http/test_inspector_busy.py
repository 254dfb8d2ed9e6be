"""The inspector of a busy multi-tenant service: a key sees its own scopes and packs
however many other tenants were active since.

Found signing in with a one-scope key on a service of 600 scopes: the pages filtered the
500 most recent scopes of all (and the 200 newest packs of all) by the key, so a tenant
whose scope was not among them saw no scope, and one whose packs were older than 200 other
packs saw none. A key's patterns now choose its scopes and packs in the database."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.keys import scope_matches


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_a_tenant_sees_its_scope_and_packs_behind_600_others(service):
    mem = service.mem
    mem.add_message("user-7", "user", "I renewed my passport in March",
                    at="2024-01-01T10:00:00Z")
    mem.close_session("user-7")
    mem.index()
    mine = mem.pack("passport", 200, scope="user-7").id
    mem.add_messages([{"scope": f"other-{i:03d}", "role": "user", "text": f"hello {i}",
                       "at": "2024-06-01T10:00:00Z"} for i in range(600)])
    for i in range(205):
        mem.pack("hello", 100, scope=f"other-{i:03d}")
    key = service.key("user-?")
    cookies = {"memlane_key": key}
    import httpx

    with httpx.Client(base_url=service.url, cookies=cookies, timeout=60) as c:
        page = c.get("/ui/")
        assert page.status_code == 200, page.text
        assert ">user-7</a>" in page.text and "other-" not in page.text
        packs = c.get("/ui/packs")
        assert packs.status_code == 200
        assert f"/ui/packs/{mine}" in packs.text and "other-" not in packs.text
        assert c.get("/ui/facts").status_code == 200


TRICKY = ["user-1", "user-12", "User-1", "user_1", "user%1", "user\\1", "user[1]", "user*",
          "user?", "a.b", "a-b", "ab", "team-%", "team-x", "é-1", "ß"]


@pytest.fixture
def tricky(store):
    with store.atomic():
        for i, scope in enumerate(TRICKY):
            sid = store.create_session(scope, 1000.0 + i, None, None)
            store.append_message(sid, scope, 1, "user", "hi", 1000.0 + i, speaker=None,
                                 ext_id=None, agent=None, project=None, redactions=0)
    return store


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(patterns=st.lists(st.text(st.sampled_from(list("user-1_%\\[]*?ab.éUß")), min_size=1,
                                 max_size=7), min_size=1, max_size=3))
def test_list_scopes_by_patterns_is_scope_matches(tricky, patterns):
    """Property (both stores): the database's choice of scopes by key patterns is
    ``scope_matches``' (case-sensitive, ``*`` and ``?`` only; LIKE's ``%``, ``_``, ``\\``
    and GLOB's ``[`` are themselves)."""
    got = {s["scope"] for s in tricky.list_scopes(patterns=patterns)}
    assert got == {s for s in TRICKY if any(scope_matches(s, p) for p in patterns)}
