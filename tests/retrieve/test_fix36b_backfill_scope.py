"""``MeaningTier``'s walk of one scope takes the scope as every surface does (session 36,
fix36b): ``backfill(scope=…)`` took it as given, so a scope spelt otherwise than the
database holds it ("café" typed decomposed) walked nothing, and with a scope holding
nothing each round took the lease, walked, and deleted the walk's row (rev35's rule), never
resting; a lone surrogate raised ``UnicodeEncodeError`` hashing the scope for the walk's
key. Now the scope is ``resolve_scope``'s: a bad one is a ``ValidationError`` naming
``scope`` (``backfill``, ``warm_all``, ``walk_size``, ``reset_walk``), an empty one is not
walked (no lease, no write), another spelling walks the stored scope."""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.config import load_config
from memlane.errors import ValidationError
from memlane.ingest.validate import check_scope
from memlane.memory import Memory
from memlane.retrieve.meaning import MeaningTier
from memlane.testing import HashingEmbedder, add_sessions, memory

from tests.retrieve.test_meaning import NOW, SESSIONS

_seeds = itertools.count(36_200)
CAFE = unicodedata.normalize("NFC", "café")


def test_another_spelling_walks_the_stored_scope(db_url: str) -> None:
    with add_sessions(memory(db_url), SESSIONS, now=NOW, scope=CAFE) as m:
        spelt = unicodedata.normalize("NFD", CAFE)
        tier = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        assert tier.walk_size(m.store, spelt) == tier.walk_size(m.store, CAFE) > 0
        assert tier.backfill(m.store, 10_000, scope=spelt) > 0
        other = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        assert other.warm_all(m.store, scope=f" {spelt} ") == tier.computed


def test_a_scope_holding_nothing_is_not_walked(tmp_path: Path) -> None:
    writes: list[str] = []

    def tracer(kind: str, sql: str, _params: Any) -> None:
        if kind == "sql" and sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            writes.append(sql)

    config = load_config(environ={}, overrides={"db": str(tmp_path / "m.db")})
    mem = Memory(config=config, embedder=HashingEmbedder(dim=64), tracer=tracer)
    with add_sessions(mem, SESSIONS, now=NOW, scope="alice") as m:
        writes.clear()
        tier = MeaningTier(HashingEmbedder(dim=8, seed=next(_seeds)))
        for _ in range(3):
            assert tier.backfill(m.store, 100, scope="nobody") == 0
        assert writes == []
        assert tier.backfill(m.store, 100, scope="alice") > 0  # the tracer sees writes
        assert writes


_bad = st.one_of(
    st.text(min_size=1, max_size=6).map(lambda t: t + "\ud800"),
    st.sampled_from(["", "   ", "team\u200b", "a\nb", "x" * 300]),
    st.integers(), st.none().map(lambda _: b"alice"),
).filter(lambda s: _refused(s))


def _refused(scope: Any) -> bool:
    try:
        check_scope(scope)
    except ValidationError:
        return True
    return False


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scope=_bad)
def test_a_bad_scope_is_refused_naming_scope(tmp_path: Path, scope: Any) -> None:
    tier = MeaningTier(HashingEmbedder(dim=8, seed=1))
    with memory(tmp_path / "bad.db") as m:
        m.add_message("alice", "user", "I moved to Lisbon in March")
        for call in (lambda: tier.backfill(m.store, 10, scope=scope),
                     lambda: tier.warm_all(m.store, scope=scope),
                     lambda: tier.walk_size(m.store, scope),
                     lambda: tier.reset_walk(m.store, scope)):
            with pytest.raises(ValidationError) as refused:
                call()
            assert refused.value.field == "scope", refused.value
