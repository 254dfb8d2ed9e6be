"""The failed-authentication limit behind a reverse proxy (session 28, fifth round).

Behind nginx or a load balancer every connection comes from the proxy, so one client
guessing keys locked every client out. With ``serve.trusted_proxies`` the client is the
right-most ``X-Forwarded-For`` address that is not a trusted proxy; without it the header is
ignored, so a client cannot dodge the limit by sending one (uvicorn's own proxy headers,
on by default, trusted any loopback client's). A real service on 127.0.0.1."""

from __future__ import annotations

import ipaddress
import secrets

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlane.config import ServeConfig
from memlane.errors import ConfigError
from memlane.serve.http import create_app
from memlane.serve.http.proxy import client_address, proxy_networks
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

SLOW = {"failed_auth_limit": 0.001, "failed_auth_burst": 5}


def _flood(url: str, forwarded: str) -> list[int]:
    with httpx.Client(base_url=url, timeout=30.0) as c:
        return [c.get("/v1/stats", headers={"Authorization": f"Bearer ml_{secrets.token_hex(16)}",
                                            "X-Forwarded-For": forwarded}).status_code
                for _ in range(10)]


def test_behind_a_trusted_proxy_a_flood_locks_out_only_its_client(tmp_path) -> None:
    mem = memory(tmp_path / "m.db", serve={**SLOW, "trusted_proxies": ["127.0.0.1"]})
    try:
        good = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url:
            codes = _flood(url, "10.0.0.1")
            assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes
            with httpx.Client(base_url=url, timeout=30.0) as c:
                other = c.get("/v1/stats", headers={"Authorization": f"Bearer {good}",
                                                    "X-Forwarded-For": "10.0.0.2"})
                assert other.status_code == 200, other.text
                # a client's own X-Forwarded-For is the header's left part: the proxy's
                # appended address (right-most) is the one that counts
                spoof = c.get("/v1/stats", headers={"Authorization": f"Bearer {good}",
                                                    "X-Forwarded-For": "10.0.0.2, 10.0.0.1"})
                assert spoof.status_code == 429
                # a header that is no list of addresses: the peer's own (not a 500)
                bad = c.get("/v1/stats", headers={"Authorization": f"Bearer {good}",
                                                  "X-Forwarded-For": "10.0.0.1, not-an-ip"})
                assert bad.status_code == 200, bad.text
    finally:
        mem.close()


def test_without_trusted_proxies_the_header_does_not_dodge_the_limit(tmp_path) -> None:
    mem = memory(tmp_path / "m.db", serve=SLOW)
    try:
        create_key(mem.store, "*")
        with serving(create_app(mem, worker=False)) as url, \
                httpx.Client(base_url=url, timeout=30.0) as c:
            codes = [c.get("/v1/stats", headers={
                "Authorization": f"Bearer ml_{secrets.token_hex(16)}",
                "X-Forwarded-For": f"10.0.{i}.1"}).status_code for i in range(10)]
            assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes
    finally:
        mem.close()


@pytest.mark.parametrize("value", ["10.0.0.0/33", "proxy.local", "10.0.0.1/8", ""])
def test_a_bad_trusted_proxy_is_an_error_naming_the_key(value: str) -> None:
    with pytest.raises(ConfigError, match=r"memory\.serve\.trusted_proxies"):
        ServeConfig(trusted_proxies=(value,))


_ADDRESSES = st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6))
_TRUSTED = proxy_networks(["10.0.0.0/8", "::1"])


@given(st.text(max_size=60))
def test_any_header_gives_the_peer_or_an_address_of_it(header: str) -> None:
    host = client_address("127.0.0.1", header, proxy_networks(["127.0.0.1"]))
    assert host == "127.0.0.1" or ipaddress.ip_address(host)


@given(st.lists(_ADDRESSES, min_size=1, max_size=6), st.booleans())
def test_the_right_most_untrusted_address_is_the_client(chain: list, ports: bool) -> None:
    def entry(a: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
        if not ports:
            return str(a)
        return f"[{a}]:443" if a.version == 6 else f"{a}:443"

    def trusted(a: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        a = getattr(a, "ipv4_mapped", None) or a
        return any(a in n for n in _TRUSTED)

    host = client_address("10.1.2.3", " , ".join(entry(a) for a in chain), _TRUSTED)
    untrusted = [a for a in chain if not trusted(a)]
    want = untrusted[-1] if untrusted else chain[0]
    assert host == str(getattr(want, "ipv4_mapped", None) or want)
    # an untrusted peer's header is never read
    assert client_address("192.0.2.7", ",".join(map(str, chain)), _TRUSTED) == "192.0.2.7"


def test_an_open_service_refuses_a_remote_client_through_its_proxy(tmp_path) -> None:
    mem = memory(tmp_path / "m.db", serve={"trusted_proxies": ["127.0.0.1"]})
    try:
        with serving(create_app(mem, worker=False)) as url, \
                httpx.Client(base_url=url, timeout=30.0) as c:
            remote = c.get("/v1/stats", headers={"X-Forwarded-For": "203.0.113.5"})
            assert remote.status_code == 401, remote.text
            assert "loopback" in remote.json()["error"]["message"]
            assert c.get("/v1/stats", headers={"X-Forwarded-For": "::1"}).status_code == 200
    finally:
        mem.close()
