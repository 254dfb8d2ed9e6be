"""Session 25: a browser holding another service's sign-in cookie.

Cookies belong to a host and port, not to a database: a user who signed in to ``memlane
serve`` on one database and later served another, which never had an API key, on the same
port was sent to the sign-in page of a service that needs none ("This service needs an API
key"), where no key could pass. An open service now ignores the cookie; a keyed one still
asks for a valid key, and a key sent in the header is checked either way."""

from __future__ import annotations


def test_an_open_service_ignores_a_stale_sign_in_cookie(inspector) -> None:
    with inspector.client("ml_" + "x" * 43) as c:
        page = c.get("/ui/?scope=team-backend")
        assert page.status_code == 200, (page.status_code, page.headers.get("location"))
        assert "Sessions of" in page.text
        assert c.get("/v1/stats").status_code == 200
    with inspector.client() as c:
        r = c.get("/v1/stats", headers={"Authorization": "Bearer ml_" + "x" * 43})
    assert r.status_code == 401  # a key sent in the header is meant: checked


def test_a_keyed_service_still_asks_a_stale_cookie_for_a_key(inspector) -> None:
    inspector.key("*")
    with inspector.client("ml_" + "x" * 43) as c:
        page = c.get("/ui/")
        assert page.status_code == 303 and "/ui/login" in page.headers["location"]
        assert c.get("/v1/stats").status_code == 401
