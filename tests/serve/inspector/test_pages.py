"""Every page handler over HTTP on a real loopback server: content, escaping, sign-in with
a key (a key sees only its scopes), CSRF-checked forms, and errors as pages."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import httpx

from memlane.serve.http.inspector import views



def _form(html: str, name: str) -> str:
    m = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert m, f"no {name} field"
    return unescape(m.group(1))


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


def test_root_redirects_to_the_sessions_page(inspector) -> None:
    with inspector.client() as c:
        r = c.get("/", follow_redirects=False)
        assert r.status_code == 307 and r.headers["location"] == "/ui/"
        page = c.get("/ui/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert 'aria-current="page"' in page.text


def test_sessions_page_lists_scopes_and_summaries(inspector) -> None:
    with inspector.client() as c:
        html = c.get("/ui/", params={"scope": "team-backend"}).text
        assert 'data-live-scope="team-backend"' in html
        for scope in ("alice-assistant", "team-backend", "broken"):
            assert f">{scope}</a>" in html
        assert "Decisions (" in html and "summarized" in html
        failed = c.get("/ui/", params={"scope": "broken"}).text
        assert "llm timed out after 60s" in failed
        assert c.get("/ui/", params={"scope": "broken", "status": "nope"}).status_code == 400


def test_session_page_marks_observations_on_turns(inspector) -> None:
    mem = inspector.mem
    sid = next(s.id for s in mem.sessions(scope="alice-assistant")
               if mem.session_intelligence(s.id)["observations"])
    obs = mem.session_intelligence(sid)["observations"][0]
    with inspector.client() as c:
        html = c.get(f"/ui/sessions/{sid}").text
        turn = html.split(f'id="turn-{obs["seq"]}"')[1].split("</li>")[0]
        assert 'class="mark obs"' in turn
        assert obs["text"][:30] in unescape(turn)
        assert c.get("/ui/sessions/99999").status_code == 404
        bad = c.get("/ui/sessions/abc")
        assert bad.status_code == 400 and "session_id" in bad.text


def test_stored_script_is_shown_as_text_never_markup(inspector) -> None:
    with inspector.client() as c:
        for path, params in (("/ui/facts", {"scope": "xss"}),
                             (f"/ui/sessions/{inspector.seeded.xss_session}", {}),
                             ("/ui/search", {"q": "nickname", "scope": "xss"})):
            html = c.get(path, params=params).text
            assert "<script>document" not in html and "<img src=x" not in html, path
            assert "&lt;script&gt;document.title=" in html, path


def test_facts_page_bars_history_and_forget_with_confirmation(inspector) -> None:
    fid = inspector.seeded.lisbon
    with inspector.client() as c:
        html = c.get("/ui/facts", params={"scope": "alice-assistant"}).text
        assert f'id="fact-{fid}"' in html and 'role="img" aria-label="confidence' in html
        row = html.split(f'id="fact-{fid}"')[1].split("</tr>")[0]
        assert "×2" in row  # stated, then reinforced once
        hist = c.get("/ui/facts/history", params={"scope": "alice-assistant", "subject": "user",
                                                  "predicate": "favourite city"}).text
        assert "reinforced" in hist and "stated" in hist
        confirm = c.get(f"/ui/facts/{fid}/forget")
        assert "Forget this fact?" in confirm.text and "Lisbon" in confirm.text
        # a post without the page's token is refused and changes nothing
        forged = c.post(f"/ui/facts/{fid}/forget", data={"csrf": "guess"})
        assert forged.status_code == 403
        with inspector.client() as other:  # the real token, but not this browser's cookie
            stolen = other.post(f"/ui/facts/{fid}/forget",
                                data={"csrf": _form(confirm.text, "csrf")})
            assert stolen.status_code == 403 and "CSRF" in stolen.text
        assert any(f.id == fid for f in inspector.mem.facts("alice-assistant"))
        done = c.post(f"/ui/facts/{fid}/forget", data={"csrf": _form(confirm.text, "csrf")},
                      follow_redirects=False)
        assert done.status_code == 303 and "/ui/facts/history" in done.headers["location"]
        after = _text(c.get(done.headers["location"]).text)
        assert "forgotten" in after and "no longer stored" in after
        assert not any(f.id == fid for f in inspector.mem.facts("alice-assistant"))
        assert c.get("/ui/facts/history", params={"scope": "alice-assistant"}).status_code == 400


def test_search_page_draws_each_signal_and_stage_rank(inspector) -> None:
    with inspector.client() as c:
        html = c.get("/ui/search", params={"q": "which database for billing",
                                           "scope": "team-backend", "k": "3"}).text
        hits = re.findall(r'<li class="hit card" id="hit-(\d+)"', html)
        assert hits == ["1", "2", "3"]
        first = html.split('id="hit-1"')[1].split('id="hit-2"')[0]
        assert "relevance (lexical + vector, fused)" in first
        assert re.search(r'class="bar[^"]*" role="img" aria-label="contributes [+-]', first)
        assert "fused candidates" in first and "final</dt><dd>#1" in first
        flat = c.get("/ui/search", params={"q": "billing", "mode": "flat", "preset": "arawn"})
        assert flat.status_code == 200 and "vector (cosine)" in flat.text
        bad = c.get("/ui/search", params={"q": "x", "k": "abc"})
        assert bad.status_code == 400 and "k: must be a whole number" in unescape(bad.text)
        late = c.get("/ui/search", params={"q": "x", "since": "the day after"})
        assert late.status_code == 400 and "since" in late.text
        assert "<form" in c.get("/ui/search").text


def test_packs_build_and_open_a_journaled_one(inspector) -> None:
    with inspector.client() as c:
        page = c.get("/ui/packs").text
        assert "No pack journaled yet" in page
        r = c.post("/ui/packs", data={"q": "what database did we pick?", "scope": "team-backend",
                                      "budget": "300", "csrf": _form(page, "csrf")},
                   follow_redirects=False)
        assert r.status_code == 303
        pack = c.get(r.headers["location"]).text
        assert "Relevant" in pack or "Recent messages" in pack
        assert 'class="shares" role="img"' in pack and "kept" in pack
        assert re.search(r"of 300 tokens", pack)
        assert "what database did we pick?" in _text(c.get("/ui/packs").text)
        bad = c.post("/ui/packs", data={"q": "x", "budget": "3", "csrf": _form(page, "csrf")})
        assert bad.status_code == 400 and "budget" in bad.text
        assert c.get("/ui/packs/4242").status_code == 404


def test_health_page_shows_the_numbers_of_metrics(inspector) -> None:
    stats = inspector.mem.stats()
    with inspector.client() as c:
        c.get("/ui/search", params={"q": "billing database"})
        html = " ".join(_text(c.get("/ui/health").text).split())
        scrape = c.get("/metrics").text
    assert "summary queue" in html and "of closed sessions indexed" in html
    assert f"messages {stats['messages']}" in html
    assert f"memlane_messages {float(stats['messages'])}" in scrape
    assert re.search(r"search stage lexical \(mean of 1\) [0-9.]+ ms", html)
    assert 'memlane_search_stage_seconds_count{stage="lexical"} 1.0' in scrape


def test_sign_in_with_a_key_then_see_only_its_scopes(inspector) -> None:
    key = inspector.key("alice-*", read_only=True)
    with inspector.client(follow_redirects=False) as c:
        r = c.get("/ui/facts")
        assert r.status_code == 303 and r.headers["location"].startswith("/ui/login?next=")
        form = c.get(r.headers["location"]).text
        assert '<label for="key">API key</label>' in form
        token = _form(form, "csrf")
        wrong = c.post("/ui/login", data={"key": "ml_nope", "next": "/ui/facts", "csrf": token})
        assert wrong.status_code == 401 and "unknown or revoked" in wrong.text
        ok = c.post("/ui/login", data={"key": key, "next": "/ui/facts", "csrf": token})
        assert ok.status_code == 303 and ok.headers["location"] == "/ui/facts"
        cookie = ok.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        html = c.get("/ui/").text
        assert ">alice-assistant</a>" in html and "team-backend" not in html
        assert c.get("/ui/", params={"scope": "team-backend"}).status_code == 403
        assert c.get("/ui/health").status_code == 403
        # a read-only key cannot forget, even with a valid token
        confirm = c.get(f"/ui/facts/{inspector.seeded.lisbon}/forget")
        assert confirm.status_code == 403
        # the cookie is not accepted for the JSON API's writes
        assert c.post("/v1/messages", json={"scope": "alice-assistant", "role": "user",
                                            "text": "hi"}).status_code == 401
        out = c.post("/ui/logout", data={"csrf": _form(html, "csrf")})
        assert out.status_code == 303
        assert c.get("/ui/").status_code == 303  # signed out: back to the form


def test_login_never_redirects_off_site(inspector) -> None:
    key = inspector.key("*")
    with inspector.client(follow_redirects=False) as c:
        for target in ("https://evil.example/", "//evil.example/ui/", "/v1/stats"):
            token = _form(c.get("/ui/login").text, "csrf")  # each sign-in's own form
            r = c.post("/ui/login", data={"key": key, "next": target, "csrf": token})
            assert r.headers["location"] == "/ui/", target


def test_another_sites_page_cannot_sign_a_browser_in(inspector) -> None:
    """The sign-in form carries a CSRF token like every other form: a page of another site
    posting its own key to /ui/login (which the browser sends without this site's
    SameSite=Strict cookies) is refused and sets no key cookie. Before, the post signed the
    browser in as the other site's key, and what the user then did in the inspector went
    to that key's memory (found posting a form to /ui/login from another origin)."""
    theirs = inspector.key("*")
    with inspector.client(follow_redirects=False) as c:
        for data in ({"key": theirs, "next": "/ui/"},
                     {"key": theirs, "next": "/ui/", "csrf": "0" * 40}):
            r = c.post("/ui/login", data=data, headers={"Origin": "https://evil.example"})
            assert r.status_code == 403, r.text
            assert "CSRF token" in _text(r.text)
            assert "memlane_key" not in r.headers.get("set-cookie", "")
        # the form itself still signs in (its token and cookie come from the form's page)
        token = _form(c.get("/ui/login").text, "csrf")
        ok = c.post("/ui/login", data={"key": theirs, "next": "/ui/", "csrf": token})
        assert ok.status_code == 303 and "memlane_key=" in ok.headers["set-cookie"]


