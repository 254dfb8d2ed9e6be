"""A read-only key writes nothing through the inspector either (session 32).

Session 31 made a read-only key's reads write nothing (``Memory.reading_only``: no pack
journal row, no fact access recorded), but the inspector's "Build a pack" form still
journaled its pack: the page it showed was read back from the journal's row. The form now
shows a pack it did not journal in its own answer. The class: every inspector page and
form, reached with a read-only key, leaves every table of the database as it was (the key's
own last-use time aside, which ``memlane keys list`` shows by design)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from tests.serve.inspector.test_pages import _form, _links, _text

from memlane.serve.http.inspector.pages import PREFIX


def _tables(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the file, sorted; a key's ``last_used`` blanked."""
    with sqlite3.connect(db) as con:
        names = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        out = {}
        for name in names:
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            picked = ", ".join("NULL" if name == "api_keys" and c == "last_used" else f'"{c}"'
                               for c in cols)
            out[name] = sorted(con.execute(f'SELECT {picked} FROM "{name}"').fetchall(),
                               key=repr)
    return out


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return sorted(t for t in before.keys() | after.keys() if before.get(t) != after.get(t))


def test_a_read_only_keys_pack_form_shows_the_pack_and_writes_nothing(inspector, tmp_path) -> None:
    db = tmp_path / "inspected.db"
    reader = inspector.key("alice-*", read_only=True)
    with inspector.client(reader) as c:
        packs = c.get("/ui/packs")
        assert "This key is read-only: a pack built here is shown, not journaled" in packs.text
        before = _tables(db)
        r = c.post("/ui/packs", data={"q": "which city do I like?", "scope": "alice-assistant",
                                      "budget": "400", "csrf": _form(packs.text, "csrf")},
                   follow_redirects=False)
        after = _tables(db)
    assert _changed(before, after) == []  # the packs table and the counters too
    assert r.status_code == 200, _text(r.text)[-400:]
    page = " ".join(_text(r.text).split())
    assert "Pack (not journaled)" in page and "this key is read-only" in page
    assert "“which city do I like?” · alice-assistant · " in page and "of 400 tokens" in page
    assert "Lisbon" in page  # the pack's text and its decisions, from the pack itself
    assert re.search(r'<tr class="kept"><td>kept</td>', r.text)
    assert 'class="shares" role="img"' in r.text
    # a writing key's pack is journaled and its page is the journal's, as before
    with inspector.client(inspector.key("alice-*")) as c:
        packs = c.get("/ui/packs")
        assert "This key is read-only" not in packs.text
        r = c.post("/ui/packs", data={"q": "which city do I like?", "scope": "alice-assistant",
                                      "budget": "400", "csrf": _form(packs.text, "csrf")},
                   follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/ui/packs/")
        assert "Lisbon" in _text(c.get(r.headers["location"]).text)
    assert "packs" in _changed(after, _tables(db))


def test_a_pack_not_journaled_for_a_writing_key_is_shown_too(inspector) -> None:
    """A scope holding nothing gets no journal row (session 29): its form answered
    "memory.pack.journal is off", which was not so; it shows the empty pack and why."""
    with inspector.client(inspector.key("*")) as c:
        packs = c.get("/ui/packs")
        r = c.post("/ui/packs", data={"q": "anything", "scope": "nobody-here",
                                      "csrf": _form(packs.text, "csrf")}, follow_redirects=False)
    assert r.status_code == 200, _text(r.text)[-400:]
    page = " ".join(_text(r.text).split())
    assert "Pack (not journaled)" in page and "journal is off" not in page
    assert "scope 'nobody-here' holds nothing: its empty pack is not journaled" in page
    assert "The pack is empty" in page


def _built_pack(mem: Any) -> str:
    """The page, as its words, the pack form answers for "which city do I like?" in
    alice-assistant on a server of ``mem`` (no key: the service without keys)."""
    import httpx

    from memlane.serve.http import create_app
    from memlane.testing.http import serving

    with serving(create_app(mem, worker=False)) as url, httpx.Client(base_url=url) as c:
        csrf = _form(c.get(f"{PREFIX}/packs").text, "csrf")
        r = c.post(f"{PREFIX}/packs", data={"q": "which city do I like?",
                                            "scope": "alice-assistant", "csrf": csrf})
    assert r.status_code == 200, _text(r.text)[-400:]
    return " ".join(_text(r.text).split())


def test_a_pack_with_the_journal_off_is_shown(tmp_path) -> None:
    """``memory.pack.journal`` off: the form answered a 400 page saying so, where it can
    show the pack it built (as ``memlane pack`` and ``POST /v1/pack`` do)."""
    from memlane.testing import memory
    from tests.serve.inspector.conftest import seed

    mem = memory(tmp_path / "off.db", pack={"journal": False})
    try:
        seed(mem)
        page = _built_pack(mem)
    finally:
        mem.close()
    assert "memory.pack.journal is off in the configuration: the pack is shown here" in page
    assert "Lisbon" in page


def test_a_pack_of_a_read_only_database_is_shown(tmp_path) -> None:
    """A database memlane may not write (``?mode=ro``, session 22) journals no pack: the
    form said the journal was off, which it was not."""
    from memlane.testing import memory
    from tests.serve.inspector.conftest import seed

    db = tmp_path / "replica.db"
    writer = memory(db)
    try:
        seed(writer)
    finally:
        writer.close()
    mem = memory(f"sqlite:///{db}?mode=ro")
    try:
        page = _built_pack(mem)
    finally:
        mem.close()
    assert "the database is read-only: the pack is shown here, not journaled" in page
    assert "Lisbon" in page


def _pg_tables(url: str) -> dict[str, str]:
    """Every table of the PostgreSQL database, as a digest of its rows (a key's
    ``last_used`` left out)."""
    import psycopg

    with psycopg.connect(url) as con:
        names = [r[0] for r in con.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")]
        out = {}
        for name in names:
            cols = [r[0] for r in con.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema ="
                " current_schema() AND table_name = %s ORDER BY ordinal_position", (name,))
                    if not (name == "api_keys" and r[0] == "last_used")]
            picked = ", ".join(f'"{c}"' for c in cols)
            out[name] = con.execute(  # the names are the catalogue's
                f'SELECT count(*), md5(coalesce(string_agg(t::text, \'|\' ORDER BY t::text), \'\'))'
                f' FROM (SELECT {picked} FROM "{name}") t').fetchone()
    return out


def test_the_inspector_writes_nothing_for_a_read_only_key_on_postgresql(pg_url) -> None:
    import httpx

    from memlane.serve.http import create_app
    from memlane.serve.keys import create_key
    from memlane.testing import memory
    from memlane.testing.http import serving
    from tests.serve.inspector.conftest import Inspector, seed

    mem = memory(pg_url)
    try:
        seeded = seed(mem)
        key = create_key(mem.store, "*", read_only=True).key
        app = create_app(mem, worker=False)
        with serving(app) as url:
            inspector = Inspector(url, seeded, list(app.routes))
            with httpx.Client(base_url=url, cookies={"memlane_key": key}, timeout=30.0) as c:
                c.get(f"{PREFIX}/")  # the key's last use, recorded once a minute, by design
                before = _pg_tables(pg_url)
                r = c.post(f"{PREFIX}/packs", data={
                    "q": "what database did we pick for billing?", "scope": "team-backend",
                    "csrf": _form(c.get(f"{PREFIX}/packs").text, "csrf")})
                assert r.status_code == 200 and "PostgreSQL" in _text(r.text), r.text[-300:]
                _walk(c, [*_searches("team-backend"), f"{PREFIX}/health"])
                _forms(c, inspector, key)
        assert _pg_tables(pg_url) == before
    finally:
        mem.close()


def _walk(c: Any, extra: list[str]) -> set[tuple[str, str]]:
    """Every page reachable by links from the sessions page, and ``extra``; each page's
    forms sent as shown. Returns the (method, path) pairs requested."""
    seen: set[str] = set()
    todo = ["/", f"{PREFIX}/", *extra]
    asked: set[tuple[str, str]] = set()
    while todo and len(seen) < 200:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        page = c.get(url)
        asked.add(("GET", url.split("?")[0]))
        assert page.status_code in (200, 307, 400, 403, 404), (url, page.status_code)
        todo += [link for link in _links(page.text) if link.startswith(PREFIX)]
    return asked


def _forms(c: Any, inspector: Any, key: str) -> set[tuple[str, str]]:
    """Every form of the inspector, sent with ``key`` signed in: packs (a scope, every
    scope, a scope holding nothing, bad input), forget (refused), sign-in, sign-out."""
    csrf = _form(c.get(f"{PREFIX}/packs").text, "csrf")
    asked = set()
    for data in ({"q": "which city", "scope": "alice-assistant"}, {"q": "which city", "scope": ""},
                 {"q": "tea", "scope": "nobody-here"}, {"q": "", "scope": ""},
                 {"q": "which city", "budget": "3"}):
        r = c.post(f"{PREFIX}/packs", data={**data, "csrf": csrf})
        assert r.status_code in (200, 303, 400, 403), (data, r.status_code)
        asked.add(("POST", f"{PREFIX}/packs"))
    fact = inspector.seeded.lisbon
    for method in ("GET", "POST"):
        r = c.request(method, f"{PREFIX}/facts/{fact}/forget", data={"csrf": csrf})
        assert r.status_code == 403, (method, r.text[-300:])
        asked.add((method, f"{PREFIX}/facts/{{fact_id}}/forget"))
    login = c.get(f"{PREFIX}/login")
    r = c.post(f"{PREFIX}/login", data={"key": key, "next": f"{PREFIX}/facts",
                                        "csrf": _form(login.text, "csrf")})
    assert r.status_code == 303 and r.headers["location"] == f"{PREFIX}/facts", r.text[-300:]
    facts = c.get(r.headers["location"])
    r = c.post(f"{PREFIX}/logout", data={"csrf": _form(facts.text, "csrf")})
    assert r.status_code == 303
    asked |= {("GET", f"{PREFIX}/login"), ("POST", f"{PREFIX}/login"),
              ("POST", f"{PREFIX}/logout")}
    return asked


def _searches(scope: str) -> list[str]:
    return [f"{PREFIX}/search?q=which+city&scope={scope}",
            f"{PREFIX}/search?q=which+city&scope={scope}&mode=flat&k=3",
            f"{PREFIX}/search?q=billing+database&scope={scope}&preset=recency",
            f"{PREFIX}/search?q=&scope={scope}"]


def test_every_inspector_page_and_form_writes_nothing_for_a_read_only_key(inspector,
                                                                          tmp_path) -> None:
    db = tmp_path / "inspected.db"
    writer = inspector.key("*")
    with inspector.client(writer) as c:  # a journaled pack for the walk to open
        csrf = _form(c.get(f"{PREFIX}/packs").text, "csrf")
        assert c.post(f"{PREFIX}/packs", data={"q": "which city", "scope": "alice-assistant",
                                               "csrf": csrf}, follow_redirects=False
                      ).status_code == 303
    everything = inspector.key("*", read_only=True)
    some = inspector.key("alice-*", read_only=True)
    before = _tables(db)
    asked: set[tuple[str, str]] = set()
    for key, scope in ((everything, "team-backend"), (some, "alice-assistant")):
        with inspector.client(key) as c:
            asked |= _walk(c, [*_searches(scope), f"{PREFIX}/health", f"{PREFIX}/no-such-page",
                               f"{PREFIX}/static/inspector.css", f"{PREFIX}/packs/4242",
                               f"{PREFIX}/facts?scope={scope}&all=1"])
            asked |= _forms(c, inspector, key)
        assert _changed(before, _tables(db)) == [], key
    # the walk reached every route of the inspector (a page added later is walked too)
    from starlette.routing import Mount

    walked = {(m, p) for m, p in asked}
    for route in inspector.app_routes:
        path = getattr(route, "path", "")
        if not (path == "/" or path.startswith(PREFIX)):
            continue
        if isinstance(route, Mount):
            assert any(p.startswith(path + "/") for _, p in walked), path
            continue
        for method in sorted(set(route.methods) - {"HEAD"}):
            assert any(m == method and route.path_regex.match(p) for m, p in walked), \
                (method, path)
    # and the pages the walk read are the real ones, not error pages
    assert sum(1 for m, p in walked if p.startswith(f"{PREFIX}/sessions/")) > 3
    assert ("GET", f"{PREFIX}/facts/history") in walked


def test_the_walk_sees_a_write(inspector, tmp_path) -> None:
    """The comparison is able to fail: a writing key's pack form changes the tables."""
    db = tmp_path / "inspected.db"
    before = _tables(db)
    with inspector.client(inspector.key("*")) as c:
        csrf = _form(c.get(f"{PREFIX}/packs").text, "csrf")
        c.post(f"{PREFIX}/packs", data={"q": "which city", "scope": "alice-assistant",
                                        "csrf": csrf})
        c.get(f"{PREFIX}/search", params={"q": "which city", "scope": "alice-assistant"})
    assert "packs" in _changed(before, _tables(db))


def test_a_read_only_key_builds_a_pack_in_a_browser(inspector, tmp_path) -> None:
    """The same in a real Chromium: signed in with a read-only key through the sign-in
    form, the Packs form shows the built pack (its text, shares and decisions) and the
    database's tables are as before."""
    import pytest

    from tests.serve.inspector import browser

    if browser.missing() is not None:
        pytest.skip(str(browser.missing()))
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    db = tmp_path / "inspected.db"
    key = inspector.key("*", read_only=True)
    driver = browser.start(tmp_path / "chromium-profile")
    try:
        def wait(css: str) -> Any:
            return WebDriverWait(driver, 30).until(
                ec.presence_of_element_located((By.CSS_SELECTOR, css)))

        driver.get(inspector.url + f"{PREFIX}/packs")
        wait("input#key").send_keys(key)  # sent to the sign-in form, back to Packs
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait("input#q").send_keys("what database did we pick for billing?")
        before = _tables(db)
        Select(driver.find_element(By.ID, "scope")).select_by_value("team-backend")
        driver.find_element(By.CSS_SELECTOR, "form.search button[type=submit]").click()
        text = wait("pre.packtext")
        assert "PostgreSQL" in text.text
        assert "Pack (not journaled)" in driver.find_element(By.TAG_NAME, "h1").text
        assert "this key is read-only" in driver.find_element(By.CSS_SELECTOR, "p.notice").text
        rows = driver.find_elements(By.CSS_SELECTOR, "table.decisions tbody tr")
        assert any(r.get_attribute("class") == "kept" for r in rows)
        assert _changed(before, _tables(db)) == []
    finally:
        driver.quit()
        browser.remove_profile(tmp_path / "chromium-profile")
