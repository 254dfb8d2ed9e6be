"""The inspector's Facts and Session pages are paged (session 21): a scope of thousands of
facts was one page cut at 1,000 without a word, a session of thousands of messages one page
of megabytes. Each is followed link by link on a real service, as a reader would."""

from __future__ import annotations

import re
from typing import Any
from html import unescape

import httpx

FACTS_PER_PAGE = MESSAGES_PER_PAGE = 100  # memlane.serve.http.inspector.views'


def _follow(c: httpx.Client, url: str | None, found: str, limit: int) -> tuple[list[int], int]:
    """Every id ``found`` matches on the page at ``url`` and on each page its rel=next link
    leads to, in order; and how many pages."""
    seen: list[int] = []
    pages = 0
    while url is not None:
        page = c.get(url)
        assert page.status_code == 200, url
        ids = [int(i) for i in re.findall(found, page.text)]
        assert len(ids) <= limit, url
        seen += ids
        pages += 1
        nxt = re.search(r'<a rel="next" href="([^"]+)"', page.text)
        url = unescape(nxt.group(1)) if nxt else None
        assert pages < 100
    return seen, pages


def test_every_fact_of_a_scope_of_1234_is_on_one_page_of_the_facts_page(inspector) -> None:
    mem = inspector.mem
    for i in range(1234):
        mem.add_fact("user" if i % 2 else "bob", f"trait {i:04d}", f"value {i}", scope="big",
                     at="2024-01-01T00:00:00Z")
    mem.add_fact("bob", "trait 0000", "changed", scope="big", at="2024-02-01T00:00:00Z")
    want = [f.id for f in mem.store.list_facts("big", limit=10_000)]
    everything = [f.id for f in mem.store.list_facts("big", include_superseded=True, limit=10_000)]
    users = [f.id for f in mem.store.list_facts("big", "user", limit=10_000)]
    assert len(want) == 1234 and len(everything) == 1235 and len(users) == 617
    row = r'<tr class="fact-\w+" id="fact-(\d+)"'
    with inspector.client() as c:
        seen, pages = _follow(c, "/ui/facts?scope=big", row, FACTS_PER_PAGE)
        assert seen == want and pages == 13  # it was the first 1,000, on one page
        # the links keep the subject and "with replaced values"
        assert _follow(c, "/ui/facts?scope=big&subject=user", row, FACTS_PER_PAGE)[0] == users
        assert _follow(c, "/ui/facts?scope=big&all=1", row, FACTS_PER_PAGE)[0] == everything
        page = c.get("/ui/facts?scope=big&page=13").text
        assert "facts 1201–1234" in page and 'rel="prev"' in page and 'rel="next"' not in page
        assert "page 14 is past the last fact" in c.get("/ui/facts?scope=big&page=14").text
        small = c.get("/ui/facts?scope=alice-assistant").text  # one page: no pager
        assert 'class="pages"' not in small and re.search(r"\d+ facts?;", small)
        for bad in ("0", "x", "-1"):
            r = c.get(f"/ui/facts?scope=big&page={bad}")
            assert r.status_code == 400 and "page: must be" in r.text, bad


def test_every_message_of_a_long_session_is_on_one_page_and_a_turns_link_finds_it(
        inspector) -> None:
    mem = inspector.mem
    for i in range(1, 251):
        mem.add_message("long", "user" if i % 2 else "assistant", f"message number {i} zebra{i}",
                        at="2024-05-01T10:00:00Z")
    sid = mem.close_session("long").id
    mem.index(scope="long")
    turn = r'<li class="msg[^"]*" id="turn-(\d+)"'
    with inspector.client() as c:
        seen, pages = _follow(c, f"/ui/sessions/{sid}", turn, MESSAGES_PER_PAGE)
        assert seen == list(range(1, 251)) and pages == 3
        last = c.get(f"/ui/sessions/{sid}?page=3").text
        assert "turns 201–250 of 250" in last and 'rel="prev"' in last
        assert "page 4 is past the last turn" in c.get(f"/ui/sessions/{sid}?page=4").text
        # a search hit on turn 180 links to the page that shows it
        hits = c.get("/ui/search", params={"q": "zebra180", "scope": "long", "mode": "flat"}).text
        link = re.search(rf'href="(/ui/sessions/{sid}[^"#]*)#turn-180"', hits)
        assert link and link.group(1).endswith("?page=2"), hits[:200]
        assert 'id="turn-180"' in c.get(unescape(link.group(1))).text
        r = c.get(f"/ui/sessions/{sid}?page=abc")
        assert r.status_code == 400 and "page: must be" in r.text


