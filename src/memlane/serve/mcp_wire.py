"""What the MCP server answers a message that is not a JSON-RPC message it can take, on both
transports (``mcp_stdio`` and ``mcp_http``), before the SDK sees it.

The SDK dropped such a line over stdio without a word (the client waited for an answer
that never came: text that is not JSON, ``"jsonrpc": "1.0"``, a batch, ``"params": "x"``);
over HTTP it answered them -32602 (invalid params) with pydantic's many-line dump; and a
request whose ``id`` is not a string or an integer (``{"a": 1}``, ``1.5``, ``true``,
``null``) was taken for a notification, run, and never answered on either. JSON-RPC 2.0
says: text that is not JSON is a parse error (-32700), anything else that is not a valid
request is an invalid request (-32600), each answered with the request's id, or ``null``
when none can be read. ``refusal(line)`` gives that answer, naming the member at fault.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

__all__ = ["refusal"]

def _is_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _surrogate_at(value: Any, path: str) -> str | None:
    """The path of the first string in ``value`` holding a lone surrogate (``\\ud800``
    escaped in the JSON: valid JSON, but no Unicode character, so no text can hold it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path or "message"
        return None
    if isinstance(value, dict):
        for k, v in value.items():
            found = _surrogate_at(k, path) or _surrogate_at(v, f"{path}.{k}" if path else k)
            if found:
                return found
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _surrogate_at(v, f"{path}.{i}" if path else str(i))
            if found:
                return found
    return None


def _error(code: int, message: str, rid: Any = None) -> JSONRPCError:
    if not _is_id(rid) or _surrogate_at(rid, "id"):
        rid = None
    return JSONRPCError(jsonrpc="2.0", id=rid,
                        error=ErrorData(code=code, message=message))


def refusal(line: str | bytes) -> JSONRPCError | None:
    """The error answering ``line`` (one message as sent), or None when it is a JSON-RPC
    message the SDK may take."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", "surrogateescape")
    # bytes that are not UTF-8, kept as surrogate escapes (stdin's reader keeps them so)
    not_utf8 = any("\udc80" <= c <= "\udcff" for c in line)
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as e:
        return _error(PARSE_ERROR, f"Parse error: {'not UTF-8' if not_utf8 else str(e)[:200]}")
    if isinstance(message, list):
        return _error(INVALID_REQUEST, "Invalid Request: a batch (JSON array) is not taken; "
                      "send each message on its own")
    if not isinstance(message, dict):
        return _error(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    rid = message.get("id")
    if "id" in message and not _is_id(rid) and not (rid is None and "error" in message):
        return _error(INVALID_REQUEST, f"Invalid Request: id: must be a string or an integer "
                      f"(got {json.dumps(rid)[:40]})")
    if message.get("jsonrpc") != "2.0":
        got = json.dumps(message["jsonrpc"])[:40] if "jsonrpc" in message else "none"
        return _error(INVALID_REQUEST, f'Invalid Request: jsonrpc: must be "2.0" (got {got})',
                      rid)
    if "method" in message:
        if not isinstance(message["method"], str):
            return _error(INVALID_REQUEST, "Invalid Request: method: must be a string", rid)
        params = message.get("params", {})
        if not isinstance(params, dict):
            return _error(INVALID_REQUEST, "Invalid Request: params: must be an object", rid)
        if message["method"] == "tools/call" and "id" in message:
            # the SDK answered these "Invalid request parameters", naming nothing
            if not isinstance(params.get("name"), str):
                return _error(INVALID_PARAMS, "params.name: the tool's name, a string, is "
                              "required", rid)
            if not isinstance(params.get("arguments", {}), dict):
                return _error(INVALID_PARAMS, "params.arguments: must be an object of the "
                              "tool's arguments", rid)
    elif not ("result" in message or "error" in message) or "id" not in message:
        return _error(INVALID_REQUEST, "Invalid Request: method: required", rid)
    where = _surrogate_at(message, "")
    if where is not None and not_utf8:
        return _error(PARSE_ERROR, f"Parse error: {where}: not UTF-8", rid)
    if where is not None:
        return _error(PARSE_ERROR, f"Parse error: {where}: holds a lone surrogate escape "
                      "(\\ud800-\\udfff without its pair), which is no Unicode character", rid)
    return None

