"""One registry builds embedders and intelligence backends from a Config."""

from __future__ import annotations

import dataclasses

from memlane.backends.embed import HashingEmbedder, StaticEmbedder
from memlane.backends.registry import (
    available_intelligence,
    make_embedder,
    make_intelligence,
    register_intelligence,
)
from memlane.config import Config
from memlane.index.offline import OfflineIntelligence
from memlane.memory import make_embedder as memory_make_embedder


def test_embedder_from_config_or_by_name():
    config = Config()
    assert isinstance(make_embedder(config), StaticEmbedder)
    assert isinstance(make_embedder(config, "hashing"), HashingEmbedder)
    hashing = dataclasses.replace(config, embedding=dataclasses.replace(config.embedding, backend="hashing"))
    assert isinstance(make_embedder(hashing), HashingEmbedder)
    assert memory_make_embedder is make_embedder  # the facade re-exports the one registry


def test_intelligence_backends_are_registered_and_replaceable():
    assert available_intelligence() == ["llm", "offline"]
    assert isinstance(make_intelligence(Config()), OfflineIntelligence)

    class Marked(OfflineIntelligence):
        pass

    from memlane.backends import registry

    original = registry._INTELLIGENCE["offline"]
    register_intelligence("offline", lambda config: Marked())
    try:
        assert isinstance(make_intelligence(Config()), Marked)
    finally:
        register_intelligence("offline", original)
