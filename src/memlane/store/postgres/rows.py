"""PostgreSQL store: vector decoding (row decoders are ``memlane.store.rows``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["id_array", "vec", "vector_bytes"]


def vec(v: Any) -> np.ndarray:
    return np.asarray(v, dtype=np.float32)


def vector_bytes(data: bytes) -> np.ndarray:
    """A ``vector`` in pgvector's binary format (int16 dim, int16 0, dim big-endian float4).

    Read in binary, a vector costs the server and the client about a tenth of its text
    form (``vec::real[]``: every float printed and parsed; measured with 30 256-d vectors,
    1.3 ms of server and 3.1 ms of client CPU against 0.24 and 0.35).
    """
    return np.frombuffer(data, dtype=">f4", offset=4).astype(np.float32)


def id_array(ids: Iterable[int]) -> str:
    """Integer ids as one ``bigint[]`` literal (``{1,2,3}``) for a ``%s::bigint[]`` parameter.

    psycopg adapts a Python list element by element (it looks for the element type, then
    dumps each): ~60 µs for 40 ids against ~8 as this text, a few times a search.
    """
    return "{" + ",".join(map(str, map(int, ids))) + "}"
