"""Every surface says why a search or a pack is empty (session 21).

``Pack.notice`` and the search's reason (``render.nothing_note``) were shown by the CLI and
MCP only: ``POST /v1/search`` answered ``{"hits": []}`` with no word (where ``memlane
search --json`` gives ``"notice"``), the Python client had nothing to read, the inspector's
search page said "Nothing matched." for a query of no words or a scope with no memories,
and its pack page showed an empty box for a budget no candidate fits.
"""

from __future__ import annotations

import re
from html import unescape

from memlane.client import Client


def _form(html: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert m, f"no {name} field"
    return unescape(m.group(1))


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_http_search_and_pack_say_why_they_are_empty(inspector) -> None:
    key = inspector.key()
    with inspector.client() as c:
        head = {"Authorization": f"Bearer {key}"}
        empty = c.post("/v1/search", json={"query": "?!", "scope": "alice-assistant"}, headers=head)
        assert empty.status_code == 200 and empty.json()["hits"] == []
        assert "has no words to search for" in empty.json()["notice"]
        nobody = c.post("/v1/search", json={"query": "cat", "scope": "nobody-here"}, headers=head)
        assert nobody.json()["notice"] == "scope 'nobody-here' has no memories"
        found = c.post("/v1/search", json={"query": "cat", "scope": "alice-assistant"}, headers=head)
        assert found.json()["hits"] and found.json()["notice"] is None
        tight = c.post("/v1/pack", json={"query": "what about my cat?", "budget": 16,
                                         "scope": "alice-assistant"}, headers=head).json()
        assert tight["text"] == "" and "ask for a budget of at least" in tight["notice"]
        replay = c.get(f"/v1/packs/{tight['id']}", headers=head).json()
        assert replay["notice"] == tight["notice"]
    client = Client(inspector.url, key)
    try:
        assert client.search("?!", scope="alice-assistant") == []
        assert client.last_notice and "has no words to search for" in client.last_notice
        assert client.search("cat", scope="alice-assistant") and client.last_notice is None
    finally:
        client.close()


def test_inspector_pages_say_why_they_are_empty(inspector) -> None:
    with inspector.client() as c:
        page = c.get("/ui/search", params={"q": "?!", "scope": "alice-assistant"}).text
        assert "has no words to search for" in _text(page)
        page = c.get("/ui/packs").text
        r = c.post("/ui/packs", data={"q": "what about my cat?", "scope": "alice-assistant",
                                      "budget": "16", "csrf": _form(page, "csrf")},
                   follow_redirects=False)
        assert r.status_code == 303
        pack = _text(c.get(r.headers["location"]).text)
        assert "The pack is empty: nothing fit the budget of 16 tokens" in pack
        assert "ask for a budget of at least" in pack


def test_the_search_page_says_what_a_match_is_and_names_its_filters(inspector) -> None:
    """Session 33 (rev33's finding): the page said "Nothing matched" alone where the CLI,
    ``POST /v1/search`` and MCP ``recall`` say that a hit shares a word with the query (or is
    near it) and name the filters the search was given; it says the same now, once."""
    with inspector.client() as c:
        page = _text(c.get("/ui/search", params={"q": "cat", "scope": "alice-assistant",
                                                  "since": "2100-01-01"}).text)
        assert ("Nothing matched: no memory of those the filters keep (since) shares a word "
                "with the query") in page, page
        assert "nothing matched" not in page, page  # not said twice
