"""PostgreSQL store: vector decoding (row decoders are ``memlane.store.rows``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["vec"]


def vec(v: Any) -> np.ndarray:
    return np.asarray(v, dtype=np.float32)
