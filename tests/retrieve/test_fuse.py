import pytest

from memlane.retrieve.fuse import rrf
from memlane.retrieve.text import query_terms


def test_rrf_textbook_values():
    got = dict(rrf([[("a", 9), ("b", 5)], [("b", 0.9), ("c", 0.1)]], k=60))
    assert got["a"] == pytest.approx(1 / 61)
    assert got["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert got["c"] == pytest.approx(1 / 62)


def test_rrf_weights_and_order():
    out = rrf([[("a", 1)], [("b", 1)]], weights=[0.7, 0.3], k=60)
    assert [d for d, _ in out] == ["a", "b"]
    assert out[0][1] == pytest.approx(0.7 / 61)
    with pytest.raises(ValueError, match="weights"):
        rrf([[("a", 1)]], weights=[1, 2])


def test_query_terms_drop_stopwords_but_never_everything():
    assert query_terms("What is the name of my CAT?") == ["name", "CAT"]
    assert query_terms("cat Cat CAT") == ["cat"]
    assert query_terms("what is it") == ["what", "is", "it"]
    assert query_terms("") == []
    assert len(query_terms(" ".join(f"w{i}" for i in range(100)))) == 32
