"""``any_item(f)`` is ``bool(filter_ids(f))`` on every store, over random contents and
filters (session 34: callers that only asked whether an item passes a filter read every
id it passes; ``any_item`` reads at most one row)."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.store import Filters
from memlane.types import LANES, PRIVACIES

_scopes = itertools.count()
labels = st.sampled_from(["a", "b", None])
times = st.sampled_from([100.0, 200.0, 300.0])
rows = st.lists(st.fixed_dictionaries({
    "kind": st.sampled_from(["turn", "note", "fact"]),
    "text": st.just("x"),
    "at": times,
    "agent": labels,
    "project": labels,
    "lane": st.sampled_from(LANES[:3]),
    "privacy": st.sampled_from(PRIVACIES),
    "status": st.sampled_from(["active", "superseded"]),
}), max_size=5)
subsets = lambda values: st.none() | st.lists(st.sampled_from(values), unique=True).map(tuple)  # noqa: E731
filters = st.fixed_dictionaries({
    "agent": labels,
    "project": labels,
    "kinds": subsets(["turn", "note", "fact", "summary"]),
    "lanes": subsets(list(LANES[:3])),
    "privacy": st.lists(st.sampled_from(PRIVACIES), unique=True).map(tuple),
    "since": st.none() | times,
    "until": st.none() | times,
    "status": st.sampled_from(["active", "superseded"]),
    "own_scope": st.sampled_from([True, False, None]),  # this example's scope, another, any
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(contents=rows, f=filters)
def test_any_item_is_whether_filter_ids_has_one(store, contents, f):
    scope = f"s{next(_scopes)}"
    with store.atomic():
        store.insert_items([{**r, "scope": scope} for r in contents])
    own = f.pop("own_scope")
    flt = Filters(scope=scope if own else (None if own is None else "nowhere"), **f)
    assert store.any_item(flt) == bool(store.filter_ids(flt))
    if own:  # the example's own scope: the filter's answer follows from the rows alone
        assert store.any_item(flt) == any(
            r["status"] == f["status"] and r["privacy"] in f["privacy"]
            and all(f[k] is None or r[k] == f[k] for k in ("agent", "project"))
            and (f["kinds"] is None or r["kind"] in f["kinds"])
            and (f["lanes"] is None or r["lane"] in f["lanes"])
            and (f["since"] is None or r["at"] >= f["since"])
            and (f["until"] is None or r["at"] <= f["until"]) for r in contents)
