"""The ``LLM`` seam and structured answers on top of it.

An LLM backend is anything with a ``name`` and a ``complete(messages, ...) -> str``
method taking OpenAI-style chat messages (``[{"role": "system", "content": "..."}, ...]``).
:func:`complete_json` asks such a backend for one JSON value, pulls it out of the reply
(code fences and prose around it are tolerated), validates it against a small subset of
JSON Schema (:func:`validate_json`) and, when the reply is malformed, shows the model
its error and asks again a bounded number of times.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from memlane.backends.llm.errors import LLMBadResponse

__all__ = [
    "LLM",
    "SchemaViolation",
    "complete_json",
    "extract_json",
    "strip_reasoning",
    "validate_json",
]


@runtime_checkable
class LLM(Protocol):
    """A chat model: OpenAI-style messages in, the assistant's text out.

    ``name`` identifies the backend and model (it ends up in stored summaries).
    ``json_mode`` asks the backend to constrain the answer to a JSON object when it can;
    callers must still validate what comes back (see :func:`complete_json`).
    Implementations raise :class:`~memlane.backends.llm.errors.LLMError` subclasses.
    """

    name: str

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
    ) -> str: ...


# -- a small JSON Schema validator ---------------------------------------------------

class SchemaViolation(ValueError):
    """A JSON value does not match its schema; ``path`` locates the first violation
    (``$`` is the root, e.g. ``$.facts[2].turn``)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_type(value: Any, expected: str) -> bool:
    if expected == "object":
        return isinstance(value, dict)
    if expected == "array":
        return isinstance(value, list)
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if expected == "null":
        return value is None
    if isinstance(value, bool):  # JSON booleans are not numbers
        return False
    if expected == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if expected == "number":
        return isinstance(value, (int, float))
    raise ValueError(f"unsupported schema type {expected!r}")


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def validate_json(value: Any, schema: Mapping[str, Any], path: str = "$") -> None:
    """Raise :class:`SchemaViolation` naming the path of the first place where ``value``
    does not match ``schema``.

    Supported keywords: ``type`` (object, array, string, integer, number, boolean, null,
    or a list of them), ``required``, ``properties``, ``items`` and ``enum``. Other
    keywords are ignored; properties not listed in ``properties`` are allowed.
    """
    expected = schema.get("type")
    if expected is not None:
        options = [expected] if isinstance(expected, str) else list(expected)
        if not any(_is_type(value, t) for t in options):
            raise SchemaViolation(
                path, f"expected {' or '.join(options)}, got {_type_name(value)} ({_show(value)})"
            )
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(_show(v) for v in schema["enum"])
        raise SchemaViolation(path, f"{_show(value)} is not one of {allowed}")
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                raise SchemaViolation(path, f"missing required property {name!r}")
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                plain = re.fullmatch(r"[A-Za-z_]\w*", name)
                key = f"{path}.{name}" if plain else f"{path}[{name!r}]"
                validate_json(value[name], sub, key)
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            validate_json(item, schema["items"], f"{path}[{i}]")


