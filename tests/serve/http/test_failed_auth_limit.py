"""Failed authentications slowed per client address (session 28). A key's requests were
limited (``serve.rate_limit``), an unknown key's were not: a client guessing keys got 401s
as fast as it could send them. Past ``serve.failed_auth_limit`` (and its burst), every
request from that address gets 429 with ``Retry-After`` and its keys are not looked up,
while other addresses are served as before; the addresses remembered are bounded
(``serve.failed_auth_addresses``). Clients connect from other loopback addresses
(127.0.0.0/8) to a real service on 127.0.0.1."""

from __future__ import annotations

import re
import secrets

import httpx

from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving

# one failure back every 1,000 s: the flood's bucket does not refill while a test runs
SLOW = {"failed_auth_limit": 0.001, "failed_auth_burst": 5}


def _from(address: str, url: str, key: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=url, headers=headers, timeout=30.0,
                        transport=httpx.HTTPTransport(local_address=address))


def test_a_flood_of_bad_keys_gets_429_while_a_good_key_elsewhere_gets_200(tmp_path) -> None:
    mem = memory(tmp_path / "m.db", serve=SLOW)
    try:
        good = create_key(mem.store, "*").key
        with serving(create_app(mem, worker=False)) as url, \
                _from("127.0.0.3", url) as flood, _from("127.0.0.4", url, good) as other:
            codes = []
            for _ in range(30):
                r = flood.get("/v1/stats", headers={"Authorization":
                                                    f"Bearer ml_{secrets.token_hex(16)}"})
                codes.append(r.status_code)
            assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes
            assert int(r.headers["Retry-After"]) >= 1
            assert r.json()["error"]["field"] == "Authorization"
            # the flooding address is refused before its key is looked up, a good one too
            refused = flood.get("/v1/stats", headers={"Authorization": f"Bearer {good}"})
            assert refused.status_code == 429
            # the inspector's sign-in form is the same guess, limited the same way
            token = re.search(r'name="csrf" value="([^"]+)"', flood.get("/ui/login").text)
            assert token is not None
            signin = flood.post("/ui/login", data={"key": "ml_guess", "csrf": token[1]})
            assert signin.status_code == 429
            assert int(signin.headers["Retry-After"]) >= 1  # the form's 429 says when, too
            assert other.get("/v1/stats").status_code == 200
        # no key at all (an open browser tab) is no guess: never counted
        with serving(create_app(mem, worker=False)) as url, _from("127.0.0.5", url) as bare:
            assert [bare.get("/v1/stats").status_code for _ in range(10)] == [401] * 10
    finally:
        mem.close()


def test_the_addresses_remembered_are_bounded(tmp_path) -> None:
    mem = memory(tmp_path / "m.db", serve={**SLOW, "failed_auth_addresses": 20})
    try:
        create_key(mem.store, "*")
        app = create_app(mem, worker=False)
        with serving(app) as url:
            for i in range(60):
                with _from(f"127.0.1.{i + 1}", url, "ml_wrong") as c:
                    assert c.get("/v1/stats").status_code == 401
            assert len(app.state.failed_auth) == 20
            # the most recent failures are the ones kept: that address is still slowed
            with _from("127.0.1.60", url, "ml_wrong") as c:
                for _ in range(5):
                    c.get("/v1/stats")
                assert c.get("/v1/stats").status_code == 429
    finally:
        mem.close()
