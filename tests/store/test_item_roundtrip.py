"""Hypothesis: any item the store accepts comes back equal."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memlane.store import open_store
from memlane.types import DURABILITIES, LANES, PRIVACIES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=200)

items = st.fixed_dictionaries({
    "kind": st.sampled_from(["turn", "fact", "note", "summary"]),
    "text": texts,
    "at": st.floats(0, 4e9, allow_nan=False),
    "scope": st.text(min_size=1, max_size=30),
    "keywords": st.lists(st.text(max_size=15), max_size=5),
    "entities": st.lists(st.text(max_size=15), max_size=5),
    "durability": st.sampled_from(DURABILITIES),
    "lane": st.sampled_from(LANES),
    "privacy": st.sampled_from(PRIVACIES),
    "trust": st.floats(0, 1),
    "extra": st.dictionaries(st.text(max_size=8), json_values, max_size=4),
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=items)
def test_item_round_trip(tmp_path, row):
    s = open_store(tmp_path / "rt.db")
    try:
        with s.atomic():
            (iid,) = s.insert_items([row])
        it = s.get_item(iid)
        assert (it.kind, it.text, it.scope, it.durability, it.lane, it.privacy) == (
            row["kind"], row["text"], row["scope"], row["durability"], row["lane"], row["privacy"])
        assert abs(it.at.timestamp() - row["at"]) <= 1e-6 and it.trust == row["trust"]  # datetime: µs
        assert list(it.keywords) == row["keywords"] and list(it.entities) == row["entities"]
        assert it.extra == row["extra"]
        s.delete_item(iid)
    finally:
        s.close()
