"""Over HTTP a scope is the one spelling the library stores (session 22): a key made for
"café" holds it typed either way (NFC or NFD), and a scope with an invisible character is a
400 naming ``scope``, never a second scope that looks the same."""

from __future__ import annotations

import unicodedata

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")


def test_a_scope_typed_in_either_normal_form_is_one_scope(service):
    key = service.key(NFD, name="cafe")  # the key typed on a Mac
    with service.client(key) as c:
        for typed in (NFC, NFD):
            r = c.post("/v1/messages", json={"scope": typed, "text": f"typed {len(typed)}"})
            assert r.status_code == 200, r.text
            assert r.json()["messages"][0]["scope"] == NFC
        for bad in (NFC + "\u200b", "caf\u00ad\u00e9", "\u202e" + NFC):
            r = c.post("/v1/messages", json={"scope": bad, "text": "planted"})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["field"] == "scope"
        r = c.get("/v1/sessions", params={"scope": NFD})
        assert r.status_code == 200 and len(r.json()["sessions"]) == 1
    (s,) = service.mem.sessions(scope=NFC)
    assert s.message_count == 2


def test_a_key_holds_any_scope_a_scope_may_be(service):
    """A scope may hold a space and 256 characters; a key's pattern could hold neither (at
    most 200 characters, no spaces), so no key could be made for such a tenant."""
    long = "tenant-" + "x" * 249
    for scope in ("Acme Corp", long):
        key = service.key(scope, name="one")
        with service.client(key) as c:
            r = c.post("/v1/messages", json={"scope": scope, "text": "hello"})
            assert r.status_code == 200, r.text
            other = c.post("/v1/messages", json={"scope": "Acme", "text": "planted"})
            assert other.status_code == 403