# -- pulling JSON out of a chat reply ------------------------------------------------

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)```", re.DOTALL)
_MAX_STARTS = 64
_CLOSE = "</think>"
_TOO_DEEP = "the JSON is nested too deeply to read"


def strip_reasoning(text: str) -> str:
    """A reasoning model's answer without its reasoning: every ``<think>...</think>``
    block dropped, everything up to a lone ``</think>`` too (chat templates that open the
    block in the prompt leave only its end in the answer), and an unclosed ``<think>``
    with all after it (the model was cut while reasoning)."""
    text = _THINK.sub("", text)
    low = text.lower()
    end = low.rfind(_CLOSE)
    if end >= 0:
        text, low = text[end + len(_CLOSE):], low[end + len(_CLOSE):]
    start = low.find("<think>")
    if start >= 0:
        text = text[:start]
    return text.strip()


def extract_json(text: str, *, want: str | None = "object") -> Any:
    """The JSON value in a chat reply, or ``ValueError`` saying why there is none.

    Tried in order: the whole reply; each fenced code block (```` ```json ... ``` ````);
    the first decodable value starting at a ``{`` (``[`` when ``want="array"``, either when
    ``want`` is None) with prose before or after it. The reasoning of reasoning models is
    dropped first (:func:`strip_reasoning`: ``<think>...</think>`` blocks, all before a lone
    ``</think>``, an unclosed ``<think>`` and all after it), so a draft JSON in the
    reasoning is never taken for the answer.
    """
    cleaned = strip_reasoning(text)
    if not cleaned:
        if "<think>" in text.lower() or _CLOSE in text.lower():
            raise ValueError("the answer holds only reasoning (<think>...), no JSON after it")
        raise ValueError("the answer is empty")
    first_error: str | None = None
    candidates = [cleaned] + [m.group(1).strip() for m in _FENCE.finditer(cleaned)]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
            if isinstance(value, str) and value.strip()[:1] in ("{", "["):
                # the JSON encoded twice ("{\"topic\": …}"), as some proxies and models
                # send it: the value it holds
                with contextlib.suppress(ValueError, RecursionError):
                    inner = json.loads(value)
                    if isinstance(inner, (dict, list)):
                        return inner
            return value
        except json.JSONDecodeError as exc:
            first_error = first_error or f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        except ValueError as exc:  # valid JSON Python refuses: an integer past 4,300 digits
            first_error = first_error or str(exc)
        except RecursionError:  # '[[[[…' of a model repeating itself: no answer, no crash
            first_error = first_error or _TOO_DEEP
    openers = {"object": "{", "array": "["}.get(want or "", "{[")
    decoder = json.JSONDecoder()
    tried = 0
    for i, ch in enumerate(cleaned):
        if ch not in openers:
            continue
        tried += 1
        if tried > _MAX_STARTS:
            break
        try:
            value, _end = decoder.raw_decode(cleaned, i)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return value
    if tried == 0:
        noun = {"{": "object", "[": "array"}.get(openers, "object or array")
        raise ValueError(f"no JSON {noun} found in the answer")
    raise ValueError(f"the JSON does not parse: {first_error}")


REPAIR_ECHO_CHARS = 16_000
"""At most this much of a malformed answer is sent back in a repair turn (about 4,000
tokens; its first three quarters and its last quarter, the cut said in between)."""


def _echo(reply: str) -> str:
    """The answer as a repair turn shows it to the model: its reasoning (``<think>``
    blocks) dropped when an answer is left after it, and within ``REPAIR_ECHO_CHARS``. The
    whole answer was sent back, however long: a model that rambled for 8 MB (the most an
    answer may be) made a repair request of 8 MB, far past any context window, so the
    repair could only fail, after the server had read it all."""
    answer = strip_reasoning(reply) or reply
    if len(answer) <= REPAIR_ECHO_CHARS:
        return answer
    head = REPAIR_ECHO_CHARS * 3 // 4
    tail = REPAIR_ECHO_CHARS - head
    cut = len(answer) - head - tail
    return (f"{answer[:head]}\n[… {cut:,} characters of this answer left out …]\n"
            f"{answer[-tail:]}")


def _snippet(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def complete_json(
    llm: LLM,
    messages: Sequence[Mapping[str, Any]],
    schema: Mapping[str, Any],
    *,
    repairs: int = 2,
    temperature: float | None = None,
    max_tokens: int | None = None,
) -> Any:
    """Ask ``llm`` for one JSON value matching ``schema`` and return it (parsed).

    The reply may wrap the JSON in code fences or prose. When it holds no valid JSON, or
    the JSON breaks the schema, the conversation continues with the model's answer (without
    its reasoning, at most ``REPAIR_ECHO_CHARS``) and a repair turn (``your previous answer
    was not valid JSON: <error>; answer again with only the JSON object``), at most
    ``repairs`` times; then
    :class:`~memlane.backends.llm.errors.LLMBadResponse` is raised with the last error.
    Transport errors of the backend (timeouts, HTTP errors) propagate unchanged.
    """
    if repairs < 0:
        raise ValueError("repairs must be >= 0")
    want = schema.get("type") if isinstance(schema.get("type"), str) else None
    convo: list[dict[str, Any]] = [dict(m) for m in messages]
    noun = "JSON array" if want == "array" else "JSON object"
    error = ""
    reply = ""
    for attempt in range(repairs + 1):
        reply = llm.complete(
            convo, temperature=temperature, max_tokens=max_tokens, json_mode=want == "object"
        )
        try:
            value = extract_json(reply, want=want)
            if want == "object" and isinstance(value, list) and len(value) == 1 \
                    and isinstance(value[0], dict):
                value = value[0]  # the object asked for, in a list of one (small models)
            validate_json(value, schema)
        except ValueError as exc:  # SchemaViolation is a ValueError too
            error = str(exc)
        else:
            return value
        if attempt < repairs:
            convo.append({"role": "assistant", "content": _echo(reply)})
            convo.append({
                "role": "user",
                "content": f"Your previous answer was not valid JSON: {error}. "
                f"Answer again with only the {noun}, no other text.",
            })
    tries = repairs + 1
    raise LLMBadResponse(
        f"{getattr(llm, 'name', type(llm).__name__)}: no valid JSON after {tries} "
        f"attempt{'s' if tries > 1 else ''}: {error}; last answer began: {_snippet(reply, 120)!r}",
        reply=reply[:2000],
    )
