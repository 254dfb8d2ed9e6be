"""A learned facts reader for the offline backend (session 49, docs/summary-eval.md).

The hand-written readers write a fact as subject · predicate · value where a pattern reads
one; they cannot pick *which* sentences a person would keep as facts of a conversation. This
head does: a logistic regression over the inputs the dense sentence model reads
(:mod:`memlane.index.sentmodel`) — the sentence's static vector and
:func:`memlane.index.sentmodel.cheap_features` — plus a few names for facts (the field the cue
patterns placed the sentence in, the turn's sentence count, a number, the clause count) gives
each sentence the model reads (:func:`memlane.index.sentmodel.candidates`) the probability that
it states a fact. A sentence at or over the threshold that no fact the readers wrote already
covers becomes ``Fact(<speaker>, "stated", <sentence>)`` (``stated`` is multi-valued: one
sentence never supersedes another).

Inference is numpy only; the weights (``sentmodel_facts.npz`` beside this module: a vector
over the inputs, the standardisation, the structural vocabulary and the threshold in the
metadata) are written by ``tools/train_facts_model.py`` (scikit-learn, the ``train`` extra)
and read once per process.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlane.index import sentmodel
from memlane.index.clauses import AMOUNT, CLAUSE
from memlane.index.sentclass import TurnLike
from memlane.retrieve.text import STOPWORDS

__all__ = ["SHIPPED", "FactsHead", "covered", "fact_names", "load_facts_head", "shipped_facts", "tokens"]

SHIPPED = "sentmodel_facts.npz"
"""The weights inside the package (next to this module), trained on ``dense.SETS`` by
``tools/train_facts_model.py``."""
_LOCK = threading.Lock()
_SHIPPED: list[FactsHead] = []
_WORD = re.compile(r"[a-z0-9]+")
_CLAUSE_HAS_WORD = re.compile(r"[A-Za-z0-9]")


def tokens(text: str) -> frozenset[str]:
    """Content words of a text (lower case, no stopwords): what :func:`covered` compares."""
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in STOPWORDS)


def covered(sentence: frozenset[str], objects: Sequence[frozenset[str]], least: float = 0.5) -> bool:
    """Whether one of ``objects`` holds the sentence's content: Dice ≥ ``least``."""
    if not sentence:
        return True
    n = len(sentence)
    return any(o and 2 * len(sentence & o) / (n + len(o)) >= least for o in objects)


def fact_names(turns: Sequence[TurnLike], where: Sequence[tuple[int, int]],
               placed: dict[tuple[int, int], str],
               known: dict[tuple[int, int], tuple[np.ndarray, list[str]]] | None = None) -> list[list[str]]:
    """The structural names of each sentence at ``where``: :func:`sentmodel.cheap_features`
    (those in ``known`` already, as the dense model read them) and the names for facts."""
    team = len({t.who for t in turns if t.role == "user"}) > 1
    sides: dict[int, Any] = {}
    out = []
    for ti, si in where:
        s = turns[ti].sentences[si]
        had = known.get((ti, si)) if known else None
        row = list(had[1]) if had is not None else sentmodel.cheap_features(turns, ti, si, team, sides)
        row.append(f"placed={placed.get((ti, si))}")
        row.append(f"nsent={min(len(turns[ti].sentences), 9)}")
        if AMOUNT.search(s):
            row.append("amount")
        parts = [c for c in CLAUSE.split(s.rstrip(".!")) if _CLAUSE_HAS_WORD.search(c)]
        row.append(f"nclause={min(len(parts), 5)}")
        out.append(row)
    return out


class FactsHead:
    """Standardised inputs (the sentence's vector, the one-hot names), then a logistic
    regression: ``sigmoid(((x - mean) / scale) @ w + b)``."""

    def __init__(self, vocab: Sequence[str], arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.vocab = list(vocab)
        self.index = {n: i for i, n in enumerate(self.vocab)}
        self.arrays = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
        self.meta = dict(meta)
        self.threshold = float(self.meta.get("threshold", 0.6))
        self.dim = int(self.meta.get("dim", 256))
        if self.arrays["mean"].shape[0] != self.dim + len(self.vocab) or self.arrays["w"].shape != self.arrays["mean"].shape:
            raise ValueError(f"facts head: {self.arrays['mean'].shape[0]} columns for {len(self.vocab)} names")

    def inputs(self, vectors: np.ndarray, names: Sequence[Sequence[str]]) -> np.ndarray:
        x = np.zeros((len(names), self.dim + len(self.vocab)), dtype=np.float32)
        x[:, : self.dim] = vectors
        get = self.index.get
        for r, row in enumerate(names):
            for n in row:
                j = get(n)
                if j is not None:
                    x[r, self.dim + j] = 1.0
        return x

    def probabilities_of(self, x: np.ndarray) -> np.ndarray:
        a = self.arrays
        z = ((x - a["mean"]) / a["scale"]) @ a["w"] + float(a["b"][0])
        return 1.0 / (1.0 + np.exp(-z))

    def read(self, turns: Sequence[TurnLike], placed: dict[tuple[int, int], str],
             known: dict[tuple[int, int], tuple[np.ndarray, list[str]]] | None = None,
             skip: Callable[[str], bool] | None = None) -> list[tuple[tuple[int, int], float]]:
        """Each sentence the model reads and its probability of stating a fact. ``known``:
        the static vectors and cheap feature names the dense sentence model computed for the
        sentences it read (:meth:`memlane.index.sentmodel.DenseSentenceModel.classify`'s
        ``inputs``), not computed again; ``skip``: sentences given no probability (their rows
        stay zero, which leaves the others' probabilities as they are) and left out."""
        where = sentmodel.candidates(turns)
        if not where:
            return []
        rows = [i for i, (ti, si) in enumerate(where) if skip is None or not skip(turns[ti].sentences[si])]
        if not rows:
            return []
        read = [where[i] for i in rows]
        vectors = np.zeros((len(where), self.dim), dtype=np.float32)
        names: list[list[str]] = [[] for _ in where]
        for i, row in zip(rows, fact_names(turns, read, placed, known), strict=True):
            names[i] = row
        new = [i for i in rows if not known or where[i] not in known]
        if known:
            for i in rows:
                had = known.get(where[i])
                if had is not None:
                    vectors[i] = had[0]
        if new:
            vectors[new] = sentmodel.default_embedder().embed_batch(
                [turns[where[i][0]].sentences[where[i][1]] for i in new])
        p = self.probabilities_of(self.inputs(vectors, names))
        return [(where[i], float(p[i])) for i in rows]

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        with target.open("wb") as fh:
            np.savez_compressed(fh, vocab=np.array(self.vocab, dtype=np.str_),
                                meta=np.array(json.dumps(self.meta, sort_keys=True)), **self.arrays)
        return target


def load_facts_head(path: str | Path) -> FactsHead:
    """The head whose weights :meth:`FactsHead.save` wrote to ``path``."""
    with np.load(Path(path), allow_pickle=False) as data:
        arrays = {k: data[k] for k in ("mean", "scale", "w", "b")}
        return FactsHead([str(x) for x in data["vocab"]], arrays, json.loads(str(data["meta"])))


def shipped_facts() -> FactsHead:
    """The head whose weights ship in the package, read once per process."""
    with _LOCK:
        if not _SHIPPED:
            from importlib import resources

            with resources.as_file(resources.files("memlane.index") / SHIPPED) as path:
                _SHIPPED.append(load_facts_head(path))
        return _SHIPPED[0]
