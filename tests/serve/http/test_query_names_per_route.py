"""Each route of each app knows its own query parameters (session 31): the names were cached
by ``id(route)``, and a route of an app made after another was collected could take the old
one's id and its names (``GET /v1/facts?offset=0`` refused: "unknown query parameter (this
route takes predicate, scope, subject)", facts.history's; test_listing_auth failed so in
the integration CI)."""

import gc

import httpx

from memlane import Memory
from memlane.serve.http import create_app
from memlane.testing.http import serving


def test_apps_made_one_after_another_each_take_their_own_routes_parameters(tmp_path):
    mem = Memory(str(tmp_path / "m.db"))
    try:
        for _ in range(12):  # each app served, asked, then dropped: its routes' ids come free
            with serving(create_app(mem, worker=False)) as url:
                history = httpx.get(f"{url}/v1/facts/history", params={"subject": "x", "predicate": "likes"})
                assert history.status_code == 200, history.text
                facts = httpx.get(f"{url}/v1/facts", params={"offset": 0, "limit": 1})
                assert facts.status_code == 200, facts.text
                wrong = httpx.get(f"{url}/v1/facts/history", params={"subject": "x", "predicate": "likes", "offset": 0})
                assert wrong.status_code == 422 and wrong.json()["error"]["field"] == "offset"
            gc.collect()
    finally:
        mem.close()
