"""Client addresses behind a trusted proxy, walked further (session 29).

- The failed-authentication limit counted each IPv6 address apart: a client holding a /64
  (what one host or site is given, RFC 6177) sent each guess from a new address of it and
  was never slowed. An IPv6 client is now its /64.
- An open service served "loopback" clients by the address's text (``startswith("::1")``):
  ``::1a`` or ``::100``, remote addresses named by a trusted proxy, were served.
- ``X-Forwarded-Proto`` was read only when the client's address differed from the
  proxy's: a browser on the proxy's own host kept ``http``, and its cookies lost
  ``Secure``.
A real service on 127.0.0.1, ``serve.trusted_proxies = ["127.0.0.1"]``."""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

PROXIED = {"trusted_proxies": ["127.0.0.1"], "failed_auth_limit": 0.001,
           "failed_auth_burst": 5}


@pytest.fixture
def proxied(tmp_path: Any) -> Iterator[tuple[str, Any]]:
    mem = memory(tmp_path / "m.db", serve=PROXIED)
    try:
        with serving(create_app(mem, worker=False)) as url:
            yield url, mem
    finally:
        mem.close()


def _get(url: str, forwarded: str, key: str | None = None, **headers: str) -> httpx.Response:
    auth = {"Authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=url, timeout=30.0) as c:
        return c.get("/v1/stats", headers={**auth, "X-Forwarded-For": forwarded, **headers})


def test_an_ipv6_client_guessing_from_new_addresses_of_its_64_is_slowed(proxied) -> None:
    url, mem = proxied
    good = create_key(mem.store, "*").key
    codes = [_get(url, f"2001:db8:1:2:{secrets.token_hex(2)}::{i + 1:x}",
                  f"ml_{secrets.token_hex(16)}").status_code for i in range(10)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes
    slowed = _get(url, "2001:db8:1:2::beef", good)  # its /64: a good key waits too
    assert slowed.status_code == 429 and "2001:db8:1:2::/64" in slowed.json()["error"]["message"]
    assert _get(url, "2001:db8:1:3::1", good).status_code == 200  # another /64
    assert _get(url, "192.0.2.1", good).status_code == 200  # IPv4: per address, as before


_V6 = st.ip_addresses(v=6)


@given(_V6, _V6)
def test_two_ipv6_addresses_count_as_one_exactly_when_they_share_a_64(a: Any, b: Any) -> None:
    from memlane.serve.http.auth import failed_auth_key

    if a.ipv4_mapped or b.ipv4_mapped:  # an IPv4 client on a dual-stack socket: its IPv4
        return
    same = ipaddress.IPv6Network((a, 64), strict=False) == \
        ipaddress.IPv6Network((b, 64), strict=False)
    assert (failed_auth_key(str(a)) == failed_auth_key(str(b))) == same


@given(st.ip_addresses(v=4), st.ip_addresses(v=4))
def test_ipv4_addresses_count_apart(a: Any, b: Any) -> None:
    from memlane.serve.http.auth import failed_auth_key

    assert (failed_auth_key(str(a)) == failed_auth_key(str(b))) == (a == b)
    assert failed_auth_key(f"::ffff:{a}") == failed_auth_key(str(a))


_LOOPBACKISH = st.sampled_from(["::1", "::1a", "::100", "::1:0:0:1", "::ffff:127.0.0.1",
                                "127.0.0.1", "127.255.0.9", "128.0.0.1", "203.0.113.5"])


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(_LOOPBACKISH, st.ip_addresses().map(str)))
def test_an_open_service_serves_loopback_addresses_only(proxied, address: str) -> None:
    url, _ = proxied
    parsed = ipaddress.ip_address(address)
    loopback = (getattr(parsed, "ipv4_mapped", None) or parsed).is_loopback
    r = _get(url, address)
    assert r.status_code == (200 if loopback else 401), (address, r.text)


def test_the_proxy_s_scheme_holds_for_a_browser_on_its_host(proxied) -> None:
    url, _ = proxied
    for forwarded in ("127.0.0.1", "::1"):  # the proxy's own host, as the proxy names it
        with httpx.Client(base_url=url, timeout=30.0) as c:
            page = c.get("/ui/", headers={"X-Forwarded-For": forwarded,
                                               "X-Forwarded-Proto": "https"})
        assert page.status_code == 200, page.text
        assert "secure" in page.headers["set-cookie"].lower(), page.headers["set-cookie"]
