"""A journaled pack's page shows what the CLI's ``packs show`` shows (session 23): the
token counter it was counted with (the page said "of 300 tokens ()": the template read a
key ``replay_pack`` had renamed), the text of each recent message it weighed (the Text
column was empty on every recent_turns row: those entries carry a message, no item), and
the builder takes every budget a pack takes (16 to 1,000,000; the page refused over
100,000, so a configured ``pack.budget`` above that made its own form unusable)."""

from __future__ import annotations

import re
from html import unescape

from memlane.ingest.params import MAX_BUDGET
from tests.serve.inspector.test_pages import _form


def _rows(html: str) -> list[list[str]]:
    body = html[html.index('<table class="decisions">'):]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in re.findall(r"<tr class=\"(?:kept|dropped)\">(.*?)</tr>", body, re.S)]


def test_a_pack_page_names_its_counter_and_shows_each_recent_messages_text(inspector) -> None:
    mem = inspector.mem
    with inspector.client() as c:
        page = c.get("/ui/packs").text
        r = c.post("/ui/packs", data={"q": "what about my cat?", "scope": "alice-assistant",
                                      "budget": "2000", "csrf": _form(page, "csrf")},
                   follow_redirects=False)
        assert r.status_code == 303
        pack_id = int(r.headers["location"].rsplit("/", 1)[1])
        html = c.get(r.headers["location"]).text
    counter = mem.replay_pack(pack_id)["token_counter"]
    assert counter
    assert f"of 2000 tokens ({unescape(counter)})" in unescape(html)
    assert "tokens ()" not in html
    recent = [row for row in _rows(html) if row[1] == "recent_turns"]
    assert recent, "the pack weighed no recent message"
    texts = {m.text for m in mem.store.recent_messages("alice-assistant", 50)}
    for row in recent:
        assert row[-1] and row[-1] in texts, row


def test_the_pack_builder_takes_every_budget_a_pack_takes(inspector) -> None:
    with inspector.client() as c:
        page = c.get("/ui/packs").text
        assert f'max="{MAX_BUDGET}"' in page
        for budget, status in ((str(MAX_BUDGET), 303), ("500000", 303), (str(MAX_BUDGET + 1), 400),
                               ("15", 400)):
            r = c.post("/ui/packs", data={"q": "which city", "scope": "alice-assistant",
                                          "budget": budget, "csrf": _form(page, "csrf")},
                       follow_redirects=False)
            assert r.status_code == status, (budget, r.text[:300])
            if status == 400:
                assert f"budget: must be an integer from 16 to {MAX_BUDGET}, got" in unescape(r.text)
