"""The inspector's search page (session 24): its hit count starts at ``search.default_k``
and reaches the 1,000 every other surface takes; a query of only spaces says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest

from memlane.serve.http import create_app
from memlane.testing import memory
from memlane.testing.http import serving

from tests.serve.inspector.conftest import Inspector, seed


@pytest.fixture
def five(tmp_path: Path) -> Iterator[Inspector]:
    """The seeded memory with ``search.default_k = 5``."""
    mem = memory(tmp_path / "k.db", search={"default_k": 5})
    try:
        seeded = seed(mem)
        app = create_app(mem, worker=False)
        with serving(app) as url:
            yield Inspector(url, seeded, list(app.routes))
    finally:
        mem.close()


def _hits(html: str) -> list[str]:
    return re.findall(r'<li class="hit card" id="hit-(\d+)"', html)


def test_the_hit_count_starts_at_the_configured_default_k(five) -> None:
    """The page searched 10 hits, and its form said 10, whatever ``search.default_k`` was."""
    with five.client() as c:
        form = c.get("/ui/search").text
        assert re.search(r'<input id="k" name="k" type="number" min="1" max="1000" value="5"', form)
        page = c.get("/ui/search", params={"q": "database billing"}).text
        assert len(_hits(page)) == 5


def test_the_hit_count_reaches_what_a_search_takes(inspector) -> None:
    """``k`` over 100 was refused ("k: must be from 1 to 100"), where the CLI, the HTTP
    service and Python take 1 to 1,000."""
    with inspector.client() as c:
        many = c.get("/ui/search", params={"q": "the", "k": "150"})
        assert many.status_code == 200, many.text
        assert 'max="1000" value="150"' in many.text
        assert len(_hits(many.text)) == len(inspector.mem.search("the", k=150)) > 10
        over = c.get("/ui/search", params={"q": "the", "k": "1001"})
        assert over.status_code == 400 and "k: must be an integer from 1 to 1000, got 1001" in unescape(over.text)


@pytest.mark.parametrize("q", ["   ", "", "\t"])
def test_a_query_of_only_spaces_says_it_is_empty(inspector, q) -> None:
    """It showed the empty form again without a word, as if nothing had been asked."""
    with inspector.client() as c:
        page = c.get("/ui/search", params={"q": q, "scope": "team-backend", "k": "4"})
        assert page.status_code == 400
        text = unescape(page.text)
        assert 'role="alert"' in text and "q: the query is empty" in text
        assert 'aria-invalid="true"' in text and '<form method="get"' in text
        assert re.search(r'<option value="team-backend" selected>', text)  # the form is kept
        assert _hits(text) == []
        assert "q: the query is empty" not in c.get("/ui/search").text  # a fresh form: no word


def test_a_scope_that_holds_nothing_stays_selected(inspector) -> None:
    """``?q=x&scope=nobody`` said "scope 'nobody' has no memories" under a form whose scope
    read "every scope" (the scope was not in the list), so searching again searched every
    scope."""
    with inspector.client() as c:
        page = unescape(c.get("/ui/search", params={"q": "billing", "scope": "nobody"}).text)
        assert "scope 'nobody' has no memories" in page
        assert re.search(r'<option value="nobody" selected>nobody</option>', page)
        assert not re.search(r'<option value="" selected', page)


def test_the_facts_page_of_a_scope_that_holds_nothing_keeps_it_selected(inspector) -> None:
    """"Facts of nobody" above a scope picker showing the first listed scope."""
    with inspector.client() as c:
        page = c.get("/ui/facts", params={"scope": "nobody"}).text
        assert re.search(r'<option value="nobody" selected>nobody</option>', page)
        assert len(re.findall(r"<option[^>]* selected", page)) == 1
