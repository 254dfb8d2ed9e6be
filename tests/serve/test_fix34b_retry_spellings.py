"""A message delivered twice under an id is stored once on every surface, however the id
and the scope are spelt (session 34, fix34b): ``add_message`` trims the id and reads the
scope in the spelling the database holds (``stored_scope``), while the surfaces' look-up
before it (``serve.delivered.stored_before``) took the id as given and the scope only
checked, so the retry of ``--id " m-1"`` was refused as another message under ``'m-1'``,
and a retry in a scope an old database holds in NFD was refused on every surface."""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from typing import Any

import httpx
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.errors import ValidationError
from memlane.ingest.spellings import forget_spellings
from memlane.ingest.validate import check_label
from memlane.serve.cli import cli
from memlane.serve.http import create_app
from memlane.serve.keys import create_key
from memlane.testing import memory
from memlane.testing.http import serving
from tests.serve.test_mcp import call, over_http

PAD = st.sampled_from(["", " ", "  ", "\t", "\u00a0", "\u3000", " \t "])


def _label(s: str) -> bool:
    try:
        check_label(s, "id")
    except ValidationError:
        return False
    return True


CORE = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12
               ).filter(_label).filter(lambda s: s == s.strip())
IDS = st.tuples(PAD, CORE, PAD).map("".join)
# a scope given as the one spelling ("plain", "café" composed), with spaces around, or as an
# old database holds it ("café" decomposed, written before session 22's rule)
SCOPES = st.sampled_from(["plain", "padded", "old-nfd"])
_n = itertools.count()


def _scope(mem: Any, kind: str) -> str:
    """A fresh scope of ``kind``; an old spelling is written as an old memlane wrote it."""
    n = next(_n)
    if kind == "plain":
        return f"s{n}-café"
    if kind == "padded":
        return f"  s{n} "
    old = unicodedata.normalize("NFD", f"s{n}-café")
    mem.store.add_message(old, "user", "written before scopes were normalized", 1.7e9, gap=1800.0,
                          speaker=None, ext_id=None, agent=None, project=None, redactions=0)
    forget_spellings(mem.store)  # the server's table was read before this write
    return unicodedata.normalize("NFC", old)


def _cli(db: str, scope: str, ext_id: str) -> int:
    out = CliRunner(env={"MEMLANE_EMBEDDING_BACKEND": "hashing"}).invoke(
        cli, ["--db", db, "add", "my badge is 4471", "--scope", scope, "--id", ext_id, "--json"],
        catch_exceptions=False)
    assert out.exit_code == 0, out.output
    return int(json.loads(out.output)["id"])


def _http(url: str, key: str, scope: str, ext_id: str) -> int:
    r = httpx.post(f"{url}/v1/messages", headers={"Authorization": f"Bearer {key}"},
                   json={"scope": scope, "role": "user", "text": "my badge is 4471", "id": ext_id})
    assert r.status_code == 200, r.text
    return int(r.json()["messages"][0]["id"])


def _mcp(url: str, key: str, scope: str, ext_id: str) -> int:
    said: list[str] = []

    async def body(c: Any) -> None:
        said.append(await call(c, "remember", {"scope": scope, "role": "user",
                                               "text": "my badge is 4471", "id": ext_id}))
    over_http(url, key, body)
    return int(re.search(r"message (\d+)", said[0]).group(1))  # type: ignore[union-attr]


def test_a_second_delivery_answers_the_stored_message_on_every_surface(db_url):
    mem = memory(db_url)
    try:
        with serving(create_app(mem, worker=False)) as url:
            key = create_key(mem.store, ["*"]).key
            surfaces = {"cli": lambda s, i: _cli(db_url, s, i),
                        "http": lambda s, i: _http(url, key, s, i),
                        "mcp": lambda s, i: _mcp(url, key, s, i)}

            @settings(max_examples=8, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
            @given(ext_id=IDS, kind=SCOPES, surface=st.sampled_from(sorted(surfaces)))
            def delivered_twice(ext_id: str, kind: str, surface: str) -> None:
                scope = _scope(mem, kind)
                first = surfaces[surface](scope, ext_id)
                again = surfaces[surface](scope, ext_id)
                assert again == first, (surface, scope, ext_id)
                held = [m for s in mem.sessions(scope=scope.strip()) for m in mem.messages(s.id)
                        if m.ext_id is not None]
                assert [(m.id, m.ext_id) for m in held] == [(first, ext_id.strip())]

            delivered_twice()
    finally:
        mem.close()