def test_following_next_while_facts_and_sessions_are_added_before_it_repeats_none(inspector) -> None:
    """Session 28: the "Next ›" and "Older ›" links went by page number (an offset), so a
    fact or session added before the page a reader had reached moved the rest one on and
    the next page began with the last one shown. The links carry the page's cursor."""
    mem = inspector.mem
    for i in range(150):
        mem.add_fact("user", f"trait {i:04d}", "v", scope="grow", at="2024-01-01T00:00:00Z")
    for day in range(1, 56):
        mem.add_message("grow", "user", f"hello {day}", at=f"2024-01-01T{day // 60:02d}:{day % 60:02d}:00Z")
        mem.close_session("grow")
    want = [f.id for f in mem.store.list_facts("grow", limit=10_000)]
    sessions = [s.id for s in mem.store.list_sessions(scope="grow", limit=10_000)]
    with inspector.client() as c:
        first = c.get("/ui/facts?scope=grow").text
        seen = [int(i) for i in re.findall(r'<tr class="fact-\w+" id="fact-(\d+)"', first)]
        mem.add_fact("user", "a trait", "v", scope="grow", at="2024-01-01T00:00:00Z")  # sorts first
        nxt = re.search(r'<a rel="next" href="([^"]+)"', first)
        assert nxt is not None
        more, _ = _follow(c, unescape(nxt.group(1)), r'<tr class="fact-\w+" id="fact-(\d+)"',
                          FACTS_PER_PAGE)
        assert seen + more == want
        newest = c.get("/ui/?scope=grow").text
        shown = [int(i) for i in re.findall(r'href="/ui/sessions/(\d+)"', newest)]
        mem.add_message("grow", "user", "newest", at="2024-06-01T00:00:00Z")  # before them all
        mem.close_session("grow")
        older = re.search(r'<a rel="next" href="([^"]+)"', newest)
        assert older is not None
        rest = c.get(unescape(older.group(1))).text
        shown += [int(i) for i in re.findall(r'href="/ui/sessions/(\d+)"', rest)]
    assert list(dict.fromkeys(shown)) == shown and set(sessions) <= set(shown)


def _walk_back(c: httpx.Client, page: str, found: str) -> list[list[int]]:
    """The ids of each page the rel=prev links lead to from ``page``, nearest first."""
    back: list[list[int]] = []
    while (prev := re.search(r'<a rel="prev" href="([^"]+)"', page)) is not None:
        r = c.get(unescape(prev.group(1)))
        assert r.status_code == 200, prev.group(1)
        page = r.text
        back.append([int(i) for i in re.findall(found, page)])
        assert len(back) < 20
    return back


def _forward_then_back(c: httpx.Client, url: str, found: str, change: Any,
                       listing: Any) -> None:
    """Page forward twice by the rel=next links, ``change`` the rows before the page
    reached, then follow rel=prev back to the first page: read back, the pages hold every
    row of the listing before the page reached, each once, and the first one back ends
    with the row just before the page reached, as it was shown."""
    pages: list[str] = [c.get(url).text]
    for _ in range(2):
        nxt = re.search(r'<a rel="next" href="([^"]+)"', pages[-1])
        assert nxt is not None
        pages.append(c.get(unescape(nxt.group(1))).text)
    third = [int(i) for i in re.findall(found, pages[-1])]
    assert third
    change()
    back = _walk_back(c, pages[-1], found)
    seen = [i for ids in reversed(back) for i in ids]
    now = listing()
    assert seen + third == now[:now.index(third[-1]) + 1]


def test_following_newer_back_after_rows_were_added_and_removed_joins_the_pages(
        inspector) -> None:
    """Session 28, fourth round: "‹ Newer" and "‹ Previous" went back by page number, so
    after rows were added before the page a reader had reached by cursor, the page before
    it repeated rows the reader had seen, or skipped some once rows were removed. They
    carry the page's first row (``before``): the page back ends just before it."""
    mem = inspector.mem
    for i in range(250):
        mem.add_fact("user", f"trait {i:04d}", "v", scope="back", at="2024-01-01T00:00:00Z")
    for n in range(120):
        mem.add_message("back", "user", f"hello {n}",
                        at=f"2024-01-01T{n // 60:02d}:{n % 60:02d}:00Z")
        mem.close_session("back")
    facts = [f.id for f in mem.store.list_facts("back", limit=10_000)]
    sessions = [s.id for s in mem.store.list_sessions(scope="back", limit=10_000)]

    def change_facts() -> None:
        for i in range(3):  # sort first: pages by number move three on
            mem.add_fact("user", f"a trait {i}", "v", scope="back", at="2024-01-01T00:00:00Z")
        mem.forget_fact(facts[7])
        mem.forget_fact(facts[150])

    def change_sessions() -> None:
        for n in range(3):  # newer than all
            mem.add_message("back", "user", f"late {n}", at=f"2024-06-0{n + 1}T00:00:00Z")
            mem.close_session("back")
        mem.forget_session(sessions[3])
        mem.forget_session(sessions[70])

    with inspector.client() as c:
        _forward_then_back(c, "/ui/facts?scope=back", r'<tr class="fact-\w+" id="fact-(\d+)"',
                           change_facts,
                           lambda: [f.id for f in mem.store.list_facts("back", limit=10_000)])
        _forward_then_back(c, "/ui/?scope=back", r'href="/ui/sessions/(\d+)"', change_sessions,
                           lambda: [s.id for s in mem.store.list_sessions(scope="back",
                                                                          limit=10_000)])
        # a made-up, cut or other listing's "before", or one beside a cursor: a 400 naming it
        for path in ("/ui/facts?scope=back&before=", "/ui/?scope=back&before="):
            for bad in ("x", "eyJ9.0000", "W10.abc"):
                r = c.get(path + bad)
                assert r.status_code == 400 and "before:" in r.text, (path, bad)
        cursor_of_facts = re.search(r'cursor=([^"&]+)', c.get("/ui/facts?scope=back").text)
        assert cursor_of_facts is not None
        r = c.get("/ui/?scope=back&before=" + cursor_of_facts.group(1))
        assert r.status_code == 400 and "before:" in r.text
        r = c.get("/ui/facts?scope=back&before=" + cursor_of_facts.group(1) + "&cursor=" +
                  cursor_of_facts.group(1))
        assert r.status_code == 400 and "before: pass before, cursor or offset" in r.text
