"""The dense sentence model's logistic regression fitted in numpy (session 35,
``summaries.logistic``): it reaches the minimum of scikit-learn's objective (the balanced
log loss plus ‖W‖²/2C), so that ``--train`` needs no scikit-learn for the shipped model."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memlane.bench.summaries.logistic import fit_balanced


def _objective(x: np.ndarray, y: np.ndarray, c: float, w: np.ndarray, b: np.ndarray) -> float:
    """scikit-learn's objective, written out plainly: C Σ weight·log loss + ½‖W‖²."""
    classes, counts = np.unique(y, return_counts=True)
    weight = {k: len(y) / (len(classes) * n) for k, n in zip(classes, counts, strict=True)}
    logits = x @ w.T + b
    total = 0.0
    for row, label in zip(logits, y, strict=True):
        j = int(np.searchsorted(classes, label))
        total += weight[label] * (np.log(np.exp(row - row.max()).sum()) + row.max() - row[j])
    return c * total + 0.5 * float((w * w).sum())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(8, 60), d=st.integers(1, 6),
       k=st.integers(2, 4), c=st.sampled_from([0.001, 0.1, 1.0, 10.0]))
def test_the_fit_is_the_objectives_minimum(seed: int, n: int, d: int, k: int, c: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    y = rng.integers(0, k, size=n)
    y[:2] = [0, k - 1]  # at least two classes
    classes, w, b = fit_balanced(x, y, c)
    assert list(classes) == sorted(set(y.tolist()))
    assert w.shape == (len(classes), d) and b.shape == (len(classes),)
    assert abs(b.sum()) < 1e-9  # the intercepts centred, as scikit-learn leaves them
    best = _objective(x, y, c, w, b)
    for _ in range(20):  # no nearby point is lower
        dw = rng.normal(scale=1e-3, size=w.shape)
        db = rng.normal(scale=1e-3, size=b.shape)
        assert _objective(x, y, c, w + dw, b + db) >= best - 1e-9


def test_a_separating_feature_gets_the_weight_and_balance_counts_the_rare_class() -> None:
    x = np.array([[1.0], [1.0], [1.0], [1.0], [1.0], [1.0], [-1.0], [-1.0]])
    y = np.array([0, 0, 0, 0, 0, 0, 1, 1])
    classes, w, b = fit_balanced(x, y, 1.0)
    assert list(classes) == [0, 1]
    assert w[0, 0] > 0 > w[1, 0]  # the feature says class 0
    # balanced: the rare class's two samples weigh as much as the six others together,
    # so the two classes are told apart symmetrically (no intercept favours either)
    assert abs(b[0]) < 1e-6
