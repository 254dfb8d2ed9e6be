"""A learned sentence classifier for the offline summary's fields.

A linear model (multinomial logistic regression) says of a participant's sentence, or of
the opening of an answer, whether it is a decision, an open question, a next step, a
rationale or none of these. Its features are meant to carry over to conversations worded
differently from the ones it was trained on:

- the turn's role (a participant or the assistant), whether several people talk, the
  turn's and the sentence's position (first, last), a question or an exclamation, the
  number of content words;
- the turns around it: the previous turn of another speaker (a question, a proposal) and
  the next one (an agreement, an acceptance, a deferral, a bare "Done.", a question back);
- which of the cue patterns of :mod:`memlane.index.cues` match (a proposal, a commitment,
  a request, a deferral, a remark…), and the field the patterns placed it in;
- modal, tense and person words, the first word and whether it is an imperative verb;
- hashed words and word pairs.

Inference is a sum of a few dozen weight rows per sentence (pure Python, no numpy). The
weights are trained on the labelled dev set (``memlane bench summaries --train``, which
needs the ``train`` extra: scikit-learn; on the development pool since session 8) and
written as JSON. The offline backend does not use a model by default: trained on the dev
set's 435 sentences it added nothing on the three held-out sets (docs/summary-eval.md,
session 7), and trained on the 109-conversation pool it did not beat the patterns in
cross-validation (session 8); ``memlane bench summaries --model FILE`` scores the backend
with one.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from memlane.index import cues as c

__all__ = ["LABELS", "SentenceModel", "candidates", "features", "load_model"]

LABELS = ("none", "decisions", "open_questions", "next_steps", "rationale")
"""The classes, named as the summary fields they fill (``none``: no field)."""
DIM = 1 << 14
"""Hashed feature space (word and pair features share it with the named ones)."""
ASSISTANT_LEAD = 2
"""Sentences of an assistant turn that are classified (its answer's opening)."""
_MAX_CHARS = 400
"""Longer sentences (pasted text, lists run together) are not classified."""

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_MODALS = frozenset("will would shall should can could may might must need needs have has "
                    "going want wants 'll 'd won't can't don't".split())
_PERSON = frozenset("i we you he she they me us our my your i'll we'll i'd we'd i'm we're "
                    "you'll you're let's".split())
_PAST = re.compile(r"\b[a-z]{3,}ed\b")
_DEFER_LET = re.compile(r"\blet'?s\s+(?:" + c._DEFER + r")", re.IGNORECASE)
_NUMBER = re.compile(r"\d")

_CUE_PATTERNS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("decision", c._DECISION, "s"),
    ("open", c._OPEN, "s"),
    ("next", c._NEXT, "s"),
    ("rationale", c._RATIONALE, "s"),
    ("proposal", c._PROPOSAL, "s"),
    ("commit", c._COMMIT, "s"),
    ("choice", c._CHOICE, "s"),
    ("request", c._REQUEST, "l"),
    ("offer", c._OFFER, "s"),
    ("remark", c._REMARK, "s"),
    ("nonanswer", c._NON_ANSWER, "s"),
    ("done", c._DONE, "s"),
    ("remember", c._REMEMBER, "s"),
    ("hedge", c._HEDGE, "s"),
    ("sounds", c._SOUNDS, "s"),
    ("options", c._OPTIONS, "s"),
    ("deferlet", _DEFER_LET, "s"),
    ("asstcommit", c._ASSISTANT_COMMIT, "s"),
)
"""The cue patterns whose hits are features (``s``: searched in the sentence, ``l``: in
its lower-cased text)."""
_MATCH_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("agree", c._AGREE), ("agreemore", c._AGREE_MORE), ("accept", c._ACCEPT),
    ("takeadvice", c._TAKE_ADVICE), ("ask", c._ASK), ("namewill", c._NAME_WILL),
    ("worked", c._WORKED), ("doneword", c._DONE_WORD), ("sayschoice", c._SOUNDS_CHOICE),
    ("thenchoice", c._THEN_CHOICE), ("yesdo", c._YES_DO), ("nosaid", c._NO_SAID),
)
"""Patterns anchored at the sentence's start."""


class TurnLike(Protocol):
    who: str
    role: str
    sentences: Sequence[str]


def candidates(turns: Sequence[TurnLike]) -> list[tuple[int, int]]:
    """The sentences the model reads: every sentence of a participant's turn, the first
    :data:`ASSISTANT_LEAD` of an answer; none longer than 400 characters."""
    out: list[tuple[int, int]] = []
    for ti, t in enumerate(turns):
        sents = t.sentences if t.role == "user" else t.sentences[:ASSISTANT_LEAD]
        out.extend((ti, si) for si, s in enumerate(sents) if len(s) <= _MAX_CHARS)
    return out


def _turn_summary(turn: TurnLike) -> list[str]:
    """What a neighbouring turn says, as features: how it opens and whether it asks."""
    sents = turn.sentences
    if not sents:
        return []
    first = sents[0]
    out = [f"r={turn.role}"]
    if first.endswith("?"):
        out.append("q0")
    if sents[-1].endswith("?"):
        out.append("qlast")
    if len(first) <= c._SHORT and c.is_courtesy(first):
        out.append("courtesy")
    for name, pattern in _MATCH_PATTERNS[:4]:
        if pattern.match(first):
            out.append(name)
    if c._DONE_WORD.match(first):
        out.append("doneword")
    joined = " ".join(sents[:3])
    if c._NON_ANSWER.search(joined):
        out.append("nonanswer")
    if c._PROPOSAL.search(joined):
        out.append("proposal")
    if c._REQUEST.search(joined.lower()):
        out.append("request")
    if c._DONE.search(joined):
        out.append("done")
    return out


