"""A dense sentence model for the offline summary's fields (session 9).

The linear classifier of :mod:`memlane.index.sentclass` reads hashed words: trained on a
few hundred sentences it learned the words of its training set, not what a decision looks
like. This model reads features meant to carry to new wordings:

- the sentence's vector from memlane's default static embedder
  (:class:`memlane.backends.embed.static.StaticEmbedder`, the table retrieval uses: words
  of like meaning have like vectors);
- the vectors of the previous and the next turn of another speaker (their first
  :data:`NEIGHBOUR_SENTENCES` sentences): what the sentence answers and how it was taken;
- the structural features of :func:`memlane.index.sentclass.features` without its word
  identities: who speaks, position, a question, a proposal / agreement / request before or
  after, which cue patterns match, modal and person words.

A small multinomial logistic regression or one-hidden-layer network (trained with
scikit-learn, the ``train`` extra, by ``memlane bench summaries --train``) maps them to
:data:`LABELS`. Inference is numpy only: the weights are an ``.npz`` file (float32 arrays,
the structural vocabulary and the metadata as JSON text), read without pickle.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memlane.index import cues as c
from memlane.index.sentclass import _MODALS, _PERSON, LABELS, TurnLike, features

__all__ = ["LABELS", "VECTORS", "DenseSentenceModel", "default_embedder", "load_dense",
           "sentence_inputs", "shipped", "vectors_embedder"]

NEIGHBOUR_SENTENCES = 3
"""Sentences of a neighbouring turn whose joined text is embedded."""
_WORDLY = ("u=", "b=", "w0=", "f0=")
"""Prefixes of :func:`features` names that are word identities (left to the vectors)."""
MAX_CHARS = 240
"""Longer sentences are not read by the model (pasted text, paragraphs: the patterns' part)."""
MAX_SENTENCES = 8
"""Sentences of a turn past which the model reads none of it (a long message or answer is
not an exchange; on benchmark sessions most of the text is such turns)."""
ASSISTANT_LEAD = 2
"""Sentences of an answer the model reads (its opening)."""
_DIGIT = re.compile(r"\d")
_LOCK = threading.Lock()
_EMBEDDER: list[Any] = []
SHIPPED = "sentmodel.npz"
"""The weights inside the package (next to this module): trained on every development set
(1,287 conversations since session 35, C 0.003: ``dense.SETS``, ``dense.FIT``; 867 from session 22,
retrained on the same sets in sessions 23 and 26) by ``memlane bench summaries --train``, the offline backend's default since session 14
(``summary.sentence_model``)."""
SHIPPED_MEANING = "sentmodel_meaning.npz"
"""The weights of the same model reading the meaning tier's vectors beside the static ones
(``vectors`` ``both``, which beat the meaning vectors alone), trained on session 22's 867
conversations with C 0.001 (not retrained in session 35) by ``memlane bench summaries --train
--vectors both``: the offline backend's when
``summary.sentence_vectors = "meaning"`` (session 31, docs/summary-eval.md)."""
_SHIPPED_FILES = {"static": SHIPPED, "meaning": SHIPPED_MEANING}
_SHIPPED_BY: dict[str, Any] = {}


class Embedder(Protocol):
    dim: int

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray: ...


def default_embedder() -> Embedder:
    """The process's static embedder (its table loads on first use)."""
    with _LOCK:
        if not _EMBEDDER:
            from memlane.backends.embed.static import StaticEmbedder

            _EMBEDDER.append(StaticEmbedder())
        return _EMBEDDER[0]


VECTORS = ("static", "meaning", "both")
"""Where a model's sentence vectors come from (its ``vectors`` metadata): ``static`` the
default static embedder (256 numbers), ``meaning`` the meaning tier's transformer
(all-MiniLM-L6-v2 int8 on onnxruntime, the ``meaning`` extra; 384 numbers), ``both`` the
two side by side (640)."""
_BY_KIND: dict[str, Any] = {}


class _Joined:
    """Two embedders' vectors side by side."""

    def __init__(self, *parts: Embedder) -> None:
        self.parts = parts
        self.dim = sum(p.dim for p in parts)

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        return np.hstack([p.embed_batch(texts) for p in self.parts]).astype(np.float32)


def vectors_embedder(kind: str) -> Embedder:
    """The process's embedder for a model's ``vectors`` (:data:`VECTORS`); ``meaning`` and
    ``both`` need the ``meaning`` extra (``BackendUnavailable`` naming it otherwise)."""
    if kind not in VECTORS:
        raise ValueError(f"sentence vectors must be one of {', '.join(VECTORS)}, got {kind!r}")
    if kind == "static":
        return default_embedder()
    with _LOCK:
        if "meaning" not in _BY_KIND:
            from memlane.backends.embed.onnx import OnnxMiniLMEmbedder, onnx_model_path

            onnx_model_path()  # BackendUnavailable when the int8 model is not installed
            _BY_KIND["meaning"] = OnnxMiniLMEmbedder(threads=1)
        meaning: Embedder = _BY_KIND["meaning"]
    return meaning if kind == "meaning" else _Joined(default_embedder(), meaning)


def candidates(turns: Sequence[TurnLike], most: int = MAX_SENTENCES) -> list[tuple[int, int]]:
    """The sentences the model reads: those of a participant's turn and the first
    :data:`ASSISTANT_LEAD` of an answer, in turns of at most ``most`` sentences (a model's
    ``max_sentences``, :data:`MAX_SENTENCES` when it names none), none longer than
    :data:`MAX_CHARS` characters."""
    out: list[tuple[int, int]] = []
    for ti, t in enumerate(turns):
        if len(t.sentences) > most:
            continue
        sents = t.sentences if t.role == "user" else t.sentences[:ASSISTANT_LEAD]
        out.extend((ti, si) for si, s in enumerate(sents) if len(s) <= MAX_CHARS)
    return out


def cheap_features(turns: Sequence[TurnLike], ti: int, si: int, team: bool,
                   sides: dict[int, list[tuple[str, list[str], bool, list[str]]]] | None = None,
                   reach: int = 0, seen: dict[int, list[str]] | None = None) -> list[str]:
    """Structural features that need no pattern search: who speaks, where, a question or
    an exclamation, length, a number, an imperative first word, modal and person words, and
    of the neighbouring turns of other speakers who they are, whether they ask, whether
    they are a bare acknowledgement and how the next one takes what was said (``sides``:
    those of each turn's neighbours, filled as needed, shared by the turn's sentences;
    ``reach``: also a neighbouring turn's bare "Done." and non-answer in its first ``reach``
    sentences — :func:`_neighbour_cues`; 0: none; ``seen``: those of each
    neighbouring turn, filled as needed, shared by the turns it neighbours)."""
    turn = turns[ti]
    sents = turn.sentences
    s = sents[si]
    role = "u" if turn.role == "user" else "a"
    out = [f"role={role}", f"team={team}", f"s0={si == 0}", f"slast={si == len(sents) - 1}",
           f"t0={ti == 0}", f"tlast={ti == len(turns) - 1}"]
    end = s[-1:]
    out.append(f"end={end if end in '?!.' else '-'}:{role}")
    words = c.words_of(s)
    content = [w for w in words if w not in c._STOP]
    out.append(f"len={min(len(content), 9)}")
    if _DIGIT.search(s):
        out.append("digit")
    if words:
        first = c.clean(s).split(maxsplit=1)
        head = first[0].lower().strip(",.!?") if first else words[0]
        if head in c._IMPERATIVE and end != "?":
            out.append(f"imp:{role}")
    out.extend(f"m={w}" for w in dict.fromkeys(words) if w in _MODALS or w in _PERSON)
    if len(s) <= c._SHORT and c._COURTESY.issuperset(words):  # c.is_courtesy(s)
        out.append("courtesy")
    if si and sents[si - 1].endswith("?"):
        out.append("after_q")
    if sides is None:
        sides = {}
    if ti not in sides:
        sides[ti] = _sides(turns, ti, reach, {} if seen is None else seen)
    for tag, base, ack, took in sides[ti]:
        out.extend(base)
        if ack:
            out.append(f"{tag}:ack:{role}:{'q' if end == '?' else 's'}")
        out.extend(f"n:{x}:{role}" if not x.startswith("said:") else
                   f"n:{x[5:]}:{role}:{'q' if end == '?' else 's'}" for x in took)
    return out


def _sides(turns: Sequence[TurnLike], ti: int, reach: int = 0,
           seen: dict[int, list[str]] | None = None
           ) -> list[tuple[str, list[str], bool, list[str]]]:
    """Of the previous and the next turn of another speaker: the tag, the features that do
    not depend on the sentence, whether it is a bare acknowledgement, how it takes what was
    said (:func:`_agreement`, the next turn only; with ``reach``, also whether it does not
    answer or is a bare "Done.", as ``said:NAME``: those depend on the sentence's role and
    whether it asks)."""
    out = []
    for step, tag in ((-1, "p"), (1, "n")):
        n = _neighbour(turns, ti, step)
        if n is None:
            out.append((tag, [f"{tag}:none"], False, []))
            continue
        other = turns[n].sentences
        base = [f"{tag}:r={turns[n].role}"]
        if other and other[0].endswith("?"):
            base.append(f"{tag}:q0")
        if other and other[-1].endswith("?"):
            base.append(f"{tag}:qlast")
        ack = bool(other and len(other[0]) <= c._SHORT and c.is_courtesy(other[0]))
        if ack:
            base.append(f"{tag}:ack")
        took = _agreement(turns[n]) if tag == "n" and other else []
        if reach and other:
            if seen is None:
                seen = {}
            if n not in seen:
                seen[n] = _neighbour_cues(other, reach)
            cues = seen[n]
            base.extend(f"{tag}:{x}" for x in cues)
            if tag == "n":
                took.extend(f"said:{x}" for x in cues if x in ("nonanswer", "doneword"))
        out.append((tag, base, ack, took))
    return out


def _neighbour_cues(sentences: Sequence[str], reach: int) -> list[str]:
    """Of the cue patterns :func:`memlane.index.sentclass.features` searches in a
    neighbouring turn, those that carried in session 15's cross-validation: a bare "Done.",
    and a non-answer ("not sure", "let's see", "depends on") in its first ``reach``
    sentences — a question the next turn leaves open. (A proposal, a request and a thing
    done as well gained no more and cost more.)"""
    out = ["doneword"] if c._DONE_WORD.match(sentences[0]) else []
    if c._NON_ANSWER.search(" ".join(sentences[:reach])):
        out.append("nonanswer")
    return out


def _agreement(turn: TurnLike) -> list[str]:
    """How the next turn of another speaker takes what was said (session 14): its opening
    agrees ("Agreed.", "Sounds good"), agrees more strongly ("I can live with that"),
    accepts an offer ("Yes please"), takes advice ("I'll try that"); and whether it is that
    alone (one sentence) or goes on."""
    first = turn.sentences[0]
    out = [name for name, pattern in (("agree", c._AGREE), ("agreemore", c._AGREE_MORE),
                                      ("accept", c._ACCEPT), ("advice", c._TAKE_ADVICE))
           if pattern.match(first)]
    if out:
        out.append("took:alone" if len(turn.sentences) == 1 else "took:more")
    return out


def placement_features(turns: Sequence[TurnLike], ti: int, si: int,
                       placed: dict[tuple[int, int], str]) -> list[str]:
    """Where the sentence stands to what the cue patterns placed (session 14): the fields
    they filled in the conversation, in the sentence's own turn, in the previous and the
    next turn of another speaker, and in the sentence just before; "pp:nothing" when they
    placed nothing at all."""
    if not placed:
        return ["pp:nothing"]
    def field(name: str) -> str:
        return "next_steps" if name == "action_items" else name
    out = {f"pp:conv:{field(f)}" for f in placed.values()}
    prev, nxt = _neighbour(turns, ti, -1), _neighbour(turns, ti, 1)
    for (t, i), f in placed.items():
        if t == ti:
            out.add(f"pp:turn:{field(f)}")
            if i == si - 1:
                out.add(f"pp:before:{field(f)}")
        elif t == prev:
            out.add(f"pp:prev:{field(f)}")
        elif t == nxt:
            out.add(f"pp:next:{field(f)}")
    return sorted(out)


def structural(names: Sequence[str]) -> list[str]:
    """The named features that are not word identities."""
    return [n for n in names if not n.startswith(_WORDLY)]


def _neighbour(turns: Sequence[TurnLike], ti: int, step: int) -> int | None:
    who = turns[ti].who
    i = ti + step
    while 0 <= i < len(turns):
        if turns[i].who != who:
            return i
        i += step
    return None


def sentence_inputs(turns: Sequence[TurnLike], placed: dict[tuple[int, int], str],
                    embedder: Embedder, where: Sequence[tuple[int, int]] | None = None,
                    cheap: bool = True, placement: dict[tuple[int, int], str] | None = None,
                    neighbour: int | None = None, reach: int = 0,
                    ) -> tuple[list[tuple[int, int]], np.ndarray, list[list[str]]]:
    """The candidate sentences, their vectors block (sentence, previous and next turn of
    another speaker: ``(n, 3 * dim)``, zero rows where there is none) and their structural
    feature names (``cheap``: :func:`cheap_features`; else those of
    :func:`memlane.index.sentclass.features` without word identities, which search every
    cue pattern and cost several times more; ``placement``: the patterns' placements, read
    by :func:`placement_features`; ``neighbour``: the characters of a neighbouring turn's
    text embedded at most — None: its first :data:`NEIGHBOUR_SENTENCES` sentences whole;
    0: none, their columns stay zero; ``reach``: with ``cheap``, also a neighbouring turn's
    non-answer in its first ``reach`` sentences, :func:`_neighbour_cues`)."""
    where = list(candidates(turns) if where is None else where)
    dim = embedder.dim
    if not where:
        return where, np.zeros((0, 3 * dim), dtype=np.float32), []
    team = len({t.who for t in turns if t.role == "user"}) > 1
    if cheap:
        sides: dict[int, list[tuple[str, list[str], bool, list[str]]]] = {}
        seen: dict[int, list[str]] = {}
        names = [cheap_features(turns, ti, si, team, sides, reach, seen) for ti, si in where]
    else:
        context: dict[int, Any] = {}
        names = [structural(features(turns, ti, si, placed, team, context)) for ti, si in where]
    if placement is not None:
        for row, (ti, si) in zip(names, where, strict=True):
            row.extend(placement_features(turns, ti, si, placement))
    texts: list[str] = []
    slot: dict[Any, int] = {}

    def text_row(key: Any, text: str) -> int:
        if key not in slot:
            slot[key] = len(texts)
            texts.append(text)
        return slot[key]

    rows = []
    for ti, si in where:
        own = text_row((ti, si), turns[ti].sentences[si])
        sides = []
        for step in (-1, 1):
            n = _neighbour(turns, ti, step)
            sides.append(-1 if n is None or neighbour == 0 else text_row(
                n, " ".join(turns[n].sentences[:NEIGHBOUR_SENTENCES])[:neighbour]))
        rows.append((own, *sides))
    vecs = embedder.embed_batch(texts)
    vecs = np.vstack([vecs, np.zeros((1, dim), dtype=np.float32)])  # row -1: none
    idx = np.asarray(rows, dtype=np.intp)
    block = vecs[idx].reshape(len(where), 3 * dim)
    return where, block, names


class DenseSentenceModel:
    """Standardised inputs, then ``relu(x @ w1 + b1) @ w2 + b2`` (``w1`` absent: a
    linear model ``x @ w2 + b2``), softmax over :data:`LABELS`."""

    def __init__(self, vocab: Sequence[str], arrays: dict[str, np.ndarray],
                 meta: dict[str, Any] | None = None, embedder: Embedder | None = None) -> None:
        self.vocab = list(vocab)
        self.index = {n: i for i, n in enumerate(self.vocab)}
        self.arrays = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
        self.meta = dict(meta or {})
        self.thresholds: dict[str, float] = dict(self.meta.get("thresholds", {}))
        self.mode: str = str(self.meta.get("mode", "add"))
        """``add``: the patterns first, the model adds (and with a ``drop`` threshold
        removes); ``alone``: the model places every sentence, the patterns none."""
        self._embedder = embedder
        dims = self.arrays["mean"].shape[0]
        if dims != 3 * int(self.meta.get("dim", 256)) + len(self.vocab):
            raise ValueError(f"model inputs: {dims} columns for {len(self.vocab)} names")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (the worker's processes, ``--speed --jobs``) without the process's shared
        embedder, which each process loads for itself (the ONNX session does not pickle)."""
        state = dict(self.__dict__)
        shared = [*_EMBEDDER, *_BY_KIND.values()]
        if any(self._embedder is e for e in shared) or isinstance(self._embedder, _Joined):
            state["_embedder"] = None
        return state

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = vectors_embedder(str(self.meta.get("vectors", "static")))
        return self._embedder

    def inputs(self, block: np.ndarray, names: Sequence[Sequence[str]]) -> np.ndarray:
        """The model's input rows: the vectors block and the one-hot structural names."""
        x = np.zeros((len(names), block.shape[1] + len(self.vocab)), dtype=np.float32)
        x[:, : block.shape[1]] = block
        base = block.shape[1]
        get = self.index.get
        for r, row in enumerate(names):
            for n in row:
                j = get(n)
                if j is not None:
                    x[r, base + j] = 1.0
        return x

    def probabilities_of(self, x: np.ndarray) -> np.ndarray:
        """Row-wise class probabilities of input rows ``x``."""
        a = self.arrays
        h = (x - a["mean"]) / a["scale"]
        if "w1" in a:
            h = np.maximum(h @ a["w1"] + a["b1"], 0.0)
        z = h @ a["w2"] + a["b2"]
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    takes_keep = True
    """:meth:`classify` takes ``keep`` (read by :meth:`memlane.index.cues._Reader.learned`)."""

    @property
    def plain_inputs(self) -> bool:
        """Whether a sentence's inputs are its static vector and :func:`cheap_features` alone
        (no neighbours' vectors, no placement names, no neighbour cues): what the facts reader
        reads (:mod:`memlane.index.factmodel`), which can then take them from :meth:`classify`."""
        m = self.meta
        return (m.get("vectors", "static") == "static" and m.get("structure", "cheap") == "cheap"
                and m.get("neighbour") == 0 and not m.get("placement", False) and not int(m.get("reach", 0)))

    def classify(self, turns: Sequence[TurnLike], placed: dict[tuple[int, int], str],
                 keep: Callable[[tuple[int, int]], bool] | None = None,
                 inputs: dict[tuple[int, int], tuple[np.ndarray, list[str]]] | None = None,
                 ) -> dict[tuple[int, int], tuple[str, float, float]]:
        """Each candidate sentence's most likely field, its probability and that of none
        (``keep``: only the candidates it accepts — those whose verdict can be used; the
        others cost nothing; ``inputs``: filled with each sentence read's static vector and
        cheap feature names when :attr:`plain_inputs`, for the facts reader, session 50)."""
        placement = dict(placed) if self.meta.get("placement", False) else None
        if not self.meta.get("pattern_feature", False):
            placed = {}
        where = candidates(turns, int(self.meta.get("max_sentences", MAX_SENTENCES)))
        if keep is not None:
            where = [w for w in where if keep(w)]
        where, block, names = sentence_inputs(turns, placed, self.embedder, where,
                                              cheap=self.meta.get("structure", "cheap") == "cheap",
                                              placement=placement,
                                              neighbour=self.meta.get("neighbour"),
                                              reach=int(self.meta.get("reach", 0)))
        if not where:
            return {}
        if inputs is not None and self.plain_inputs:
            dim = int(self.meta.get("dim", 256))
            inputs.update((w, (block[i, :dim], names[i])) for i, w in enumerate(where))
        p = self.probabilities_of(self.inputs(block, names))
        best = p.argmax(axis=1)
        return {w: (LABELS[int(k)], float(p[i, k]), float(p[i, 0]))
                for i, (w, k) in enumerate(zip(where, best, strict=True))}

    def save(self, path: str | Path) -> Path:
        """Write the weights (``.npz``; :func:`load_dense` reads them)."""
        target = Path(path)
        payload: dict[str, Any] = {"vocab": np.array(self.vocab, dtype=np.str_),
                                   "meta": np.array(json.dumps(self.meta, sort_keys=True)),
                                   "labels": np.array(LABELS, dtype=np.str_), **self.arrays}
        with target.open("wb") as fh:
            np.savez_compressed(fh, **payload)
        return target


def load_dense(path: str | Path, embedder: Embedder | None = None) -> DenseSentenceModel:
    """The model whose weights :meth:`DenseSentenceModel.save` wrote to ``path``."""
    with np.load(Path(path), allow_pickle=False) as data:
        if [str(x) for x in data["labels"]] != list(LABELS):
            raise ValueError(f"{path}: weights for other labels")
        arrays = {k: data[k] for k in ("mean", "scale", "w1", "b1", "w2", "b2") if k in data}
        return DenseSentenceModel([str(x) for x in data["vocab"]], arrays,
                                  json.loads(str(data["meta"])), embedder)


def shipped(vectors: str = "static") -> DenseSentenceModel:
    """The model whose weights ship in the package for ``vectors`` (:data:`SHIPPED`, or
    :data:`SHIPPED_MEANING` for ``meaning``), read once per process (no download; the
    embedder loads on its first use)."""
    if vectors not in _SHIPPED_FILES:
        raise ValueError(f"no shipped sentence model for vectors {vectors!r} "
                         f"(one of {', '.join(_SHIPPED_FILES)})")
    with _LOCK:
        if vectors not in _SHIPPED_BY:
            from importlib import resources

            name = _SHIPPED_FILES[vectors]
            with resources.as_file(resources.files("memlane.index") / name) as path:
                _SHIPPED_BY[vectors] = load_dense(path)
        return _SHIPPED_BY[vectors]


def shipped_vectors(model: Any) -> str | None:
    """The ``vectors`` whose shipped model ``model`` is (None: not a shipped model)."""
    return next((k for k, m in _SHIPPED_BY.items() if m is model), None)
