"""Client addresses behind a trusted proxy, walked further (session 29).

- The failed-authentication limit counted each IPv6 address apart: a client holding a /64
  (what one host or site is given, RFC 6177) sent each guess from a new address of it and
  was never slowed. An IPv6 client is now its /64.
- An open service served "loopback" clients by the address's text (``startswith("::1")``):
  ``::1a`` or ``::100``, remote addresses named by a trusted proxy, were served.
- ``X-Forwarded-Proto`` was read only when the client's address differed from the
  proxy's: a browser on the proxy's own host kept ``http``, and its cookies lost
  ``Secure``.
- RFC 7239's ``Forwarded`` was not read: behind a proxy sending it alone, every client had
  the proxy's address again. It is read, from a trusted proxy sending no
  ``X-Forwarded-For``, by the same rule.
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
        xff = {"X-Forwarded-For": forwarded} if forwarded else {}
        return c.get("/v1/stats", headers={**auth, **xff, **headers})


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


def test_a_proxy_sending_rfc_7239_forwarded_alone_names_the_client(proxied) -> None:
    """A trusted proxy that sends ``Forwarded`` (RFC 7239) and no ``X-Forwarded-For``: every
    client was the proxy's address, so one client's flood locked every client out."""
    url, mem = proxied
    good = create_key(mem.store, "*").key
    codes = [_get(url, "", f"ml_{secrets.token_hex(16)}", Forwarded="for=10.0.0.1").status_code
             for _ in range(10)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes
    other = _get(url, "", good, Forwarded='for="[2001:db8::1]:4711";proto=https')
    assert other.status_code == 200, other.text
    # the left part is the client's own: the proxy's element (right-most) counts
    assert _get(url, "", good, Forwarded="for=10.0.0.2, for=10.0.0.1").status_code == 429
    # X-Forwarded-For, when the proxy sends it, is the one read (as before)
    assert _get(url, "10.0.0.2", good, Forwarded="for=10.0.0.1").status_code == 200
    # an obfuscated or unknown client: the proxy's own address (not a 500)
    assert _get(url, "", good, Forwarded='for="_hidden"').status_code == 200


def test_forwarded_s_proto_is_the_scheme(proxied) -> None:
    url, _ = proxied
    with httpx.Client(base_url=url, timeout=30.0) as c:  # an open service's inspector
        page = c.get("/ui/", headers={"Forwarded": "for=127.0.0.1;proto=https"})
    assert "secure" in page.headers["set-cookie"].lower(), page.headers["set-cookie"]


@given(st.text(max_size=60))
def test_any_forwarded_header_gives_the_peer_or_an_address_of_it(header: str) -> None:
    from memlane.serve.http.proxy import forwarded_client, proxy_networks

    host, _ = forwarded_client("127.0.0.1", header, proxy_networks(["127.0.0.1"]))
    assert host == "127.0.0.1" or ipaddress.ip_address(host)


@given(st.lists(st.tuples(st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)),
                          st.booleans(), st.sampled_from([None, "http", "https"])),
                min_size=1, max_size=6))
def test_forwarded_names_the_client_x_forwarded_for_would(chain: list[Any]) -> None:
    from memlane.serve.http.proxy import client_address, forwarded_client, proxy_networks

    trusted = proxy_networks(["10.0.0.0/8", "::1"])

    def element(address: Any, port: bool, proto: str | None) -> str:
        where = f"[{address}]" if address.version == 6 else str(address)
        where = f'"{where}:4711"' if port else f'"{where}"' if address.version == 6 else where
        return f"for={where}" + (f";proto={proto}" if proto else "")

    header = ", ".join(element(*e) for e in chain)
    host, proto = forwarded_client("10.1.2.3", header, trusted)
    assert host == client_address("10.1.2.3", ",".join(str(a) for a, _, _ in chain), trusted)
    assert proto in {p for a, _, p in chain if host == str(getattr(a, "ipv4_mapped", None) or a)}
    assert forwarded_client("192.0.2.7", header, trusted) == ("192.0.2.7", None)


@given(st.ip_addresses(v=4), st.integers(0, 32), st.ip_addresses(v=4))
def test_a_proxy_named_as_an_ipv4_mapped_address_is_trusted(proxy: Any, bits: int,
                                                            peer: Any) -> None:
    """``::ffff:127.0.0.1`` (how a dual-stack socket's log names an IPv4 peer) in
    ``trusted_proxies``: peers are compared as their IPv4 address, so it never matched and
    its clients all had its address."""
    from memlane.serve.http.proxy import client_address, proxy_networks

    network = ipaddress.IPv4Network((proxy, bits), strict=False)
    mapped = proxy_networks([f"::ffff:{network.network_address}/{bits + 96}"])
    trusted = peer in network
    assert client_address(str(peer), "203.0.113.9", mapped) == \
        ("203.0.113.9" if trusted else str(peer))