def test_the_sign_in_cookie_opens_the_live_stream_of_the_keys_scopes_only(inspector) -> None:
    key = inspector.key("alice-*", read_only=True)
    with inspector.client(key) as c:
        with c.stream("GET", "/state/memory", params={"scope": "alice-assistant"}) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            first = next(line for line in r.iter_lines() if line.startswith("event:"))
            assert first == "event: snapshot"
        assert c.get("/state/memory", params={"scope": "team-backend"}).status_code == 403


def test_a_form_from_one_service_process_is_accepted_by_another(inspector) -> None:
    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    with inspector.client() as c:
        page = c.get("/ui/packs")
        with serving(create_app(inspector.mem, worker=False)) as second:
            r = c.post(second + "/ui/packs", data={"q": "billing", "budget": "100",
                                                   "csrf": _form(page.text, "csrf")},
                       follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/ui/packs/")


def test_pages_on_postgresql(pg_url) -> None:
    from memlane.serve.http import create_app
    from memlane.testing import memory
    from memlane.testing.http import serving
    from tests.serve.inspector.conftest import seed

    mem = memory(pg_url)
    try:
        seeded = seed(mem)
        with serving(create_app(mem, worker=False)) as url, \
                httpx.Client(base_url=url, follow_redirects=True) as c:
            assert ">alice-assistant</a>" in c.get("/ui/").text
            facts = c.get("/ui/facts", params={"scope": "alice-assistant"})
            assert f'id="fact-{seeded.lisbon}"' in facts.text
            hist = c.get("/ui/facts/history", params={"scope": "alice-assistant",
                                                      "subject": "user",
                                                      "predicate": "favourite city"})
            assert "reinforced" in hist.text
            search = c.get("/ui/search", params={"q": "database billing", "scope": "team-backend"})
            assert 'id="hit-1"' in search.text
            r = c.post("/ui/packs", data={"q": "database", "scope": "team-backend",
                                          "csrf": _form(c.get("/ui/packs").text, "csrf")})
            assert r.status_code == 200 and "Every candidate" in r.text
            assert "summary queue" in c.get("/ui/health").text
    finally:
        mem.close()


def test_another_tenants_objects_by_id_are_not_found_as_missing_ones(inspector) -> None:
    """A session, fact or pack of a scope the key does not hold answers the page of a
    missing one (404, nothing of it named), as the JSON API does: the pages answered 403
    naming the other tenant's scope ('scope 'team-backend' is not among ...'), so a key
    learnt which ids existed and in which scope (found driving the inspector with a key
    holding alice-* only)."""
    mem = inspector.mem
    theirs = mem.sessions(scope="team-backend")[0].id
    fact = mem.add_fact("team", "uses", "PostgreSQL 16", scope="team-backend").fact_id
    pack = mem.pack("what database?", 200, scope="team-backend").id
    missing = 10**9
    key = inspector.key("alice-*")
    with inspector.client(key, follow_redirects=False) as c:
        token = _form(c.get("/ui/").text, "csrf")
        for what, other in (("session", theirs), ("fact", fact), ("pack", pack)):
            path = {"session": "/ui/sessions/{}", "fact": "/ui/facts/{}/forget",
                    "pack": "/ui/packs/{}"}[what]
            got, want = c.get(path.format(other)), c.get(path.format(missing))
            assert want.status_code == 404, (what, want.status_code)
            assert f"{what} {missing} does not exist" in _text(want.text)
            assert got.status_code == 404, (what, got.status_code, _text(got.text)[:300])
            assert f"{what} {other} does not exist" in _text(got.text)
            assert "team-backend" not in got.text
        r = c.post(f"/ui/facts/{fact}/forget", data={"csrf": token})
        assert r.status_code == 404 and "team-backend" not in r.text
    assert mem.store.get_fact(fact).object == "PostgreSQL 16"


def test_a_live_page_resumes_its_stream_from_the_change_it_was_read_at(inspector) -> None:
    """A live page names the change log's head it was read at (``data-live-head``), and
    its script resumes the stream there: a change landing between the page's read and the
    stream's start reaches the page. The script opened a fresh snapshot instead, which
    already held that change, so the page showed it only at the next change (found adding
    a message right after loading a session page)."""
    mem = inspector.mem
    mem.add_message("race", "user", "first", at="2024-06-01T10:00:00Z")
    sid = mem.sessions(scope="race")[0].id
    with inspector.client() as c:
        for path in ("/ui/?scope=race", f"/ui/sessions/{sid}", "/ui/facts?scope=race",
                     "/ui/facts/history?scope=race&subject=user&predicate=lives_in"):
            page = c.get(path)
            found = re.search(r'data-live-scope="race" data-live-head="(\d+)"', page.text)
            assert found, (path, page.text[:400])
        head = int(found.group(1))
        mem.add_message("race", "user", "second, between the page and its stream",
                        at="2024-06-01T10:01:00Z")
        with c.stream("GET", "/state/memory", params={"scope": "race",
                                                       "last_event_id": head}) as r:
            assert r.status_code == 200
            lines = r.iter_lines()
            event = next(x for x in lines if x.startswith("event:"))
            data = next(x for x in lines if x.startswith("data:"))
        assert event == "event: patch" and '"message.added"' in data
    js = (Path(views.__file__).parent / "static" / "inspector.js").read_text()
    assert "data-live-head" in js and "last_event_id=" in js


def test_the_sessions_page_filtered_by_status_keeps_and_names_the_status(inspector) -> None:
    """Filtered by a status, the page says which and keeps it chosen: the template's
    ``status`` was its badge macro, so a scope with no open session said "No sessions with
    status <Macro 'status'>." and the select fell back to "any"."""
    with inspector.client() as c:
        page = c.get("/ui/?scope=broken&status=open")
        assert page.status_code == 200
        assert "No sessions with status open." in _text(page.text)
        assert "<option selected>open</option>" in page.text
        page = c.get("/ui/?scope=broken&status=failed")
        assert "<option selected>failed</option>" in page.text
        assert "llm timed out after 60s" in _text(page.text)
def test_every_session_of_a_busy_scope_is_on_one_page_of_the_sessions_list(inspector) -> None:
    """A scope of 55 sessions, some starting at the same second: following "Older" from the
    first page reaches each once, newest first (the page showed the 50 newest and no
    way to the others); a bad page number is a 400 naming ``page``."""
    mem = inspector.mem
    for i in range(55):
        mem.add_message("busy", "user", f"note {i}", at=f"2024-05-01T{10 + i // 10}:00:00Z")
        mem.close_session("busy")
    want = [s.id for s in mem.store.list_sessions(scope="busy", limit=1000)]
    assert len(want) == 55
    seen: list[int] = []
    url: str | None = "/ui/?scope=busy"
    with inspector.client() as c:
        while url is not None:
            page = c.get(url)
            assert page.status_code == 200, url
            seen += [int(i) for i in re.findall(r'<li class="card" id="session-(\d+)"', page.text)]
            older = re.search(r'<a rel="next" href="([^"]+)"', page.text)
            url = unescape(older.group(1)) if older else None
            assert len(seen) <= 55
        assert seen == want
        assert "sessions 51–55" in _text(c.get("/ui/?scope=busy&page=2").text)
        assert "page 9 is past the last session" in _text(c.get("/ui/?scope=busy&page=9").text)
        for bad in ("0", "x", "-1"):
            r = c.get(f"/ui/?scope=busy&page={bad}")
            assert r.status_code == 400 and "page: must be" in _text(r.text), bad


def test_every_time_on_a_page_says_it_is_utc(inspector) -> None:
    """A message sent at 12:00 at UTC+5 is shown "07:00 UTC" on every page that shows it:
    times were shown in UTC without saying so ("2024-04-01 07:00"), read as local time by
    anyone east or west of Greenwich."""
    mem = inspector.mem
    mem.add_message("tz", "user", "lunch at noon in Tashkent", at="2024-04-01T12:00:00+05:00")
    mem.add_fact("user", "lunch", "noon", scope="tz", at="2024-04-01T12:00:00+05:00")
    sid = mem.sessions(scope="tz")[0].id
    with inspector.client() as c:
        for path in (f"/ui/sessions/{sid}", "/ui/?scope=tz", "/ui/facts?scope=tz",
                     "/ui/facts/history?scope=tz&subject=user&predicate=lunch",
                     "/ui/search?q=lunch+Tashkent&scope=tz"):
            page = c.get(path)
            assert page.status_code == 200, path
            times = re.findall(r'<time datetime="([^"]+)">([^<]*)</time>', page.text)
            assert times, path
            for iso, shown in times:
                assert shown.endswith(" UTC") and iso.endswith("+00:00"), (path, shown)
            assert ("2024-04-01T07:00:00+00:00", "2024-04-01 07:00 UTC") in times, path


def test_an_address_under_ui_that_is_no_page_is_a_page_saying_so(inspector) -> None:
    """A mistyped inspector address is an HTML 404 page with the inspector's header and
    links (it was the JSON API's '{"error": {"code": "not_found", …}}' in the browser);
    the static files and the JSON API's own 404 are as they were."""
    with inspector.client() as c:
        for path in ("/ui/nope", "/ui/session/1", "/ui/facts/1", "/ui/packs/1/x"):
            r = c.get(path)
            assert r.status_code == 404, path
            assert r.headers["content-type"].startswith("text/html"), path
            assert "there is no inspector page at " + path in _text(r.text)
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
            assert c.head(path).status_code == 404
        assert c.get("/ui/static/inspector.css").status_code == 200
        assert c.get("/ui/static/nope.css").status_code == 404
        assert c.get("/v1/nope").headers["content-type"] == "application/json"


def test_a_scopes_sessions_and_facts_pages_name_it_in_their_title(inspector) -> None:
    """Tabs of two scopes are told apart: the title was "Sessions" and "Facts" whatever the
    scope; the scope is escaped there as everywhere."""
    with inspector.client() as c:
        for path, title in (("/ui/?scope=team-backend", "Sessions of team-backend"),
                            ("/ui/facts?scope=alice-assistant", "Facts of alice-assistant"),
                            ("/ui/facts?scope=xss", "Facts of xss")):
            page = c.get(path)
            assert re.search(r"<title>(.*?)</title>", page.text, re.S).group(1).startswith(
                title + " · "), path


def _links(html: str) -> list[str]:
    return [unescape(h).split("#")[0] for h in re.findall(r'<a [^>]*href="(/[^"]*)"', html)]


def test_a_key_of_some_scopes_can_follow_every_link_and_use_every_form(inspector) -> None:
    """Signed in with a key of some scopes, every link of every page it reaches opens,
    and the Search and Packs forms as first shown work: the nav's Health link was a 403,
    and "every scope", their default, a 403 ("this request spans every scope") for any
    search or pack. Such a key now searches and packs its most recent scope by default
    and is offered no "every scope"; a key holding '*' still is."""
    key = inspector.key("alice-*")
    with inspector.client(key) as c:
        seen: set[str] = set()
        todo = ["/ui/"]
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            page = c.get(url)
            assert page.status_code == 200, (url, _text(page.text)[-300:])
            todo += _links(page.text)
        assert len(seen) > 10 and "/ui/health" not in seen
        search = c.get("/ui/search")
        assert "every scope" not in search.text
        assert '<option value="alice-assistant" selected>' in search.text
        hits = c.get("/ui/search", params={"q": "city", "scope": ""})
        assert hits.status_code == 200 and "alice-assistant · " in _text(hits.text)
        packs = c.get("/ui/packs")
        assert "every scope</option>" not in packs.text
        built = c.post("/ui/packs", data={"q": "which city", "scope": "",
                                          "csrf": _form(packs.text, "csrf")})
        assert built.status_code == 303
        assert "alice-assistant" in _text(c.get(built.headers["location"]).text)
    with inspector.client(inspector.key("*")) as c:
        page = c.get("/ui/search")
        assert '<option value="">every scope</option>' in page.text and "/ui/health" in page.text



def test_a_read_only_key_is_offered_no_forget_link(inspector) -> None:
    """A read-only key may not forget facts: the Facts and History pages offered it
    "Forget…" links, each a 403 page; every link it is shown now opens."""
    with inspector.client(inspector.key("alice-*", read_only=True)) as c:
        for path in ("/ui/facts?scope=alice-assistant",
                     "/ui/facts/history?scope=alice-assistant&subject=user"
                     "&predicate=favourite%20city"):
            page = c.get(path)
            assert page.status_code == 200 and "Lisbon" in page.text
            assert "/forget" not in page.text, path
            for link in _links(page.text):
                assert c.get(link).status_code == 200, link
    with inspector.client(inspector.key("alice-*")) as c:
        assert "/forget" in c.get("/ui/facts?scope=alice-assistant").text
