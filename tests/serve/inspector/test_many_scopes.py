"""Session 25: the inspector over a database of more scopes than its pages list.

The Sessions page lists the 500 most recently active scopes; the 501st and older were on no
page and nothing said so: a user could reach them only by writing their name into the URL.
The list now says it is cut, a form opens any scope by name, and a scope's page links its
facts and a search of it (whose scope menus hold the page's scope, listed or not)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

SCOPES_LISTED = 500  # memlane.serve.http.inspector.views'


def test_a_scope_older_than_the_listed_ones_is_reached_from_the_first_page(inspector) -> None:
    mem = inspector.mem
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    mem.add_messages([{"scope": f"user-{i:04d}", "role": "user", "text": f"I live in town {i}",
                       "at": t0 + timedelta(minutes=i)} for i in range(SCOPES_LISTED + 5)])
    mem.add_fact("user", "lives in", "Oldtown", scope="user-0000", at=t0)
    with inspector.client() as c:
        first = c.get("/ui/")
        assert first.status_code == 200
        assert "user-0000" not in first.text  # the oldest, past the list
        assert f"The {SCOPES_LISTED} most recently active scopes" in first.text
        form = re.search(r'<form method="get" action="([^"]*)" class="row">\s*<label for="scope-open">',
                         first.text)
        assert form, "no form opens a scope the list leaves out"
        page = c.get(unescape(form.group(1)), params={"scope": "user-0000"})
        assert page.status_code == 200 and "Sessions of <span class=\"scope\">user-0000</span>" in page.text
        links = {unescape(h) for h in re.findall(r'href="([^"]+)"', page.text)}
        facts = next(h for h in links if h.endswith("/facts?scope=user-0000"))
        assert "Oldtown" in c.get(facts).text
        search = next(h for h in links if h.endswith("/search?scope=user-0000"))
        assert re.search(r'<option value="user-0000" selected>', c.get(search).text)


def test_a_list_that_holds_every_scope_says_nothing_of_a_cut(inspector) -> None:
    with inspector.client() as c:
        first = c.get("/ui/")
    assert first.status_code == 200 and "most recently active scopes" not in first.text
