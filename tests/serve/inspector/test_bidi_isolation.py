"""Session 25: stored text holding a bidi override stays inside its own box on every page.

A speaker, an entity, a fact's value or a key's name holding U+202E (right-to-left
override) with no closing mark reordered everything after it on its line: the sessions
list's "· alice, \\u202ebob · closed: explicit" was drawn with "closed: explicit" reversed,
a history event's "replaced by", an entity's type. Every stored text in an inline place is
now a ``<bdi>`` (a block of its own, such as a message's text with ``dir="auto"``, ends the
override at its end). Checked on every page a reader reaches from the first, by parsing
the HTML: each text holding an embedding, override or isolate character is inside a
``<bdi>`` or an element with ``dir``, or is the page's title."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

OPENERS = "\u202a\u202b\u202d\u202e\u2066\u2067\u2068"
VOID = {"br", "hr", "img", "input", "link", "meta", "source", "wbr", "col"}


class _Check(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.loose: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append((tag, tag == "bdi" or any(k == "dir" for k, _ in attrs)))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(c in OPENERS for c in data):
            tags = [t for t, _ in self.stack]
            if not any(isolated for _, isolated in self.stack) and "title" not in tags:
                self.loose.append(f"{'>'.join(tags)}: {data.strip()!r}")


def test_every_stored_text_with_an_override_is_isolated_on_every_page(inspector) -> None:
    mem = inspector.mem
    rlo = "\u202e"
    mem.add_message("bidi", "user", "I moved to Porto", at="2024-06-01T10:00:00Z", speaker=f"{rlo}bob")
    mem.add_message("bidi", "user", "we talked", at="2024-06-01T10:01:00Z", speaker="alice")
    mem.close_session("bidi")
    mem.add_fact("user", "lives in", f"{rlo}Porto", scope="bidi", at="2024-06-01T10:00:00Z")
    mem.add_fact("user", "lives in", f"{rlo}Braga", scope="bidi", at="2024-06-02T10:00:00Z")
    mem.add_fact(f"{rlo}dana", "hometown", "Faro", scope="bidi", at="2024-06-01T10:00:00Z")
    key = inspector.key("*")
    from memlane.serve.keys import create_key
    named = create_key(mem.store, "*", name=f"{rlo}ops key").key
    seen: set[str] = set()
    queue = ["/ui/?scope=bidi", "/ui/facts?scope=bidi&include_superseded=1",
             "/ui/search?q=Porto&scope=bidi", "/ui/packs"]
    loose: list[str] = []
    with inspector.client(named) as c:
        while queue and len(seen) < 60:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            page = c.get(path)
            assert page.status_code == 200, (path, page.status_code)
            check = _Check()
            check.feed(page.text)
            loose += [f"{path}: {x}" for x in check.loose]
            for href in re.findall(r'href="(/ui/[^"]*)"', page.text):
                href = unescape(href)
                if "bidi" in href or "/sessions/" in href or "/facts/history" in href:
                    if "/forget" not in href and href not in seen:
                        queue.append(href)
    assert key and len(seen) > 4, seen
    assert not loose, loose
