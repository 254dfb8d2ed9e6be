"""Named retrieval presets: weight sets for the reranking signals, as constants.

Like graphiti's ``search_config_recipes``: each preset is a frozen value that names
which signals count and how much. ``default`` is not here: it means "the ``*_weight`` keys
of ``[memory.retrieval]``", whose defaults equal ``SESSION``. A hit's final score is
``sum(weights[s] * signal[s]) - weights["coverage"] * coverage`` (see
``memlane.retrieve.rerank`` for each signal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from memlane.retrieve.rerank import SIGNALS

__all__ = ["ARAWN", "FLAT", "LEXICAL", "MEANING", "PRESETS", "RECENCY", "SESSION", "Preset", "from_config"]


@dataclass(frozen=True)
class Preset:
    """A named weight set; ``session_aware`` None leaves the choice to config or caller."""

    name: str
    description: str
    weights: Mapping[str, float] = field(default_factory=dict)
    session_aware: bool | None = None
    fusion: tuple[float, float] | None = None
    """(lexical, vector) RRF weights for the candidate lists; None: ``[memory.search]``'s."""
    kind_bonuses: tuple[tuple[str, float], ...] | None = None
    """Per-kind bonuses (``turn.user`` for turns by role); None: ``[memory.retrieval]``'s."""
    meaning: bool | None = None
    """The meaning tier (a transformer re-scores the best candidates); None: the config's."""

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(SIGNALS))
        if unknown:
            raise ValueError(f"preset {self.name}: unknown signal(s) {unknown}; known: {SIGNALS}")
        object.__setattr__(self, "weights", MappingProxyType(
            {s: float(self.weights.get(s, 0.0)) for s in SIGNALS}))

    def weight(self, signal: str) -> float:
        return self.weights[signal]


SESSION = Preset(
    name="session",
    description="Session-aware two-stage retrieval with the weights tuned on LongMemEval_S dev "
    "(the defaults of [memory.retrieval]).",
    weights={"relevance": 1.0, "session": 0.05, "kind": 1.0, "time": 0.4},
    session_aware=True,
    fusion=(0.6, 0.4),
    kind_bonuses=(("turn.user", 0.3),),
)
FLAT = Preset(
    name="flat",
    description="Today's hybrid search: fused lexical + vector relevance only, no stage one.",
    weights={"relevance": 1.0},
    session_aware=False,
)
ARAWN = Preset(
    name="arawn",
    description="Arawn's blend: 0.4 vector cosine + 0.3 graph relevance + 0.3 confidence.",
    weights={"cosine": 0.4, "graph": 0.3, "confidence": 0.3},
    session_aware=False,
)
RECENCY = Preset(
    name="recency",
    description="Session-aware relevance with strong recency and pins: for an assistant's "
    "working memory, where newer usually wins.",
    weights={"relevance": 1.0, "session": 0.05, "kind": 1.0, "recency": 0.5, "pin": 1.0,
             "trust": 0.2},
    session_aware=True,
    fusion=(0.6, 0.4),
    kind_bonuses=(("turn.user", 0.3), ("decision", 0.3), ("preference", 0.3)),
)
LEXICAL = Preset(
    name="lexical",
    description="Keyword search only (BM25 over text and expansion keys), flat.",
    weights={"relevance": 1.0},
    session_aware=False,
    fusion=(1.0, 0.0),
)

MEANING = Preset(
    name="meaning",
    description="The session preset with the meaning tier: MiniLM re-scores the best "
    "candidates (retrieval.meaning_candidates) and its cosine joins their relevance.",
    weights=dict(SESSION.weights),
    session_aware=True,
    fusion=(0.6, 0.4),
    kind_bonuses=(("turn.user", 0.3),),
    meaning=True,
)

PRESETS: Mapping[str, Preset] = MappingProxyType(
    {p.name: p for p in (SESSION, FLAT, ARAWN, RECENCY, LEXICAL, MEANING)}
)
"""Every named preset by name (``default`` is the configured weights)."""


def from_config(cfg: Any) -> Preset:
    """The ``default`` preset: the ``<signal>_weight`` keys of a RetrievalConfig."""
    return Preset(
        name="default",
        description="The weights of [memory.retrieval].",
        weights={s: getattr(cfg, f"{s}_weight") for s in SIGNALS},
        session_aware=None,
        fusion=(cfg.fusion_lexical, cfg.fusion_vector),
        kind_bonuses=tuple(cfg.kind_bonus_map().items()),
    )
