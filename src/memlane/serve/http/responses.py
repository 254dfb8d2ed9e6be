"""``JSONResponse``: Starlette's, encoded by orjson (several times faster than ``json``).

Every JSON answer of the service goes through it. Like Starlette's, it writes compact
UTF-8; unlike it, numpy scalars and arrays encode as numbers and a non-string dict key as
its string, and it encodes memlane's dataclasses and datetimes itself, in C, exactly as
``memlane.serve.render.to_plain`` would (ISO 8601, ``Z`` for UTC): the search and pack
answers hand it their items and sessions as they are.
"""

from __future__ import annotations

from typing import Any

import json

import orjson
from starlette.responses import JSONResponse as _StarletteJSON

__all__ = ["JSONResponse"]

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_UTC_Z


class JSONResponse(_StarletteJSON):
    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(content, option=_OPTIONS)
        except TypeError:
            # an integer past 64 bits, which orjson cannot write: an item's extra stored
            # before memlane refused them (ingest.params._wide_int) made every answer
            # carrying it a 500
            from memlane.serve.render import to_plain

            return json.dumps(to_plain(content), ensure_ascii=False, separators=(",", ":"),
                              default=_plain).encode()


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else str(value)
