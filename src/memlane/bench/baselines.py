"""The baselines run beside memlane on the same data.

- ``bm25``: LongMemEval's official flat-BM25 setup, with bm25s (Lucene BM25, k1=1.5,
  b=0.75; lowercased, English stop words removed, Snowball-stemmed): at session
  granularity each document is a session's user turns joined by spaces; at turn
  granularity each document is one user turn.
- ``dense``: the embedder alone: cosine between the question and every turn (user and
  assistant, the corpus memlane indexes); a session scores the max over its turns, which is
  the first-occurrence order of the turn ranking. No lexical part, no fusion.

Rankers return ids best first; ties keep corpus order.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from memlane.protocols import Embedder

__all__ = ["BASELINES", "BM25Ranker", "DenseRanker"]

BASELINES = ("bm25", "dense")


class BM25Ranker:
    """Ranks a small corpus with BM25 (bm25s + PyStemmer), built per query."""

    name = "bm25"

    def __init__(self) -> None:
        try:
            import bm25s
            import Stemmer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            from memlane.errors import BackendUnavailable

            raise BackendUnavailable(
                "the bm25 baseline needs bm25s and PyStemmer: pip install 'memlane[bench]'"
            ) from exc
        self._bm25s = bm25s
        self._stemmer = Stemmer.Stemmer("english")

    def _tokenize(self, texts: Sequence[str]) -> list[list[str]]:
        tokens = self._bm25s.tokenize(
            list(texts),
            lower=True,
            stopwords="en",
            stemmer=self._stemmer,
            return_ids=False,
            show_progress=False,
        )
        return [list(t) for t in tokens]

    def scores(self, docs: Sequence[str], query: str) -> np.ndarray:
        """BM25 score of every document for the query (zeros when nothing can match)."""
        if not docs:
            return np.zeros(0, dtype=np.float32)
        corpus = self._tokenize(docs)
        query_tokens = self._tokenize([query])[0]
        if not query_tokens or not any(corpus):
            return np.zeros(len(docs), dtype=np.float32)
        retriever = self._bm25s.BM25()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # bm25s warns about empty documents
            retriever.index(corpus, show_progress=False)
            return np.asarray(retriever.get_scores(query_tokens), dtype=np.float32)

    def rank(self, docs: Sequence[str], ids: Sequence[str], query: str) -> list[str]:
        """``ids`` ordered by descending BM25 score (stable)."""
        if len(docs) != len(ids):
            raise ValueError("docs and ids differ in length")
        s = self.scores(docs, query)
        order = np.argsort(-s, kind="stable")
        return [ids[i] for i in order]


class DenseRanker:
    """Cosine over unit vectors from one embedder (share a cached embedder across calls)."""

    name = "dense"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def rank(self, docs: Sequence[str], ids: Sequence[str], query: str) -> list[str]:
        if len(docs) != len(ids):
            raise ValueError("docs and ids differ in length")
        if not docs:
            return []
        doc_vecs = np.asarray(self.embedder.embed_batch(list(docs)), dtype=np.float32)
        q = np.asarray(self.embedder.embed_batch([query]), dtype=np.float32)[0]
        s = doc_vecs @ q
        order = np.argsort(-s, kind="stable")
        return [ids[i] for i in order]
