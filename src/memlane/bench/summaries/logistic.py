"""A class-balanced multinomial logistic regression fitted in numpy (the dense sentence
model's, :func:`memlane.bench.summaries.dense.fit`), so that training it needs no
scikit-learn.

It minimises what scikit-learn's ``LogisticRegression(C=c, class_weight="balanced")`` with
the ``lbfgs`` solver minimises: the balanced-weighted multinomial log loss plus ``‖W‖² / 2c``,
the intercepts not penalised. The objective is strictly convex in the weights, so its
minimum is one point whatever solver reaches it; the intercepts, fixed only up to a common
constant (the probabilities do not change), are centred on zero as scikit-learn leaves them.
The solver is L-BFGS with a backtracking line search, run until the gradient's largest
component is below ``tol`` (the objective divided by the weights' sum, as scikit-learn's) or
a step no longer lowers the objective beyond rounding.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fit_balanced"]

_FTOL = 64 * np.finfo(float).eps
"""A step that lowers the objective by less than this share of it ends the fit (scipy's
L-BFGS-B ``ftol`` as scikit-learn runs it): the gradient's last digits are rounding."""


def _objective(params: np.ndarray, x: np.ndarray, onehot: np.ndarray, sw: np.ndarray,
               reg: float) -> tuple[float, np.ndarray]:
    k = onehot.shape[1]
    w = params[:-k].reshape(x.shape[1], k)
    b = params[-k:]
    logits = x @ w + b
    top = logits.max(axis=1, keepdims=True)
    shifted = logits - top
    lse = np.log(np.exp(shifted).sum(axis=1))
    loss = float(sw @ (lse - (shifted * onehot).sum(axis=1))) + 0.5 * reg * float((w * w).sum())
    p = np.exp(shifted - lse[:, None])
    d = sw[:, None] * (p - onehot)
    grad = np.concatenate([(x.T @ d + reg * w).ravel(), d.sum(axis=0)])
    return loss, grad


def fit_balanced(x: np.ndarray, y: np.ndarray, c: float, tol: float = 1e-9,
                 max_iter: int = 5000, memory: int = 20) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classes present in ``y`` (sorted), the weights (classes × features) and the
    intercepts of the model fitted on ``x`` (samples × features) with inverse
    regularisation ``c``; each sample weighted ``n / (classes × its class's count)``."""
    classes, index, counts = np.unique(y, return_inverse=True, return_counts=True)
    n, k = len(y), len(classes)
    sw = (n / (k * counts))[index] / n  # the weights sum to one: scikit-learn's scale
    onehot = np.zeros((n, k))
    onehot[np.arange(n), index] = 1.0
    reg = 1.0 / (c * n)
    x = np.asarray(x, dtype=float)
    params = np.zeros(x.shape[1] * k + k)
    loss, grad = _objective(params, x, onehot, sw, reg)
    steps: list[np.ndarray] = []
    turns: list[np.ndarray] = []
    for _ in range(max_iter):
        if np.abs(grad).max() < tol:
            break
        q = grad.copy()
        alphas = []
        for s, t in zip(reversed(steps), reversed(turns), strict=True):
            a = float(s @ q) / float(t @ s)
            alphas.append(a)
            q -= a * t
        if steps:
            q *= float(steps[-1] @ turns[-1]) / float(turns[-1] @ turns[-1])
        for (s, t), a in zip(zip(steps, turns, strict=True), reversed(alphas), strict=True):
            q += (a - float(t @ q) / float(t @ s)) * s
        direction = -q
        slope = float(grad @ direction)
        if slope >= 0:  # not a descent direction: start the memory again
            steps.clear()
            turns.clear()
            direction, slope = -grad, -float(grad @ grad)
        size = 1.0
        while True:
            trial = params + size * direction
            new_loss, new_grad = _objective(trial, x, onehot, sw, reg)
            if new_loss <= loss + 1e-4 * size * slope or size < 1e-12:
                break
            size *= 0.5
        s, t = trial - params, new_grad - grad
        if float(s @ t) > 1e-18:
            steps.append(s)
            turns.append(t)
            if len(steps) > memory:
                steps.pop(0)
                turns.pop(0)
        still = loss - new_loss > _FTOL * max(abs(loss), abs(new_loss), 1.0)
        if new_loss <= loss:
            params, loss, grad = trial, new_loss, new_grad
        if not still:
            break  # no step lowers the loss any more: at the minimum as far as floats go
    w = params[:-k].reshape(x.shape[1], k)
    b = params[-k:]
    return classes, w.T.copy(), b - b.mean()
