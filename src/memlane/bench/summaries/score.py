"""Scoring a summary against a person's labels, field by field.

The matching rule (docs/summary-eval.md):

- Every text is reduced to its *content tokens*: lower-cased runs of letters and digits,
  stopwords dropped, a plural ``-s``/``-es``/``-ies`` cut (``tickets`` = ``ticket``).
- A predicted item and a labelled item *match* when the Dice coefficient of their token
  sets, ``2·|A∩B| / (|A|+|B|)``, is at least :data:`THRESHOLD` (0.5). Matching is one to
  one: the pairs are taken greedily from the most similar down, and an item is used once.
- ``entities`` and ``references`` match by normalized name instead (case-folded, accents,
  surrounding quotes/punctuation and a leading "the" dropped; whitespace collapsed).
- ``next_steps`` compares the union of the backend's ``next_steps`` and ``action_items``
  with the labels (the line between the two is a matter of taste); a leading ``Owner:``
  is not part of the text compared. *Owner accuracy* is the share of matched items whose
  label names an owner and whose predicted item names it too (as a whole word).
- ``facts`` compares the *object* of each predicted fact with the labelled object (the
  subject is spelled too many ways: "user", "we", "the team").
- Precision, recall and F1 are micro-averaged: true positives, predictions and labels are
  summed over all conversations, so a backend that writes a decision for a conversation
  with none loses precision.

*Small talk* is counted apart: a predicted item of any list field with no content word
once stopwords and courtesy words ("agreed", "thanks", "sounds good", "let's do that",
"will do") are removed. *Cross-field repeats* are sentences that appear in two or more of the list
fields at once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from memlane.retrieve.text import STOPWORDS

__all__ = [
    "THRESHOLD",
    "FieldScore",
    "dice",
    "is_small_talk",
    "match",
    "name_key",
    "tokens",
]

THRESHOLD = 0.5
"""Least Dice coefficient of two items' content tokens for them to match."""

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_OWNER = re.compile(r"^\s*([^:]{1,40}):\s+")
_COURTESY = frozenset(
    "agreed agree ok okay sure yes yeah yep great good sounds sound fine perfect nice cool "
    "thanks thank please done deal works work go ahead absolutely right exactly indeed "
    "alright all let lets do it that me by".split()
)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> frozenset[str]:
    """The content tokens of a text (see the module docstring)."""
    words = _TOKEN.findall(_fold(text).replace("\u2019", "'"))
    return frozenset(_stem(w.replace("'", "")) for w in words if w not in STOPWORDS)


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """``2·|a∩b| / (|a|+|b|)``; 0 when both are empty."""
    if not a or not b:
        return 0.0
    return 2 * len(a & b) / (len(a) + len(b))


def name_key(name: str) -> str:
    """An entity or reference name, normalized for equality."""
    text = " ".join(_fold(name).split()).strip(" \t\"'`.,;:()[]{}")
    return re.sub(r"^the\s+", "", text).rstrip("/")


def strip_owner(text: str) -> str:
    """An item without a leading ``Owner:``."""
    return _OWNER.sub("", text, count=1)


def is_small_talk(text: str) -> bool:
    """True for an item with no content word beyond stopwords and courtesy words."""
    words = {w.replace("'", "") for w in _TOKEN.findall(_fold(text).replace("\u2019", "'"))
             if w not in STOPWORDS}
    return not words - _COURTESY


@dataclass
class FieldScore:
    """Counts for one field, summed over conversations."""

    tp: int = 0
    predicted: int = 0
    expected: int = 0
    owners_expected: int = 0
    owners_right: int = 0
    misses: list[dict[str, object]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / self.predicted if self.predicted else (1.0 if not self.expected else 0.0)

    @property
    def recall(self) -> float:
        return self.tp / self.expected if self.expected else (1.0 if not self.predicted else 0.0)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def owner_accuracy(self) -> float | None:
        return self.owners_right / self.owners_expected if self.owners_expected else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "precision": round(self.precision, 3), "recall": round(self.recall, 3),
            "f1": round(self.f1, 3), "tp": self.tp, "predicted": self.predicted,
            "expected": self.expected,
        }
        if self.owners_expected:
            out["owner_accuracy"] = round(self.owners_right / self.owners_expected, 3)
        return out


def match(
    predicted: Sequence[str], expected: Sequence[str], *, by_name: bool = False
) -> list[tuple[int, int]]:
    """One-to-one pairs ``(predicted index, expected index)`` that match.

    ``by_name``: equality of :func:`name_key`; otherwise Dice of content tokens >=
    :data:`THRESHOLD`, pairs taken greedily from the most similar down.
    """
    if by_name:
        keys = [name_key(e) for e in expected]
        used: set[int] = set()
        pairs = []
        for i, p in enumerate(predicted):
            key = name_key(p)
            j = next((j for j, k in enumerate(keys) if k == key and j not in used), None)
            if j is not None:
                used.add(j)
                pairs.append((i, j))
        return pairs
    ptoks = [tokens(p) for p in predicted]
    etoks = [tokens(e) for e in expected]
    scored = sorted(
        ((dice(a, b), i, j) for i, a in enumerate(ptoks) for j, b in enumerate(etoks)),
        key=lambda x: (-x[0], x[1], x[2]),
    )
    used_p: set[int] = set()
    used_e: set[int] = set()
    out = []
    for sim, i, j in scored:
        if sim < THRESHOLD:
            break
        if i in used_p or j in used_e:
            continue
        used_p.add(i)
        used_e.add(j)
        out.append((i, j))
    return sorted(out)


def has_owner(text: str, owner: str) -> bool:
    """Whether ``text`` names ``owner`` as a whole word (case-insensitive)."""
    return re.search(r"(?<!\w)" + re.escape(_fold(owner)) + r"(?!\w)", _fold(text)) is not None


def score_field(
    score: FieldScore,
    conversation: str,
    predicted: Iterable[str],
    expected: Sequence[str],
    *,
    owners: Sequence[str] = (),
    by_name: bool = False,
    compare: Sequence[str] | None = None,
) -> None:
    """Add one conversation's field to ``score``, recording what was missed or extra.

    ``compare``: the texts to compare in place of ``predicted`` (same order), e.g. without
    their owner prefix; ``owners``: the labelled owner of each expected item ("" none).
    """
    predicted = list(predicted)
    texts = list(compare) if compare is not None else predicted
    pairs = match(texts, expected, by_name=by_name)
    score.tp += len(pairs)
    score.predicted += len(predicted)
    score.expected += len(expected)
    for i, j in pairs:
        owner = owners[j] if j < len(owners) else ""
        if owner:
            score.owners_expected += 1
            if has_owner(predicted[i], owner):
                score.owners_right += 1
            else:
                score.misses.append({"conversation": conversation, "kind": "owner",
                                     "text": predicted[i], "owner": owner})
    hit_p = {i for i, _ in pairs}
    hit_e = {j for _, j in pairs}
    for j, e in enumerate(expected):
        if j not in hit_e:
            score.misses.append({"conversation": conversation, "kind": "missed", "text": e})
    for i, p in enumerate(predicted):
        if i not in hit_p:
            score.misses.append({"conversation": conversation, "kind": "extra", "text": p})