def features(turns: Sequence[TurnLike], ti: int, si: int, placed: dict[tuple[int, int], str],
             team: bool, context: dict[int, tuple[list[str], list[str]]]) -> list[str]:
    """The named features of sentence ``si`` of turn ``ti``. ``placed``: the fields the
    cue patterns put sentences in; ``context``: per turn, the features of the previous and
    next turn of another speaker (filled as needed)."""
    turn = turns[ti]
    s = turn.sentences[si]
    low = s.lower()
    role = "u" if turn.role == "user" else "a"
    out = [f"role={role}", f"team={team}", f"pat={placed.get((ti, si), '-')}"]
    if ti == 0:
        out.append("t0")
    if ti == len(turns) - 1:
        out.append("tlast")
    out.append(f"s0={si == 0}")
    if si == len(turn.sentences) - 1:
        out.append("slast")
    if si > 0:
        prev_s = turn.sentences[si - 1]
        if c.agrees(prev_s):
            out.append("after_agree")
        if prev_s.endswith("?"):
            out.append("after_q")
    if s.endswith("?"):
        out.append(f"q:{role}")
    elif s.endswith("!"):
        out.append("excl")
    words = _TOKEN.findall(low)
    content = [w for w in words if w not in c._STOP]
    n = len(content)
    out.append(f"len={min(n, 6) if n < 9 else 9}")
    if _NUMBER.search(s):
        out.append("digit")
    if words:
        lead = c.clean(s).split(maxsplit=1)
        first = lead[0].lower().strip(",.") if lead else words[0]
        out.append(f"w0={words[0]}")
        out.append(f"f0={first}")
        if first in c._IMPERATIVE and not s.endswith("?"):
            out.append(f"imp:{role}")
    for w in words:
        if w in _MODALS or w in _PERSON:
            out.append(f"m={w}")
        if w.endswith("'ll"):
            out.append("will")
    if _PAST.search(low):
        out.append("past")
    if len(s) <= c._SHORT and c.is_courtesy(s):
        out.append("courtesy")
    for name, pattern, where in _CUE_PATTERNS:
        if pattern.search(low if where == "l" else s):
            out.append(f"c={name}:{role}")
    for name, pattern in _MATCH_PATTERNS:
        if pattern.match(s):
            out.append(f"c={name}")
    if ti not in context:
        context[ti] = (_neighbour(turns, ti, -1), _neighbour(turns, ti, 1))
    before, after = context[ti]
    out.extend(f"p:{x}" for x in before)
    out.extend(f"n:{x}" for x in after)
    for a in after:
        if a in ("agree", "agreemore", "accept", "doneword", "nonanswer"):
            out.append(f"n:{a}:{role}:{'q' if s.endswith('?') else 's'}")
    out.extend(f"u={w}" for w in content)
    out.extend(f"b={a} {b}" for a, b in zip(words, words[1:], strict=False))
    return out


def _neighbour(turns: Sequence[TurnLike], ti: int, step: int) -> list[str]:
    who = turns[ti].who
    i = ti + step
    while 0 <= i < len(turns):
        if turns[i].who != who:
            return _turn_summary(turns[i])
        i += step
    return ["none"]


def hashed(names: Sequence[str]) -> list[int]:
    """The feature indices of named features (CRC-32, stable across runs and machines)."""
    return sorted({zlib.crc32(n.encode("utf-8")) & (DIM - 1) for n in names})


class SentenceModel:
    """The linear model: ``weights[index]`` is one row of ``len(LABELS)`` weights."""

    def __init__(self, bias: Sequence[float], weights: dict[int, Sequence[float]],
                 meta: dict[str, Any] | None = None) -> None:
        self.bias = list(bias)
        self.weights = {int(k): list(v) for k, v in weights.items()}
        self.meta = dict(meta or {})
        self.thresholds: dict[str, float] = dict(self.meta.get("thresholds", {}))

    def probabilities(self, names: Sequence[str]) -> list[float]:
        z = list(self.bias)
        w = self.weights
        for idx in hashed(names):
            row = w.get(idx)
            if row is not None:
                for k, v in enumerate(row):
                    z[k] += v
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [v / total for v in e]

    def classify(self, turns: Sequence[TurnLike], placed: dict[tuple[int, int], str]
                 ) -> dict[tuple[int, int], tuple[str, float, float]]:
        """Each candidate sentence's most likely field, its probability and that of none."""
        team = len({t.who for t in turns if t.role == "user"}) > 1
        context: dict[int, tuple[list[str], list[str]]] = {}
        if not self.meta.get("pattern_feature", True):
            placed = {}
        out = {}
        for ti, si in candidates(turns):
            p = self.probabilities(features(turns, ti, si, placed, team, context))
            k = max(range(len(p)), key=p.__getitem__)
            out[(ti, si)] = (LABELS[k], p[k], p[0])
        return out

    def to_json(self) -> str:
        return json.dumps({"labels": list(LABELS), "dim": DIM, "meta": self.meta,
                           "bias": [round(b, 5) for b in self.bias],
                           "weights": {str(k): [round(x, 5) for x in v]
                                       for k, v in sorted(self.weights.items())}},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, where: str = "sentclass.json") -> SentenceModel:
        data = json.loads(text)
        if data.get("labels") != list(LABELS) or data.get("dim") != DIM:
            raise ValueError(f"{where}: weights for other labels or another feature space")
        return cls(data["bias"], data["weights"], data.get("meta"))


def load_model(path: str | Path) -> SentenceModel:
    """The model whose weights ``memlane bench summaries --train`` wrote to ``path``."""
    return SentenceModel.from_json(Path(path).read_text("utf-8"), str(path))
